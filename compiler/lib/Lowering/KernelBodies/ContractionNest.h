//===- ContractionNest.h - One element's contraction loop nest --*- C++ -*-===//
//
// The loop nest of a contraction's index space (IndexSpace.h) at one output
// element, aggregating every valid tuple into a running aggregate. The
// generic schedule runs it whole in one work-item; the reduction schedule
// shares it among the work-items of a work-group (WorkSplit). Internal to
// lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_CONTRACTIONNEST_H
#define TILEC_LOWERING_CONTRACTIONNEST_H

#include "KernelBodies/KernelBodies.h"

namespace tilec {
namespace lowering {

class ContractionNest {
public:
  /// The nest of the group's contraction at the element `coords`, or, with
  /// `laneStrides` (getGenericLaneStrides, one per input), at as many
  /// consecutive elements along the last axis as the schedule's lanes, from
  /// `coords` on: the state then holds each lane's aggregate in turn.
  ContractionNest(KernelContext &context, Aggregator &aggregator,
                  mlir::ArrayRef<mlir::Value> coords,
                  mlir::ArrayRef<int64_t> laneStrides = {});

  /// `initial` with every valid tuple of the element aggregated: coordinate
  /// guards, one scf.for per free index with exact ceil/floor bounds,
  /// integrality checks, then the pivots, loads and combination. The
  /// innermost levels whose ranges over the output box hold at most
  /// kUnrolledTuples tuples together (a small window), one of them with
  /// bounds that depend on the element, are unrolled instead: one body per
  /// value of their range, each under its bound checks.
  llvm::SmallVector<mlir::Value> emit(mlir::ValueRange initial);
  /// `initial` with the tuples of work-item `item` (of `items`) aggregated,
  /// the nest being shared as `split` says (in steps of split.stepWidth
  /// tuples, whose inputs load as one vector each where they move).
  llvm::SmallVector<mlir::Value> emitShare(mlir::ValueRange initial,
                                           const WorkSplit &split,
                                           mlir::Value item, int64_t items);

private:
  llvm::SmallVector<mlir::Value> emitGuarded(mlir::ValueRange initial);
  /// The conjunction of the coordinate conditions, or null when none.
  mlir::Value emitCoordinateGuard();
  llvm::SmallVector<mlir::Value> emitLoops(unsigned level,
                                           mlir::ValueRange state);
  /// Level `level` unrolled over its range [first, last] over the output
  /// box.
  llvm::SmallVector<mlir::Value> emitUnrolled(unsigned level,
                                              mlir::ValueRange state);
  /// The bounds and step of this work-item's share of the iterations from
  /// `begin` to `end` (exclusive).
  std::tuple<mlir::Value, mlir::Value, mlir::Value>
  emitShareOf(mlir::Value begin, mlir::Value end);
  /// The merged leading loops as one linear loop.
  llvm::SmallVector<mlir::Value> emitMergedLoop(mlir::ValueRange state);
  /// Whether only the inputs' addresses read index variable `var`, with
  /// whole coefficients: no bound, pivot or integrality check.
  bool isAddressedAlone(unsigned var) const;
  /// The coefficient of index variable `var` in `access`'s linear address.
  int64_t addressCoefficient(const IndexSystem::Access &access,
                             unsigned var) const;
  llvm::SmallVector<mlir::Value> emitTuple(mlir::ValueRange state);
  llvm::SmallVector<mlir::Value> emitContribution(mlir::ValueRange state);
  /// One lane's aggregate `state` with the tuple's inputs `values` (of tile
  /// element types `types`) combined into it.
  llvm::SmallVector<mlir::Value> emitLaneContribution(mlir::ValueRange state,
                                                      mlir::ValueRange values,
                                                      mlir::TypeRange types);
  /// The linear address of `access` at the current tuple.
  mlir::Value emitAddress(const IndexSystem::Access &access);
  /// `then` under `condition`, else `state` unchanged.
  llvm::SmallVector<mlir::Value>
  emitIf(mlir::Value condition, mlir::ValueRange state,
         llvm::function_ref<llvm::SmallVector<mlir::Value>()> then);
  /// A loop from `lower` to `upper` by `step` carrying `state`, whose body
  /// `body` builds from the induction variable and the carried state.
  llvm::SmallVector<mlir::Value>
  emitFor(mlir::Value lower, mlir::Value upper, mlir::Value step,
          mlir::ValueRange state,
          llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::Value,
                                                            mlir::ValueRange)>
              body);

  KernelContext &context;
  tile::ContractOp op;
  const ContractionSpace &space;
  const IndexSystem &system;
  Aggregator &aggregator;
  mlir::OpBuilder &b;
  mlir::Location loc;
  IndexBuilder index;
  /// [o_0..o_{R-1}, x_0..x_{N-1}] at the current tuple (of lane 0).
  llvm::SmallVector<mlir::Value> vars;
  /// Per input: 1 where its address moves with the lane, 0 where it stays;
  /// empty for one element.
  llvm::SmallVector<int64_t> laneStrides;
  int64_t lanes = 1;
  /// The same for the positions of a shared nest's step, which aggregate
  /// into one state in turn (getSharedStepStrides); empty for steps of one.
  llvm::SmallVector<int64_t> stepStrides;
  int64_t steps = 1;
  /// The first loop level that emit() unrolls (the number of levels where
  /// none is), and the ranges over the output box of those levels.
  unsigned firstUnrolled = 0;
  llvm::SmallVector<std::pair<int64_t, int64_t>> unrolledRanges;
  /// Set while emitting a shared nest.
  const WorkSplit *split = nullptr;
  mlir::Value item;
  int64_t items = 1;
};

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_CONTRACTIONNEST_H
