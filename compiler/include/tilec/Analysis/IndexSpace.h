//===- IndexSpace.h - The valid tuples of a contraction ---------*- C++ -*-===//
//
// Index-space analysis: turns a contraction's rational affine accesses and
// constraints into a loop nest that enumerates exactly the valid index tuples
// contributing to one output element. Lowering gives each output element to
// one work-item, which runs this nest; the scheduler reads the nest's shape
// (which variables are free, whether the bounds are constant) to pick a tiled
// schedule.
//
// Variables: the output coordinates o_0..o_{R-1} (R = output rank) are the
// loop nest's parameters; index variables are either *free* (enumerated by a
// loop, outermost first) or *pivots* (solved from the output equations
// poly_d(index) == o_d, computed from the coordinates and the free
// variables). Every inequality of the system (0 <= access_d < extent_d for
// the inputs, 0 <= constraint < bound; the output's hold because the
// coordinates range over the output) is enforced exactly by the loop bounds
// or by a coordinate guard, so the only per-tuple checks left are
// integrality checks of rational expressions.
//
// Evaluating a ContractionSpace for one output element o: if a coordinate
// condition fails, there is no tuple. Otherwise run the loops over
// freeVars, outermost first, each from the greatest ceil(lower) to the
// least floor(upper); in the innermost body skip the tuple unless every
// integrality check's numerator is divisible by its den; then each pivot
// is its value's numerator divided (exactly) by its den.
//
// This is compile-time analysis for lowering: it shares no code with the
// reference interpreter, which finds the same tuples its own way.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_ANALYSIS_INDEXSPACE_H
#define TILEC_ANALYSIS_INDEXSPACE_H

#include "tilec/Runtime/DType.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace tile {
class ContractOp;
} // namespace tile

/// (sum_k coeffs[k] * v_k + constant) / den over the analysis's variable
/// space: v = [o_0..o_{R-1}, x_0..x_{N-1}] (R output coordinates, then the N
/// index variables). den > 0.
struct QuasiAffine {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  int64_t den = 1;
};

/// The range of one free variable given the coordinates and the free
/// variables outside it: max(ceil(lower...)) <= x <= min(floor(upper...)).
/// Each expression only uses coordinates and outer free variables. Bounds
/// that another bound of the same side beats throughout the output box are
/// dropped, so a window inside the input's range gets constant bounds.
struct LoopBound {
  std::vector<QuasiAffine> lower;
  std::vector<QuasiAffine> upper;
  /// Set when both bounds are constants (no coordinate or variable terms):
  /// the loop is rectangular, [constantLower, constantUpper].
  std::optional<std::pair<int64_t, int64_t>> constantRange;
};

/// An index variable solved from the output equations.
struct Pivot {
  unsigned index = 0;
  /// Over coordinates and free variables; den > 1 means the value is only
  /// an integer (the tuple only valid) when den divides the numerator, and
  /// integralityChecks then holds that check.
  QuasiAffine value;
};

struct ContractionSpace {
  unsigned outputRank = 0;
  unsigned numIndices = 0;
  /// Index variables enumerated by loops, outermost first, and their bounds.
  std::vector<unsigned> freeVars;
  std::vector<LoopBound> bounds;
  /// One per independent output polynomial, in the order of the output
  /// dimensions they are solved from; each only uses coordinates and free
  /// variables. `C[i, j]` gives i = o_0 and j = o_1.
  std::vector<Pivot> pivots;
  /// Conditions on the coordinates alone, each `expr == 0` (from linearly
  /// dependent output polynomials: `O[i, i]` needs o_0 == o_1) or
  /// `0 <= expr` (inequalities with no free variable). An element that
  /// fails one has no valid tuple and keeps its initial value. Conditions
  /// that hold throughout the output box are left out.
  std::vector<QuasiAffine> coordinateEqualities;
  std::vector<QuasiAffine> coordinateInequalities;
  /// Rational expressions over coordinates and index variables (pivots
  /// substituted) that must be integers for the tuple to be valid: the
  /// fractional input accesses and every pivot whose den > 1 (a constraint
  /// is an inequality only: `i/2 < 2` admits i = 3).
  /// Checked inside the innermost loop. Each is normalised: numerators in
  /// [0, den), den > 1, no two alike.
  std::vector<QuasiAffine> integralityChecks;
  /// True when no output element has a valid tuple (an empty extent or
  /// constraint range, or an infeasible system). Only outputRank and
  /// numIndices are set then; every element keeps its initial value.
  bool empty = false;

  /// True when the output accesses are distinct index variables with
  /// coefficient 1 and offset 0 (`C[i, j]`), every free-variable bound is
  /// constant and there is no integrality check or coordinate condition: a
  /// dense reduction over a box, the case the tiled schedules handle.
  bool isDenseBox() const;

  /// The number of valid tuples of every output element when it is the same
  /// for all of them and known at compile time (constant loop ranges, no
  /// per-tuple or per-element condition); nullopt otherwise. An `=`
  /// contraction where this is 2 or more provably assigns every element
  /// twice: a compile-time error.
  std::optional<int64_t> tuplesPerElement() const;
};

/// The system of one contraction, as plain data (what the analysis needs of
/// a `tile.contract`): each access row is numIndices + 1 rationals num/den
/// (the last the constant), and the tensor's extents.
struct IndexSystem {
  struct Row {
    std::vector<int64_t> num, den;
  };
  struct Access {
    std::vector<Row> rows;
    Shape extents;
  };
  unsigned numIndices = 0;
  /// The index variables' names, for messages; empty, or numIndices names.
  std::vector<std::string> names;
  Access output;
  std::vector<Access> inputs;
  /// 0 <= row < bound.
  std::vector<std::pair<Row, int64_t>> constraints;
};

IndexSystem getIndexSystem(tile::ContractOp op);

/// Analyses `system`. Returns nullopt and sets `error` when a variable is
/// unbounded ("index variable 'k' is unbounded"), the arithmetic overflows
/// int64, the elimination needs too many inequalities, or the system is
/// malformed (rows and extents of inconsistent sizes, a den <= 0). The
/// caller reports the error at the contraction's location. An empty system
/// is not an error, even with unbounded variables: it has no tuple.
std::optional<ContractionSpace> analyzeIndexSpace(const IndexSystem &system,
                                                  std::string &error);

} // namespace tilec

#endif // TILEC_ANALYSIS_INDEXSPACE_H
