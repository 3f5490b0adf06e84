//===- Elementwise.cpp - Evaluation of elementwise expressions ------------===//
//
// Every expression node is evaluated to a whole tensor of its own dtype and
// broadcast shape, so each node's value is rounded to its dtype, as the
// language defines it. Operands are read with NumPy broadcasting: shapes
// align on the right and size-1 (or missing) dimensions stretch. Both sides
// of a select are evaluated, so an error in either is reported.
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"
#include "Parallel.h"
#include "Scalar.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace tilec;
using namespace tilec::interp;

namespace {

/// Elements below which a chunk is not worth a thread of its own.
constexpr int64_t kMinElementsPerChunk = 1 << 14;
/// How often a chunk checks whether an earlier one failed.
constexpr int64_t kElementsPerStopCheck = 1 << 12;

/// A node's value: its own tensor, or a tensor of the table it reads.
class NodeValue {
public:
  static NodeValue borrow(const HostTensor &tensor) {
    NodeValue value;
    value.borrowed = &tensor;
    return value;
  }
  static NodeValue own(HostTensor tensor) {
    NodeValue value;
    value.owned = std::move(tensor);
    return value;
  }

  const HostTensor &get() const { return owned ? *owned : *borrowed; }
  HostTensor take() && { return owned ? std::move(*owned) : *borrowed; }

private:
  std::optional<HostTensor> owned;
  const HostTensor *borrowed = nullptr;
};

/// Strides that map the coordinates of an element of `result` to the flat
/// offset of the element of `operand` it reads under broadcasting (0 along
/// stretched and missing dimensions); nullopt when the shapes do not
/// broadcast.
std::optional<std::vector<int64_t>> broadcastStrides(const Shape &operand,
                                                     const Shape &result) {
  if (operand.size() > result.size())
    return std::nullopt;
  std::vector<int64_t> strides(result.size(), 0);
  size_t leading = result.size() - operand.size();
  int64_t stride = 1;
  for (size_t d = operand.size(); d-- > 0;) {
    if (operand[d] != result[leading + d] && operand[d] != 1)
      return std::nullopt;
    if (operand[d] != 1)
      strides[leading + d] = stride;
    stride *= operand[d];
  }
  return strides;
}

/// `value` moved by perturb() where it is a float's and `seed` is not 0
/// (Perturbation, Interpreter.h).
static llvm::Expected<Value> perturbed(llvm::Expected<Value> value, DType type,
                                       double ulps, uint64_t seed,
                                       uint64_t salt) {
  if (value && seed)
    if (auto *real = std::get_if<double>(&*value))
      *real = perturb(*real, type, ulps, seed, salt);
  return value;
}

class ExpressionEvaluator {
public:
  ExpressionEvaluator(const Statement &statement, const TensorTable &table)
      : statement(statement), table(table) {}

  std::optional<NodeValue> evaluate(const Expr &expr);

private:
  /// A function of the operands' values at one element of the result.
  using ElementFn = llvm::function_ref<llvm::Expected<Value>(
      llvm::ArrayRef<Value> operands, llvm::ArrayRef<int64_t> coordinates)>;

  /// Evaluates `expr` by applying `fn` at every element of its shape to the
  /// broadcast values of `operands`.
  std::optional<NodeValue>
  mapElements(const Expr &expr, llvm::ArrayRef<const HostTensor *> operands,
              ElementFn fn);
  std::optional<NodeValue> evaluateOperation(const Expr &expr);

  void report(const Expr &expr, const llvm::Twine &message) {
    reportError(table.getSourceMgr(),
                expr.loc.isValid() ? expr.loc : statement.loc, message);
  }

  const Statement &statement;
  const TensorTable &table;
};

std::optional<NodeValue>
ExpressionEvaluator::mapElements(const Expr &expr,
                                 llvm::ArrayRef<const HostTensor *> operands,
                                 ElementFn fn) {
  std::vector<std::vector<int64_t>> strides;
  for (const HostTensor *operand : operands) {
    std::optional<std::vector<int64_t>> operandStrides =
        broadcastStrides(operand->shape(), expr.shape);
    if (!operandStrides) {
      report(expr,
             "internal error: shape " + formatCoordinates(operand->shape()) +
                 " does not broadcast to " + formatCoordinates(expr.shape));
      return std::nullopt;
    }
    strides.push_back(std::move(*operandStrides));
  }
  std::optional<HostTensor> result =
      makeTensor(expr.dtype, expr.shape, expr.loc, table.getSourceMgr());
  if (!result)
    return std::nullopt;

  bool flush = table.getPerturbation().flushSubnormals;
  // Each chunk of elements starts from its first element's coordinates and
  // steps in C order, keeping the operands' offsets in step.
  auto mapRange = [&](int64_t first, int64_t last,
                      const ChunkState &state) -> std::optional<std::string> {
    size_t rank = expr.shape.size();
    std::vector<int64_t> coordinates(rank, 0);
    for (int64_t rest = first, d = rank; d-- > 0;) {
      coordinates[d] = rest % expr.shape[d];
      rest /= expr.shape[d];
    }
    std::vector<int64_t> offsets(operands.size(), 0);
    for (size_t i = 0; i < operands.size(); ++i)
      for (size_t d = 0; d < rank; ++d)
        offsets[i] += coordinates[d] * strides[i][d];
    llvm::SmallVector<Value, 3> values(operands.size());
    for (int64_t flat = first; flat <= last; ++flat) {
      if (flat % kElementsPerStopCheck == 0 && state.earlierChunkFailed())
        return std::nullopt;
      for (size_t i = 0; i < operands.size(); ++i) {
        values[i] = loadElement(*operands[i], offsets[i]);
        if (flush)
          flushSubnormal(values[i], operands[i]->dtype());
      }
      llvm::Expected<Value> value = fn(values, coordinates);
      if (!value)
        return llvm::toString(value.takeError()) + " at element " +
               formatCoordinates(coordinates);
      if (flush)
        flushSubnormal(*value, expr.dtype);
      storeElement(*result, flat, *value);

      for (size_t d = rank; d-- > 0;) {
        for (size_t i = 0; i < operands.size(); ++i)
          offsets[i] += strides[i][d];
        if (++coordinates[d] < expr.shape[d])
          break;
        for (size_t i = 0; i < operands.size(); ++i)
          offsets[i] -= strides[i][d] * expr.shape[d];
        coordinates[d] = 0;
      }
    }
    return std::nullopt;
  };
  if (std::optional<std::string> error = forEachChunk(
          0, result->numElements() - 1, kMinElementsPerChunk, mapRange)) {
    report(expr, *error);
    return std::nullopt;
  }
  return NodeValue::own(std::move(*result));
}

std::optional<NodeValue> ExpressionEvaluator::evaluate(const Expr &expr) {
  switch (expr.kind) {
  case Expr::Kind::Constant:
    return mapElements(expr, {},
                       [&](llvm::ArrayRef<Value>, llvm::ArrayRef<int64_t>)
                           -> llvm::Expected<Value> { return expr.constant; });
  case Expr::Kind::Tensor: {
    const HostTensor *tensor = table.lookup(expr.tensor, expr.loc);
    if (!tensor)
      return std::nullopt;
    return NodeValue::borrow(*tensor);
  }
  case Expr::Kind::Index:
    if (expr.axis >= expr.shape.size()) {
      report(expr, "internal error: index axis " + llvm::Twine(expr.axis) +
                       " of a tensor of rank " +
                       llvm::Twine(expr.shape.size()));
      return std::nullopt;
    }
    return mapElements(
        expr, {},
        [&](llvm::ArrayRef<Value>, llvm::ArrayRef<int64_t> coordinates)
            -> llvm::Expected<Value> { return coordinates[expr.axis]; });
  default:
    return evaluateOperation(expr);
  }
}

std::optional<NodeValue>
ExpressionEvaluator::evaluateOperation(const Expr &expr) {
  std::vector<NodeValue> operandValues;
  llvm::SmallVector<const HostTensor *, 3> operands;
  operandValues.reserve(expr.operands.size());
  for (const std::unique_ptr<Expr> &operand : expr.operands) {
    std::optional<NodeValue> value = evaluate(*operand);
    if (!value)
      return std::nullopt;
    operandValues.push_back(std::move(*value));
  }
  for (const NodeValue &value : operandValues)
    operands.push_back(&value.get());

  unsigned expected = expr.kind == Expr::Kind::Select   ? 3
                      : expr.kind == Expr::Kind::Binary ? 2
                      : expr.kind == Expr::Kind::Call   ? operands.size()
                                                        : 1;
  if (operands.empty() || operands.size() != expected) {
    report(expr, "internal error: wrong number of operands");
    return std::nullopt;
  }
  // The dtype the operation computes in (Program.h: sema converted every
  // operand to it).
  DType type = operands[0]->dtype();
  switch (expr.kind) {
  case Expr::Kind::Unary:
    return mapElements(expr, operands,
                       [&](llvm::ArrayRef<Value> x, llvm::ArrayRef<int64_t>) {
                         return applyUnary(expr.unaryOp, type, x[0]);
                       });
  case Expr::Kind::Binary: {
    Perturbation perturbation = table.getPerturbation();
    uint64_t seed = perturbation.divisions && expr.binaryOp == BinaryOp::Div
                        ? perturbation.seed
                        : 0;
    return mapElements(
        expr, operands, [&](llvm::ArrayRef<Value> x, llvm::ArrayRef<int64_t>) {
          // Salted apart from every builtin's.
          return perturbed(applyBinary(expr.binaryOp, type, x[0], x[1]),
                           expr.dtype, 3, seed, /*salt=*/~uint64_t(0));
        });
  }
  case Expr::Kind::Call: {
    uint64_t seed =
        isInexactBuiltin(expr.builtin) ? table.getPerturbation().seed : 0;
    // f16 and bf16 are computed in f32 on a device and rounded once: at most
    // one unit of theirs apart.
    bool isHalf = expr.dtype == DType::F16 || expr.dtype == DType::BF16;
    double ulps = isHalf ? 1 : 16;
    return mapElements(
        expr, operands, [&](llvm::ArrayRef<Value> x, llvm::ArrayRef<int64_t>) {
          return perturbed(applyBuiltin(expr.builtin, type, x), expr.dtype,
                           ulps, seed, uint64_t(expr.builtin));
        });
  }
  case Expr::Kind::Select:
    return mapElements(expr, operands,
                       [&](llvm::ArrayRef<Value> x,
                           llvm::ArrayRef<int64_t>) -> llvm::Expected<Value> {
                         return isTrue(x[0]) ? x[1] : x[2];
                       });
  default: // Cast: storing into the node's dtype converts.
    return mapElements(expr, operands,
                       [&](llvm::ArrayRef<Value> x, llvm::ArrayRef<int64_t>)
                           -> llvm::Expected<Value> { return x[0]; });
  }
}

} // namespace

std::optional<HostTensor>
interp::evaluateElementwise(const Statement &statement,
                            const Elementwise &elementwise,
                            const TensorTable &table) {
  if (!elementwise.value) {
    reportError(table.getSourceMgr(), statement.loc,
                "internal error: an elementwise statement without a value");
    return std::nullopt;
  }
  std::optional<NodeValue> value =
      ExpressionEvaluator(statement, table).evaluate(*elementwise.value);
  if (!value)
    return std::nullopt;
  return std::move(*value).take();
}
