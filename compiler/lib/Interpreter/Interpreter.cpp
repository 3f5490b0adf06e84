//===- Interpreter.cpp - The reference interpreter ------------------------===//
//
// The driver: checks the inputs against the program's parameters, runs the
// statements in order, keeping every tensor's value by id, and returns the
// outputs.
//
//===----------------------------------------------------------------------===//

#include "tilec/Interpreter/Interpreter.h"

#include "Evaluation.h"
#include "WorkProgress.h"
#include "tilec/Runtime/Plural.h"

#include "llvm/ADT/STLExtras.h"

#include <type_traits>
#include <variant>

using namespace tilec;
using namespace tilec::interp;

namespace {

/// "f32[2, 3]".
std::string describe(DType dtype, const Shape &shape) {
  return dtypeName(dtype) + formatCoordinates(shape);
}

/// Reports ids that would index out of the program's tensors, so that the
/// evaluators may trust them.
bool checkTensorIds(const Program &program, llvm::SourceMgr &sourceMgr) {
  size_t count = program.tensors.size();
  auto valid = [&](unsigned id) { return id < count; };
  bool ok = llvm::all_of(program.inputs, valid) &&
            llvm::all_of(program.outputs, valid) &&
            llvm::all_of(program.statements, [&](const Statement &statement) {
              return valid(statement.output);
            });
  if (!ok)
    reportError(sourceMgr, llvm::SMLoc(),
                "internal error: the program names a tensor it does not have");
  return ok;
}

bool bindInputs(const Program &program, llvm::ArrayRef<HostTensor> inputs,
                TensorTable &table, llvm::SourceMgr &sourceMgr) {
  if (inputs.size() != program.inputs.size()) {
    reportError(sourceMgr, llvm::SMLoc(),
                "function '" + program.name + "' takes " +
                    pluralize(program.inputs.size(), "input") + ", given " +
                    llvm::Twine(inputs.size()));
    return false;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorDecl &param = program.tensors[program.inputs[i]];
    if (inputs[i].dtype() != param.dtype || inputs[i].shape() != param.shape) {
      reportError(sourceMgr, param.loc,
                  "input '" + param.name + "' is bound as " +
                      describe(param.dtype, param.shape) + " but given " +
                      describe(inputs[i].dtype(), inputs[i].shape()));
      return false;
    }
    table.bind(program.inputs[i], inputs[i]);
  }
  return true;
}

std::optional<HostTensor> evaluate(const Statement &statement,
                                   const TensorTable &table) {
  return std::visit(
      [&](const auto &op) -> std::optional<HostTensor> {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, Contraction>)
          return evaluateContraction(statement, op, table);
        else if constexpr (std::is_same_v<Op, Elementwise>)
          return evaluateElementwise(statement, op, table);
        else if constexpr (std::is_same_v<Op, Reshape>)
          return evaluateReshape(statement, op, table);
        else
          return evaluateShapeOf(statement, op, table);
      },
      statement.op);
}

/// The work a statement weighs in the progress reported: the elements of
/// its output (at least 1, so that scalars and empty tensors count).
uint64_t statementWeight(const Program &program, const Statement &statement) {
  std::optional<int64_t> count =
      numElements(program.tensors[statement.output].shape);
  return count && *count > 1 ? uint64_t(*count) : 1;
}

} // namespace

std::optional<std::vector<HostTensor>>
tilec::interpret(const Program &program, llvm::ArrayRef<HostTensor> inputs,
                 llvm::SourceMgr &sourceMgr,
                 const InterpretProgress &progressCallback,
                 Perturbation perturbation) {
  if (!checkTensorIds(program, sourceMgr))
    return std::nullopt;
  uint64_t totalWork = 0;
  for (const Statement &statement : program.statements)
    totalWork += statementWeight(program, statement);
  WorkProgress progress(progressCallback, totalWork);
  TensorTable table(program, sourceMgr, progress, perturbation);
  if (!bindInputs(program, inputs, table, sourceMgr))
    return std::nullopt;

  for (const Statement &statement : program.statements) {
    progress.beginStatement(statementWeight(program, statement));
    std::optional<HostTensor> value = evaluate(statement, table);
    if (!value)
      return std::nullopt;
    progress.finishStatement();
    const TensorDecl &decl = program.tensors[statement.output];
    if (value->dtype() != decl.dtype || value->shape() != decl.shape) {
      reportError(sourceMgr, statement.loc,
                  "internal error: '" + decl.name + "' is declared " +
                      describe(decl.dtype, decl.shape) + " but evaluates to " +
                      describe(value->dtype(), value->shape()));
      return std::nullopt;
    }
    table.define(statement.output, std::move(*value));
  }

  // Each output is computed by one statement and listed once (sema checks
  // both), so it can be moved out rather than copied.
  std::vector<HostTensor> outputs;
  for (unsigned id : program.outputs) {
    std::optional<HostTensor> value = table.release(id);
    if (!value) {
      reportError(sourceMgr, program.tensors[id].loc,
                  "internal error: output '" + program.tensors[id].name +
                      "' has no value");
      return std::nullopt;
    }
    outputs.push_back(std::move(*value));
  }
  return outputs;
}
