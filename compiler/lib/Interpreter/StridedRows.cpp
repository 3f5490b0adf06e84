//===- StridedRows.cpp - A contraction's rows walked by strides -----------===//

#include "StridedRows.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>

using namespace tilec;
using namespace tilec::interp;

namespace {

/// Tuples folded at a time: the operands' values of a block stay in the
/// first-level cache.
constexpr size_t kBlockSize = 512;

/// How far the flat C-order offset of `access` moves when index variable
/// `var` grows by one; nullopt when it overflows int64.
std::optional<int64_t> offsetStep(const AccessPlan &access, unsigned var) {
  int64_t step = 0, stride = 1;
  for (size_t d = access.indices.size(); d-- > 0;) {
    int64_t term;
    if (__builtin_mul_overflow(access.indices[d].coeffs[var], stride, &term) ||
        __builtin_add_overflow(step, term, &step))
      return std::nullopt;
    // The last stride computed may overflow; it is never used.
    if (d > 0 && __builtin_mul_overflow(stride, access.shape[d], &stride))
      stride = 0;
  }
  return step;
}

} // namespace

std::optional<StridedRows>
StridedRows::plan(const Contraction &contraction, DType resultType,
                  llvm::ArrayRef<AccessPlan> accesses,
                  llvm::ArrayRef<ConstraintPlan> constraints,
                  llvm::ArrayRef<const HostTensor *> operandTensors) {
  if (contraction.indexNames.empty() || !isFloat(resultType))
    return std::nullopt;
  switch (contraction.aggregation) {
  case AggregationKind::Sum:
  case AggregationKind::Product:
  case AggregationKind::Max:
  case AggregationKind::Min:
    break;
  case AggregationKind::Assign:
    return std::nullopt;
  }
  switch (contraction.combination) {
  case CombinationKind::None:
  case CombinationKind::Add:
  case CombinationKind::Mul:
    break;
  default:
    return std::nullopt;
  }
  // A coordinate with a rational coefficient is an integer only at some
  // tuples of a row; constraints may have any (they are checked at the ends).
  for (const AccessPlan &access : accesses)
    for (const ScaledPoly &poly : access.indices)
      if (poly.scale != 1)
        return std::nullopt;

  StridedRows rows(contraction, resultType, accesses, constraints);
  unsigned innermost = contraction.indexNames.size() - 1;
  std::optional<int64_t> step = offsetStep(accesses[0], innermost);
  if (!step)
    return std::nullopt;
  rows.outputStep = *step;
  for (size_t i = 0; i < operandTensors.size(); ++i) {
    step = offsetStep(accesses[i + 1], innermost);
    if (!step)
      return std::nullopt;
    DType dtype = operandTensors[i]->dtype();
    Conversion conversion = Conversion::Generic;
    if (dtype == DType::F32 &&
        (resultType == DType::F32 || resultType == DType::F64))
      conversion = Conversion::FromF32;
    else if (dtype == DType::F64 && resultType == DType::F64)
      conversion = Conversion::FromF64;
    else if (dtype == DType::F64 && resultType == DType::F32)
      conversion = Conversion::F64ToF32;
    rows.operands.push_back({operandTensors[i], conversion, *step});
  }
  return rows;
}

bool StridedRows::rowIsValid(Scratch &scratch, int64_t low,
                             int64_t high) const {
  for (int64_t x : {low, high}) {
    scratch.tuple.back() = x;
    for (const ConstraintPlan &constraint : constraints) {
      std::optional<bool> holds = constraint.holds(scratch.tuple);
      if (!holds || !*holds)
        return false;
    }
    for (const AccessPlan &access : accesses) {
      int64_t offset;
      if (locate(access, scratch.tuple, scratch.coordinates, offset) !=
          AccessOutcome::InBounds)
        return false;
    }
  }
  return true;
}

int64_t StridedRows::offsetAt(size_t index, Scratch &scratch) const {
  int64_t offset = 0;
  locate(accesses[index], scratch.tuple, scratch.coordinates, offset);
  return offset;
}

void StridedRows::gather(const Operand &operand, int64_t offset, size_t count,
                         double *values) const {
  int64_t step = operand.step;
  const uint8_t *data = operand.tensor->data();
  switch (operand.conversion) {
  case Conversion::FromF32: {
    const float *elements = reinterpret_cast<const float *>(data) + offset;
    for (size_t t = 0; t < count; ++t)
      values[t] = elements[int64_t(t) * step];
    return;
  }
  case Conversion::FromF64:
  case Conversion::F64ToF32: {
    const double *elements = reinterpret_cast<const double *>(data) + offset;
    if (operand.conversion == Conversion::FromF64) {
      for (size_t t = 0; t < count; ++t)
        values[t] = elements[int64_t(t) * step];
    } else {
      for (size_t t = 0; t < count; ++t)
        values[t] = static_cast<float>(elements[int64_t(t) * step]);
    }
    return;
  }
  case Conversion::Generic:
    for (size_t t = 0; t < count; ++t)
      values[t] = std::get<double>(
          convertValue(loadElement(*operand.tensor, offset + int64_t(t) * step),
                       resultType));
    return;
  }
}

void StridedRows::combine(size_t count, Scratch &scratch) const {
  const double *a = scratch.operandValues[0].data();
  const double *b = scratch.operandValues[1].data();
  double *contributions = scratch.contributions.data();
  switch (contraction.combination) {
  case CombinationKind::Add:
    for (size_t t = 0; t < count; ++t)
      contributions[t] = a[t] + b[t];
    return;
  case CombinationKind::Mul:
    for (size_t t = 0; t < count; ++t)
      contributions[t] = a[t] * b[t];
    return;
  default:
    std::copy(a, a + count, contributions);
    return;
  }
}

void StridedRows::aggregate(size_t count, const double *contributions,
                            int64_t offset,
                            std::vector<Value> &accumulators) const {
  // The operations of interp::aggregate() on floats, in the same order.
  auto fold = [&](auto operation) {
    if (outputStep == 0) {
      // Every tuple of the row folds into one element (a reduction
      // innermost): it stays in a register.
      double &slot = std::get<double>(accumulators[offset]);
      double accumulator = slot;
      for (size_t t = 0; t < count; ++t)
        accumulator = operation(accumulator, contributions[t]);
      slot = accumulator;
      return;
    }
    for (size_t t = 0; t < count; ++t) {
      double &slot =
          std::get<double>(accumulators[offset + int64_t(t) * outputStep]);
      slot = operation(slot, contributions[t]);
    }
  };
  switch (contraction.aggregation) {
  case AggregationKind::Sum:
    return fold([](double a, double b) { return a + b; });
  case AggregationKind::Product:
    return fold([](double a, double b) { return a * b; });
  case AggregationKind::Max:
    return fold(maximumNumber);
  case AggregationKind::Min:
    return fold(minimumNumber);
  case AggregationKind::Assign:
    return;
  }
}

bool StridedRows::foldRow(llvm::ArrayRef<int64_t> outer, int64_t low,
                          int64_t high, std::vector<Value> &accumulators,
                          Scratch &scratch) const {
  scratch.tuple.assign(outer.begin(), outer.end());
  scratch.tuple.push_back(low);
  if (!rowIsValid(scratch, low, high))
    return false;
  scratch.tuple.back() = low;
  int64_t outputOffset = offsetAt(0, scratch);
  int64_t operandOffsets[2] = {0, 0};
  for (size_t i = 0; i < operands.size(); ++i)
    operandOffsets[i] = offsetAt(i + 1, scratch);

  // Both ends are valid, so the row is not longer than an extent: the count
  // fits in int64.
  uint64_t count = uint64_t(high) - uint64_t(low) + 1;
  for (auto &values : scratch.operandValues)
    values.resize(kBlockSize);
  scratch.contributions.resize(kBlockSize);
  for (uint64_t done = 0; done < count; done += kBlockSize) {
    size_t block = std::min<uint64_t>(kBlockSize, count - done);
    for (size_t i = 0; i < operands.size(); ++i)
      gather(operands[i], operandOffsets[i] + int64_t(done) * operands[i].step,
             block, scratch.operandValues[i].data());
    combine(block, scratch);
    aggregate(block, scratch.contributions.data(),
              outputOffset + int64_t(done) * outputStep, accumulators);
  }
  return true;
}
