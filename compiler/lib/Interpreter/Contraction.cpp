//===- Contraction.cpp - Evaluation of contractions -----------------------===//
//
// A contraction aggregates over exactly its valid index tuples
// (docs/language.md, section 3): every index variable an integer, every
// access (inputs and output) an integer in bounds, every constraint
// 0 <= poly < bound. The tuples are found by a loop nest over the integer
// points of those inequalities, each checked exactly before it contributes.
//
//===----------------------------------------------------------------------===//

#include "ContractionPlan.h"
#include "Evaluation.h"
#include "IndexSpace.h"
#include "Parallel.h"
#include "Scalar.h"
#include "StridedRows.h"
#include "WorkProgress.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace tilec;
using namespace tilec::interp;

AccessOutcome interp::locate(const AccessPlan &access,
                             llvm::ArrayRef<int64_t> tuple,
                             llvm::SmallVectorImpl<int64_t> &coordinates,
                             int64_t &offset) {
  coordinates.clear();
  offset = 0;
  for (size_t d = 0; d < access.indices.size(); ++d) {
    const ScaledPoly &poly = access.indices[d];
    std::optional<Int128> scaled = poly.evaluate(tuple);
    if (!scaled)
      return AccessOutcome::Overflow;
    // Most accesses are integral (scale 1): they skip the 128-bit division,
    // a sixth of the time of a matmul's visit.
    Int128 coordinate = *scaled;
    if (poly.scale != 1) {
      if (*scaled % poly.scale != 0)
        return AccessOutcome::Skipped;
      coordinate = *scaled / poly.scale;
    }
    if (coordinate < 0 || coordinate >= access.shape[d])
      return AccessOutcome::Skipped;
    coordinates.push_back(static_cast<int64_t>(coordinate));
    offset = offset * access.shape[d] + static_cast<int64_t>(coordinate);
  }
  return AccessOutcome::InBounds;
}

namespace {

std::optional<ScaledPoly> scalePoly(const AffinePoly &poly,
                                    unsigned numIndices) {
  if (poly.coeffs.size() != numIndices)
    return std::nullopt;
  int64_t scale = poly.constant.den;
  if (scale <= 0)
    return std::nullopt;
  for (const Rational &c : poly.coeffs) {
    if (c.den <= 0)
      return std::nullopt;
    int64_t factor = c.den / std::gcd(scale, c.den);
    if (__builtin_mul_overflow(scale, factor, &scale))
      return std::nullopt;
  }
  auto scaled = [&](const Rational &r, int64_t &out) {
    return r.den > 0 && !__builtin_mul_overflow(r.num, scale / r.den, &out);
  };
  ScaledPoly result;
  result.scale = scale;
  result.coeffs.resize(numIndices);
  for (unsigned k = 0; k < numIndices; ++k)
    if (!scaled(poly.coeffs[k], result.coeffs[k]))
      return std::nullopt;
  if (!scaled(poly.constant, result.constant))
    return std::nullopt;
  return result;
}

/// Builds the inequalities whose integer points hold every valid tuple.
class InequalityBuilder {
public:
  explicit InequalityBuilder(unsigned numIndices) : numIndices(numIndices) {}

  /// low <= scale * poly <= high; false when a constant overflows int64.
  bool addRange(const ScaledPoly &poly, Int128 low, Int128 high) {
    if (low > high) {
      // Nothing is in range (an empty extent): a false constant inequality.
      system.push_back({std::vector<int64_t>(numIndices, 0), -1});
      return true;
    }
    Int128 lowConstant = Int128(poly.constant) - low;
    Int128 highConstant = high - Int128(poly.constant);
    if (!fits(lowConstant) || !fits(highConstant))
      return false;
    std::vector<int64_t> negated(numIndices);
    for (unsigned k = 0; k < numIndices; ++k)
      negated[k] = -poly.coeffs[k];
    system.push_back({poly.coeffs, static_cast<int64_t>(lowConstant)});
    system.push_back({std::move(negated), static_cast<int64_t>(highConstant)});
    return true;
  }

  std::vector<LinearInequality> take() { return std::move(system); }

private:
  static bool fits(Int128 value) {
    return value > std::numeric_limits<int64_t>::min() &&
           value <= std::numeric_limits<int64_t>::max();
  }

  unsigned numIndices;
  std::vector<LinearInequality> system;
};

unsigned operandCount(CombinationKind kind) {
  switch (kind) {
  case CombinationKind::None:
    return 1;
  case CombinationKind::Cond:
    return 3;
  default:
    return 2;
  }
}

/// The value one valid tuple contributes, or nullopt when a Cond tuple's
/// operands differ (the tuple does not contribute). Operands convert to the
/// result dtype before they combine; Eq and Cond compare in the
/// contraction's comparison dtype.
std::optional<Value> combine(const Contraction &contraction, DType resultType,
                             llvm::ArrayRef<Value> values) {
  CombinationKind kind = contraction.combination;
  auto compareEqual = [&] {
    DType common = contraction.comparisonType;
    return llvm::cantFail(applyBinary(BinaryOp::Eq, common,
                                      convertValue(values[0], common),
                                      convertValue(values[1], common)));
  };
  switch (kind) {
  case CombinationKind::None:
    return convertValue(values[0], resultType);
  case CombinationKind::Mul:
  case CombinationKind::Add:
    return llvm::cantFail(applyBinary(
        kind == CombinationKind::Mul ? BinaryOp::Mul : BinaryOp::Add,
        resultType, convertValue(values[0], resultType),
        convertValue(values[1], resultType)));
  case CombinationKind::Eq:
    return convertValue(compareEqual(), resultType);
  case CombinationKind::Cond:
    if (!isTrue(compareEqual()))
      return std::nullopt;
    return convertValue(values[2], resultType);
  }
  return std::nullopt;
}

std::string formatTuple(llvm::ArrayRef<std::string> names,
                        llvm::ArrayRef<int64_t> tuple) {
  std::string text;
  for (size_t k = 0; k < names.size(); ++k)
    text += (k ? ", " : "") + names[k] + " = " + std::to_string(tuple[k]);
  return text;
}

/// Evaluates one contraction once its operands are resolved.
class ContractionEvaluator {
public:
  ContractionEvaluator(const Statement &statement,
                       const Contraction &contraction, const TensorTable &table,
                       ContractionWalk walk)
      : statement(statement), contraction(contraction), table(table),
        output(table.getProgram().tensors[statement.output]), walk(walk) {}

  std::optional<HostTensor> run();

private:
  bool fail(const llvm::Twine &message) {
    reportError(table.getSourceMgr(), statement.loc, message);
    return false;
  }

  bool resolveOperands();
  bool planAccess(llvm::ArrayRef<AffinePoly> indices, const Shape &shape,
                  InequalityBuilder &inequalities);
  bool planConstraints(InequalityBuilder &inequalities);
  void initialize();

  /// What one thread's visits need of their own.
  struct Scratch {
    llvm::SmallVector<int64_t, 8> coordinates, outputCoordinates;
    llvm::SmallVector<Value, 3> values;
    /// The first error met, which stops the visits.
    std::optional<std::string> error;
  };
  /// Folds the contribution of `tuple`, if it is valid; false after
  /// recording an error in `scratch`.
  bool visit(llvm::ArrayRef<int64_t> tuple, Scratch &scratch);
  /// Whether tuples with different values of the outermost index variable
  /// always write different output elements: some output coordinate depends
  /// on that variable alone. Then its values split the work between
  /// threads with no element shared.
  bool outerIndexSeparatesElements() const;
  /// Under a Perturbation, moves a float term of a sum or product by half to
  /// all of 2 ulps of the type a device accumulates in (f32 for f16 and
  /// bf16): the rounding of each partial result there, which the reference's
  /// f64 accumulation does not have. Flushes it where subnormals are.
  void perturbTerm(Value &term) const;
  /// The float type a device accumulates the output in.
  DType accumulatedType() const {
    return output.dtype == DType::F64 ? DType::F64 : DType::F32;
  }
  /// Visits every tuple of `nest` (on every core when the outermost variable
  /// separates the elements), a row at a time where `strided` applies;
  /// false after reporting an error.
  bool visitAll(const LoopNest &nest);

  const Statement &statement;
  const Contraction &contraction;
  const TensorTable &table;
  const TensorDecl &output;
  ContractionWalk walk;

  std::vector<const HostTensor *> operands;
  const HostTensor *defaults = nullptr;
  /// The output access first, then one per operand.
  std::vector<AccessPlan> accesses;
  std::vector<ConstraintPlan> constraints;
  /// The strided walk of whole rows, when the contraction has one.
  std::optional<StridedRows> strided;

  /// One accumulator per output element (floats unrounded).
  std::vector<Value> accumulators;
  /// For `=`: the elements some valid tuple has assigned (a byte each, so
  /// that threads writing different elements never share one).
  std::vector<char> assigned;
};

bool ContractionEvaluator::resolveOperands() {
  unsigned expected = operandCount(contraction.combination);
  if (contraction.operands.size() != expected)
    return fail("internal error: the combination expects " +
                llvm::Twine(expected) + " operand(s), the contraction has " +
                llvm::Twine(contraction.operands.size()));
  for (const Access &access : contraction.operands) {
    const HostTensor *tensor = table.lookup(access.tensor, access.loc);
    if (!tensor)
      return false;
    operands.push_back(tensor);
  }
  return true;
}

bool ContractionEvaluator::planAccess(llvm::ArrayRef<AffinePoly> indices,
                                      const Shape &shape,
                                      InequalityBuilder &inequalities) {
  if (indices.size() != shape.size())
    return fail("internal error: an access of rank " +
                llvm::Twine(indices.size()) + " to a tensor of rank " +
                llvm::Twine(shape.size()));
  AccessPlan plan;
  plan.shape = shape;
  for (size_t d = 0; d < indices.size(); ++d) {
    std::optional<ScaledPoly> poly =
        scalePoly(indices[d], contraction.indexNames.size());
    if (!poly ||
        !inequalities.addRange(*poly, 0, Int128(poly->scale) * (shape[d] - 1)))
      return fail("an index polynomial of this contraction overflows 64-bit "
                  "index arithmetic");
    plan.indices.push_back(std::move(*poly));
  }
  accesses.push_back(std::move(plan));
  return true;
}

bool ContractionEvaluator::planConstraints(InequalityBuilder &inequalities) {
  for (const Constraint &constraint : contraction.constraints) {
    std::optional<ScaledPoly> poly =
        scalePoly(constraint.poly, contraction.indexNames.size());
    if (!poly) {
      reportError(table.getSourceMgr(), constraint.loc,
                  "this constraint overflows 64-bit index arithmetic");
      return false;
    }
    // Over integer tuples, scale * poly is an integer, so the strict bound
    // becomes scale * bound - 1.
    Int128 scaledBound = Int128(poly->scale) * constraint.bound;
    if (!inequalities.addRange(*poly, 0, scaledBound - 1)) {
      reportError(table.getSourceMgr(), constraint.loc,
                  "this constraint overflows 64-bit index arithmetic");
      return false;
    }
    constraints.push_back({std::move(*poly), scaledBound});
  }
  return true;
}

void ContractionEvaluator::initialize() {
  int64_t count = numElements(output.shape).value_or(0);
  accumulators.resize(count);
  Value identity = aggregationIdentity(contraction.aggregation, output.dtype);
  for (int64_t i = 0; i < count; ++i)
    accumulators[i] =
        defaults ? convertValue(loadElement(*defaults, i), output.dtype)
                 : identity;
  if (contraction.aggregation == AggregationKind::Assign)
    assigned.assign(count, 0);
}

bool ContractionEvaluator::visit(llvm::ArrayRef<int64_t> tuple,
                                 Scratch &scratch) {
  auto fail = [&](std::string message) {
    scratch.error = std::move(message);
    return false;
  };
  auto overflow = [&] {
    return fail("index arithmetic overflows at " +
                formatTuple(contraction.indexNames, tuple));
  };
  llvm::SmallVectorImpl<int64_t> &coordinates = scratch.coordinates;
  llvm::SmallVectorImpl<int64_t> &outputCoordinates = scratch.outputCoordinates;
  llvm::SmallVectorImpl<Value> &values = scratch.values;
  for (const ConstraintPlan &constraint : constraints) {
    std::optional<bool> holds = constraint.holds(tuple);
    if (!holds)
      return overflow();
    if (!*holds)
      return true;
  }
  int64_t outputOffset;
  switch (locate(accesses[0], tuple, outputCoordinates, outputOffset)) {
  case AccessOutcome::Overflow:
    return overflow();
  case AccessOutcome::Skipped:
    return true;
  case AccessOutcome::InBounds:
    break;
  }
  values.clear();
  for (size_t i = 0; i < operands.size(); ++i) {
    int64_t offset;
    switch (locate(accesses[i + 1], tuple, coordinates, offset)) {
    case AccessOutcome::Overflow:
      return overflow();
    case AccessOutcome::Skipped:
      return true;
    case AccessOutcome::InBounds:
      break;
    }
    values.push_back(loadElement(*operands[i], offset));
    if (table.getPerturbation().flushSubnormals)
      flushSubnormal(values.back(), operands[i]->dtype());
  }
  std::optional<Value> contribution =
      combine(contraction, output.dtype, values);
  if (!contribution)
    return true;
  perturbTerm(*contribution);
  if (contraction.aggregation == AggregationKind::Assign) {
    if (assigned[outputOffset])
      return fail("element " + formatCoordinates(outputCoordinates) + " of '" +
                  output.name +
                  "' is assigned by more than one index tuple (again by " +
                  formatTuple(contraction.indexNames, tuple) + ")");
    assigned[outputOffset] = 1;
  }
  accumulators[outputOffset] =
      aggregate(contraction.aggregation, output.dtype,
                accumulators[outputOffset], *contribution);
  if (table.getPerturbation().flushSubnormals)
    flushSubnormal(accumulators[outputOffset], accumulatedType());
  return true;
}

void ContractionEvaluator::perturbTerm(Value &term) const {
  Perturbation perturbation = table.getPerturbation();
  if (perturbation.flushSubnormals)
    flushSubnormal(term, accumulatedType());
  auto *real = std::get_if<double>(&term);
  if (!perturbation.seed || !real ||
      (contraction.aggregation != AggregationKind::Sum &&
       contraction.aggregation != AggregationKind::Product))
    return;
  *real = perturb(*real, accumulatedType(), 2, perturbation.seed, /*salt=*/0);
}

bool ContractionEvaluator::outerIndexSeparatesElements() const {
  return llvm::any_of(contraction.outputIndices, [](const AffinePoly &poly) {
    return !poly.coeffs.empty() && !poly.coeffs[0].isZero() &&
           std::all_of(poly.coeffs.begin() + 1, poly.coeffs.end(),
                       [](const Rational &c) { return c.isZero(); });
  });
}

bool ContractionEvaluator::visitAll(const LoopNest &nest) {
  llvm::Expected<std::optional<std::pair<int64_t, int64_t>>> outer =
      nest.getOuterRange();
  // Progress counts the output's elements, an equal share for each value of
  // the outermost variable, reported when the visits move past it.
  uint64_t unitsPerOuterValue = 0;
  if (outer && *outer) {
    // Zero when the range spans all 2^64 values (then it reports nothing).
    uint64_t outerCount =
        uint64_t((*outer)->second) - uint64_t((*outer)->first) + 1;
    if (outerCount)
      unitsPerOuterValue =
          std::max<uint64_t>(accumulators.size(), 1) / outerCount;
  }
  WorkProgress &progress = table.getProgress();
  // The tuples of one output element share their outermost value, so each
  // element is folded by one thread in the order of a single thread.
  auto visitRange = [&](int64_t first, int64_t last,
                        const ChunkState &state) -> std::optional<std::string> {
    Scratch scratch;
    StridedRows::Scratch rowScratch;
    std::vector<int64_t> tuple;
    std::optional<int64_t> outerValue;
    auto reachOuterValue = [&](int64_t value) {
      if (outerValue != value) {
        if (outerValue)
          progress.advance(unitsPerOuterValue);
        outerValue = value;
      }
    };
    auto visitTuple = [&](llvm::ArrayRef<int64_t> tuple) {
      if (!tuple.empty())
        reachOuterValue(tuple[0]);
      return !state.earlierChunkFailed() && visit(tuple, scratch);
    };
    llvm::Error error = llvm::Error::success();
    if (strided)
      error = nest.forEachRow(
          [&](llvm::ArrayRef<int64_t> outer, int64_t low, int64_t high) {
            if (state.earlierChunkFailed())
              return false;
            if (!strided->foldRow(outer, low, high, accumulators, rowScratch))
              return LoopNest::forEachInRow(outer, low, high, tuple,
                                            visitTuple);
            reachOuterValue(outer.empty() ? low : outer[0]);
            return true;
          },
          first, last);
    else
      error = nest.forEach(visitTuple, first, last);
    if (error)
      return llvm::toString(std::move(error));
    if (outerValue && !scratch.error)
      progress.advance(unitsPerOuterValue);
    return scratch.error;
  };
  std::atomic<size_t> noFailure{SIZE_MAX};
  std::optional<std::string> error;
  if (!outer)
    error = llvm::toString(outer.takeError());
  else if (!outerIndexSeparatesElements() || !*outer)
    error = visitRange(std::numeric_limits<int64_t>::min(),
                       std::numeric_limits<int64_t>::max(),
                       ChunkState(0, noFailure));
  else
    error = forEachChunk((*outer)->first, (*outer)->second, 1, visitRange);
  if (error)
    return fail(*error);
  return true;
}

std::optional<HostTensor> ContractionEvaluator::run() {
  if (!resolveOperands())
    return std::nullopt;
  if (contraction.defaultTensor) {
    defaults = table.lookup(*contraction.defaultTensor, statement.loc);
    if (!defaults)
      return std::nullopt;
    if (defaults->shape() != output.shape) {
      fail("internal error: the default tensor's shape " +
           formatCoordinates(defaults->shape()) +
           " differs from the output's " + formatCoordinates(output.shape));
      return std::nullopt;
    }
  }

  InequalityBuilder inequalities(contraction.indexNames.size());
  if (!planAccess(contraction.outputIndices, output.shape, inequalities))
    return std::nullopt;
  for (size_t i = 0; i < operands.size(); ++i)
    if (!planAccess(contraction.operands[i].indices, operands[i]->shape(),
                    inequalities))
      return std::nullopt;
  if (!planConstraints(inequalities))
    return std::nullopt;
  // A perturbed run folds tuple by tuple, where the terms are perturbed.
  if (walk == ContractionWalk::StridedRows &&
      !table.getPerturbation().changesTerms())
    if (std::optional<StridedRows> rows = StridedRows::plan(
            contraction, output.dtype, accesses, constraints, operands))
      strided.emplace(std::move(*rows));

  llvm::Expected<LoopNest> nest =
      LoopNest::build(contraction.indexNames, inequalities.take());
  if (!nest) {
    fail(llvm::toString(nest.takeError()));
    return std::nullopt;
  }

  // The accumulators (and, for `=`, the assigned flags) live beside the
  // output until it is stored.
  std::optional<HostTensor> result =
      makeTensor(output.dtype, output.shape, statement.loc,
                 table.getSourceMgr(), sizeof(Value) + 1);
  if (!result)
    return std::nullopt;
  initialize();
  if (!visitAll(*nest))
    return std::nullopt;
  for (size_t i = 0; i < accumulators.size(); ++i)
    storeElement(*result, i, accumulators[i]);
  return result;
}

} // namespace

std::optional<HostTensor>
interp::evaluateContraction(const Statement &statement,
                            const Contraction &contraction,
                            const TensorTable &table, ContractionWalk walk) {
  return ContractionEvaluator(statement, contraction, table, walk).run();
}
