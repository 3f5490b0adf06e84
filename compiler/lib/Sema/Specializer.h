//===- Specializer.h - State of the specialisation of one function -*- C++ -*-//
//
// Private to the Sema library. One Specializer turns one ast::Function plus
// its argument bindings into a Program; its work is split by concept over
// ShapeBinding.cpp (parameters), IndexPolynomials.cpp (affine index
// polynomials and integer size expressions), Contraction.cpp and
// Elementwise.cpp (statements) and Specialize.cpp (the driver and names).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SEMA_SPECIALIZER_H
#define TILEC_LIB_SEMA_SPECIALIZER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Frontend.h"
#include "tilec/Sema/Program.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace sema {

/// Writes `[8, 16]`.
std::string formatShape(const Shape &shape);
/// Writes `f32[8, 16]`.
std::string formatType(DType dtype, const Shape &shape);

class Specializer {
public:
  Specializer(const ast::Function &function, llvm::SourceMgr &sourceMgr)
      : function(function), diags(sourceMgr) {}

  std::optional<Program> run(llvm::ArrayRef<ArgBinding> args);

  // Names (Specialize.cpp). Tensors and dimensions share one namespace of
  // upper-case names.

  /// Reports (with a note at the first definition) when `name` is taken.
  bool checkNewName(llvm::StringRef name, llvm::SMLoc loc);
  /// Adds a tensor to the program and its name to the scope.
  unsigned addTensor(llvm::StringRef name, llvm::SMLoc loc, DType dtype,
                     Shape shape);
  /// Marks `name` as defined by a statement that failed, so that its uses
  /// fail quietly instead of cascading errors.
  void addFailedName(llvm::StringRef name, llvm::SMLoc loc);
  /// The tensor `name` refers to. Reports an error (unless the name's
  /// statement already failed) and returns nullopt otherwise.
  std::optional<unsigned> lookupTensor(llvm::StringRef name, llvm::SMLoc loc);
  /// The value of dimension `name`, if it is one.
  std::optional<int64_t> lookupDim(llvm::StringRef name) const;
  const TensorDecl &getTensor(unsigned index) const {
    return program.tensors[index];
  }
  /// Reports when a shape's element count overflows int64.
  bool checkElementCount(const Shape &shape, llvm::SMLoc loc);
  /// Reports at `loc` when tensor `name` of `dtype` and `shape` has an element
  /// count or a byte size that overflows int64 (no buffer can hold it, and
  /// offsets into it would wrap).
  bool checkTensorSize(llvm::StringRef name, DType dtype, const Shape &shape,
                       llvm::SMLoc loc);

  // Parameters (ShapeBinding.cpp).
  bool bindParams(llvm::ArrayRef<ArgBinding> args);

  // Integer expressions over dimensions and constants (IndexPolynomials.cpp).
  std::optional<int64_t> evaluateInteger(const ast::Expr &expr);

  // Statements (Contraction.cpp, Elementwise.cpp).
  std::optional<Statement>
  specializeContraction(const ast::Statement &statement,
                        const ast::ContractionStmt &contraction);
  std::optional<Statement>
  specializeElementwise(const ast::Statement &statement,
                        const ast::ElementwiseStmt &elementwise);
  /// `output = value;`: an elementwise statement, a reshape or a shape.
  std::optional<Statement> specializeValue(llvm::StringRef output,
                                           llvm::SMLoc loc,
                                           const ast::Expr &value);

  // Temporaries (Elementwise.cpp, Specialize.cpp). Where the language takes
  // a tensor (the first argument of `reshape`, `shape` and `index`) it takes
  // any expression, and `reshape` and `shape` may appear inside
  // expressions: sema gives such a value a statement of its own that
  // defines a temporary tensor, placed before the statement that reads it.

  /// The tensor `expr` names, or a temporary holding `expr`'s value.
  std::optional<unsigned> specializeTensorArgument(const ast::Expr &expr);
  /// Specialises `value` as the statement of a new temporary tensor.
  std::optional<unsigned> addTemporary(const ast::Expr &value);
  /// `TmpN`: a name that no parameter, dimension or statement of the
  /// function uses, so the printed program parses again.
  std::string makeTemporaryName();

  Diagnostics &getDiags() { return diags; }

private:
  bool bindParam(const ast::Param &param, const ArgBinding &binding);
  bool bindDim(const ast::Param &param, const ast::ParamDim &dim,
               const ArgBinding &binding, unsigned axis);
  bool bindResults();
  /// Reports two valid tuples of an `=` contraction that write one element,
  /// where sema can prove that some do.
  bool checkAssignConflicts(const ast::Statement &statement,
                            const Contraction &contraction, const Shape &shape);

  /// What an upper-case name stands for.
  struct NameInfo {
    llvm::SMLoc loc;
    /// The tensor, or nullopt for a dimension or a failed statement.
    std::optional<unsigned> tensor;
    std::optional<int64_t> dimValue;
    /// For a dimension: the binding that fixed it, for error messages.
    std::string dimSource;
  };

  const ast::Function &function;
  Diagnostics diags;
  Program program;
  llvm::StringMap<NameInfo> names;
  /// Every upper-case name the function defines anywhere.
  llvm::StringSet<> sourceNames;
  unsigned temporaryCount = 0;
};

} // namespace sema
} // namespace tilec

#endif // TILEC_LIB_SEMA_SPECIALIZER_H
