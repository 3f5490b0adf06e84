//===- KernelCost.h - Work counts of a contraction --------------*- C++ -*-===//
//
// How many index tuples a contraction visits and how large its index
// arithmetic gets, from interval bounds over the output box. Used by the
// scheduler and the lowering to the kernel IR: feeds tile.flops, --explain and
// the choice of index width.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELCOST_H
#define TILEC_LOWERING_KERNELCOST_H

#include "tilec/Analysis/IndexSpace.h"

#include "llvm/ADT/ArrayRef.h"

#include <utility>

namespace tilec {
namespace lowering {

struct TupleCount {
  /// Valid tuples over all output elements: exact for a dense box, else an
  /// upper bound (the loops' ranges over the whole output box).
  double tuples = 0;
  bool exact = true;
  /// The largest magnitude any numerator of the loop nest reaches.
  double maxMagnitude = 0;
  /// The most iterations each loop level runs for one output element (its
  /// range over the whole output box), outermost first.
  std::vector<double> levelTrips;
  /// The range [lower, upper] each loop level's variable takes over the
  /// whole output box, outermost first (infinite where unbounded).
  std::vector<std::pair<double, double>> levelRanges;
  /// The most tuples one output element can have: the product of
  /// levelTrips.
  double perElement = 0;
};

TupleCount countTuples(const ContractionSpace &space,
                       const IndexSystem &system);

/// The loop passes one work-item makes through a nest of loops that run up
/// to `trips[l]` iterations at level l (outermost first) each time they are
/// entered, counted as llvmpipe counts them (DeviceProfile's
/// maxLoopIterations): one pass per iteration of any loop, plus the final
/// pass of each run of a loop, in which every work-item leaves it.
double countLoopPasses(llvm::ArrayRef<double> trips);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELCOST_H
