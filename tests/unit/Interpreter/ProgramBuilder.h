//===- ProgramBuilder.h - Specialised programs built by hand ----*- C++ -*-===//
//
// Builds Program structs directly, so that the interpreter is tested on its
// own contract (Program.h), independently of the frontend.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_INTERPRETER_PROGRAMBUILDER_H
#define TILEC_TESTS_UNIT_INTERPRETER_PROGRAMBUILDER_H

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Sema/Program.h"

#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

namespace tilec {
namespace testing {

/// Parses a comma-separated list of affine polynomials over `indexNames`,
/// such as "2*i + k - 1, i/2, 3/2*j", with integer or rational coefficients.
std::vector<AffinePoly> parsePolys(const std::string &text,
                                   const std::vector<std::string> &indexNames);

/// A tensor access for contraction(): the tensor and its polynomials.
struct AccessSpec {
  unsigned tensor;
  std::string indices;
};

class ProgramBuilder {
public:
  unsigned input(const std::string &name, DType dtype, Shape shape);
  /// Declares the tensor a statement defines.
  unsigned tensor(const std::string &name, DType dtype, Shape shape);
  void output(unsigned id) { program.outputs.push_back(id); }

  /// `result[outputIndices] = agg(combo(operands)), constraints...`, where
  /// each constraint is "poly < bound".
  Contraction &contraction(
      unsigned result, const std::vector<std::string> &indexNames,
      const std::string &outputIndices, AggregationKind aggregation,
      CombinationKind combination, const std::vector<AccessSpec> &operands,
      const std::vector<std::pair<std::string, int64_t>> &constraints = {});
  void elementwise(unsigned result, std::unique_ptr<Expr> value);
  void reshape(unsigned result, unsigned input);
  void shapeOf(unsigned result, unsigned input);

  const Program &get() const { return program; }

private:
  Program program;
};

/// Expression nodes; `dtype` and `shape` are the node's.
std::unique_ptr<Expr> constant(ConstantValue value, DType dtype);
std::unique_ptr<Expr> tensorRef(const Program &program, unsigned id);
std::unique_ptr<Expr> indexOf(const Program &program, unsigned id,
                              unsigned axis);
std::unique_ptr<Expr> unary(UnaryOp op, std::unique_ptr<Expr> operand);
/// Comparisons and logical operators produce Bool, the others the operands'
/// dtype; the shape is the broadcast of both.
std::unique_ptr<Expr> binary(BinaryOp op, std::unique_ptr<Expr> lhs,
                             std::unique_ptr<Expr> rhs);
std::unique_ptr<Expr> call(Builtin fn, std::vector<std::unique_ptr<Expr>> args);
std::unique_ptr<Expr> select(std::unique_ptr<Expr> cond,
                             std::unique_ptr<Expr> lhs,
                             std::unique_ptr<Expr> rhs);
std::unique_ptr<Expr> cast(std::unique_ptr<Expr> operand, DType dtype);

/// A tensor of `dtype` and `shape` holding `values` (converted by setDouble).
HostTensor makeTensor(DType dtype, Shape shape,
                      const std::vector<double> &values);
/// Every element of `tensor` as double.
std::vector<double> elements(const HostTensor &tensor);

/// Makes `sourceMgr` append each diagnostic, printed without colours, to
/// `diagnostics` (which must outlive it).
void captureDiagnostics(llvm::SourceMgr &sourceMgr, std::string &diagnostics);

/// Runs `program`, capturing diagnostics.
struct RunResult {
  std::optional<std::vector<HostTensor>> outputs;
  std::string diagnostics;
};
RunResult run(const Program &program, const std::vector<HostTensor> &inputs);

} // namespace testing
} // namespace tilec

#endif // TILEC_TESTS_UNIT_INTERPRETER_PROGRAMBUILDER_H
