//===- Evaluation.h - Statement evaluators of the interpreter ---*- C++ -*-===//
//
// What the interpreter's driver shares with the evaluator of each statement
// kind: the table of tensor values and error reporting.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_EVALUATION_H
#define TILEC_LIB_INTERPRETER_EVALUATION_H

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Runtime/HostTensor.h"
#include "tilec/Sema/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {
namespace interp {

class WorkProgress;

/// Reports `message` as an error at `loc` (or without a location when `loc`
/// is invalid).
void reportError(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                 const llvm::Twine &message);

/// "[1, 2, 3]".
std::string formatCoordinates(llvm::ArrayRef<int64_t> coordinates);

/// A zero-filled tensor, or nullopt after reporting at `loc` when `shape`
/// has a negative extent or too many elements, or when the tensor, with
/// `extraBytesPerElement` more per element that its evaluation needs
/// alongside, does not fit in the host's available memory.
std::optional<HostTensor> makeTensor(DType dtype, const Shape &shape,
                                     llvm::SMLoc loc,
                                     llvm::SourceMgr &sourceMgr,
                                     uint64_t extraBytesPerElement = 0);

/// The value of every tensor of a program that has one so far: the inputs
/// (borrowed from the caller) and the results of the statements run so far.
class TensorTable {
public:
  TensorTable(const Program &program, llvm::SourceMgr &sourceMgr,
              WorkProgress &progress, Perturbation perturbation = {});

  void bind(unsigned id, const HostTensor &input);
  void define(unsigned id, HostTensor value);

  /// The value of tensor `id`, or null after reporting at `loc` when the
  /// program uses a tensor that has no value yet (an inconsistent program).
  const HostTensor *lookup(unsigned id, llvm::SMLoc loc) const;
  /// Moves the value a statement computed for tensor `id` out of the table
  /// (an output handed to the caller without a copy).
  std::optional<HostTensor> release(unsigned id);

  const Program &getProgram() const { return program; }
  llvm::SourceMgr &getSourceMgr() const { return sourceMgr; }
  /// Where the statement being evaluated counts the work it finishes.
  WorkProgress &getProgress() const { return progress; }
  /// The deliberate error of the run (none by default).
  Perturbation getPerturbation() const { return perturbation; }

private:
  const Program &program;
  llvm::SourceMgr &sourceMgr;
  WorkProgress &progress;
  Perturbation perturbation;
  std::vector<const HostTensor *> values;
  /// Storage of the statements' results; sized once, so `values` may point
  /// into it.
  std::vector<std::optional<HostTensor>> computed;
};

/// How a contraction's tuples are visited. Both give the same results, bit
/// for bit, and the same errors (the unit tests compare them).
enum class ContractionWalk {
  /// Whole rows by precomputed strides where the contraction allows it
  /// (StridedRows.h), every other tuple as EachTuple does.
  StridedRows,
  /// Each tuple checked and folded on its own: the definition.
  EachTuple,
};

/// Each evaluator returns the value of `statement`'s output, or nullopt after
/// reporting an error at the statement (or at the expression at fault).
std::optional<HostTensor>
evaluateContraction(const Statement &statement, const Contraction &contraction,
                    const TensorTable &table,
                    ContractionWalk walk = ContractionWalk::StridedRows);
std::optional<HostTensor> evaluateElementwise(const Statement &statement,
                                              const Elementwise &elementwise,
                                              const TensorTable &table);
std::optional<HostTensor> evaluateReshape(const Statement &statement,
                                          const Reshape &reshape,
                                          const TensorTable &table);
std::optional<HostTensor> evaluateShapeOf(const Statement &statement,
                                          const ShapeOf &shapeOf,
                                          const TensorTable &table);

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_EVALUATION_H
