//===- GradientBuilder.h - State of one reverse-mode sweep ------*- C++ -*-===//
//
// Private to the Autodiff library. A GradientBuilder copies a specialised
// program's tensors and statements into the gradient program, then walks the
// statements backwards, appending the statements of each one's derivative.
// Its work is split by concept over Gradient.cpp (the sweep, the
// accumulation of cotangents and the entry point), ElementwiseRules.cpp and
// ContractionRules.cpp (the rules), and Resize.cpp (sums over broadcast
// dimensions).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_AUTODIFF_GRADIENTBUILDER_H
#define TILEC_LIB_AUTODIFF_GRADIENTBUILDER_H

#include "ExprBuilder.h"

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/StringSet.h"

#include <map>
#include <string>
#include <vector>

namespace tilec {
namespace autodiff {

class GradientBuilder {
public:
  GradientBuilder(const Program &forward, Diagnostics &diags);

  /// Builds the gradient program with respect to `wrt`; false after
  /// reporting an error.
  bool run(llvm::ArrayRef<std::string> wrt);
  Program &getGradient() { return gradient; }

  // Used by the rules.

  Diagnostics &getDiags() { return diags; }
  bool isVaried(unsigned tensor) const { return varied[tensor]; }
  /// Whether `expr` reads a varied tensor.
  bool isVaried(const Expr &expr) const;
  ExprPtr ref(unsigned tensor) const { return tensorRef(gradient, tensor); }
  const TensorDecl &getTensor(unsigned tensor) const {
    return gradient.tensors[tensor];
  }

  /// A new name, `base` or `base_N`, that no tensor has.
  std::string freshName(llvm::StringRef base);
  /// Appends `name = value;` and returns its tensor.
  unsigned emitElementwise(llvm::StringRef base, ExprPtr value,
                           llvm::SMLoc loc);
  /// Appends a contraction defining a new tensor of `dtype` and `shape`.
  unsigned emitContraction(llvm::StringRef base, DType dtype, Shape shape,
                           Contraction contraction, llvm::SMLoc loc);
  /// Appends `name = reshape(input, shape...)`.
  unsigned emitReshape(llvm::StringRef base, unsigned input, Shape shape,
                       llvm::SMLoc loc);
  /// `value` itself when it is a tensor or a constant, else a reference to
  /// a new tensor holding it: for a value that several rules read.
  ExprPtr share(ExprPtr &value, llvm::SMLoc loc);

  /// Adds `contribution` (broadcastable to, or reducible to, the tensor's
  /// shape) to the cotangent of `tensor`, converted to its dtype.
  void contribute(unsigned tensor, ExprPtr contribution, llvm::SMLoc loc);

  /// `value` with `shape`: summed over the dimensions that `shape` lacks or
  /// has as 1, and broadcast along those `value` has as 1 (Resize.cpp).
  ExprPtr resize(ExprPtr value, const Shape &shape, llvm::SMLoc loc);
  /// `value` summed over the dimensions that a node's operand of `shape`
  /// was broadcast along; unchanged when it already broadcasts to `shape`.
  ExprPtr unbroadcast(ExprPtr value, const Shape &shape, llvm::SMLoc loc);

  // The rules. Each appends the statements of the derivative of
  // `statement`, given the tensor of its output's cotangent, and calls
  // contribute() for its varied operands; false after reporting an error.
  bool differentiateElementwise(const Statement &statement, unsigned cotangent);
  bool differentiateContraction(const Statement &statement, unsigned cotangent);

private:
  // The sweep and the cotangents (Gradient.cpp).

  bool checkWrt(llvm::ArrayRef<std::string> wrt, std::vector<unsigned> &inputs);
  /// The tensors whose value depends on a `wrt` input through floats.
  void findVariedTensors(llvm::ArrayRef<unsigned> wrtInputs);
  void declareCotangentInputs();
  bool differentiateStatement(const Statement &statement, unsigned cotangent);
  /// The tensor holding the sum of `tensor`'s cotangent contributions, named
  /// `name` (or a fresh name derived from "D<tensor>" when empty).
  unsigned finishCotangent(unsigned tensor, llvm::StringRef name);
  /// Drops the statements that no output needs.
  void removeDeadStatements();
  unsigned addTensor(llvm::StringRef base, DType dtype, Shape shape);

  const Program &forward;
  Diagnostics &diags;
  Program gradient;
  llvm::StringSet<> names;
  std::vector<bool> varied;
  /// The contributions to each tensor's cotangent not yet summed.
  std::map<unsigned, std::vector<ExprPtr>> contributions;
};

} // namespace autodiff
} // namespace tilec

#endif // TILEC_LIB_AUTODIFF_GRADIENTBUILDER_H
