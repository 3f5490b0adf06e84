//===- HostLowering.h - Kernels, buffers and launches -----------*- C++ -*-===//
//
// The last pass of lowering (`tile-lower-to-kernel-ir`): from the
// tile.kernel ops, their schedules and the memory plan, it builds the
// kernel IR (docs/kernel-ir.md): a gpu.module of kernels and a host
// function over flat buffers that allocates temporaries and launches the
// kernels in order. With --explain it says why (Explain.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_HOSTLOWERING_H
#define TILEC_LOWERING_HOSTLOWERING_H

#include "KernelAnalysis.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/MapVector.h"

namespace tilec {
namespace lowering {

/// The buffers a kernel takes, each once, in order.
struct KernelArguments {
  llvm::SmallVector<mlir::Value> values;
  llvm::DenseMap<mlir::Value, unsigned> positions;

  void add(mlir::Value hostBuffer) {
    if (positions.try_emplace(hostBuffer, values.size()).second)
      values.push_back(hostBuffer);
  }
};

/// One kernel that lowering builds and launches.
struct KernelLaunch {
  std::string name;
  Schedule schedule;
  double flops = 0, bytes = 0;
};

/// A host buffer stored as pieces.
struct HostPieces {
  std::string name;
  mlir::RankedTensorType type;
  PieceLayout layout;
  llvm::SmallVector<mlir::Value> pieces;
  /// Whether its pieces are smaller than the device's largest allocation,
  /// so that the program fits the device's memory.
  bool streamed = false;
};

class HostLowering : public KernelAnalysis {
public:
  HostLowering(mlir::ModuleOp module, mlir::func::FuncOp function,
               KernelPlan &plan, const DeviceProfile &profile,
               llvm::raw_ostream *explain)
      : KernelAnalysis(function, plan, profile), module(module),
        explain(explain), builder(module.getContext()) {}

  /// Reads the schedules and the memory plan, then rewrites the module.
  mlir::LogicalResult run();

private:
  /// The width of the kernels' index arithmetic: 32 bits where every
  /// buffer, launch, range of the index spaces and constant of `kernels`
  /// fits, else 64.
  unsigned getIndexBits(mlir::gpu::GPUModuleOp kernels);
  void buildHost(mlir::func::FuncOp host);
  /// Allocates the pieces of host buffer `whole`, of tensor `root` (null if
  /// none: a copy's target), if it is split.
  void addPieces(mlir::Value whole, mlir::RankedTensorType type,
                 mlir::Value root, llvm::StringRef name, mlir::Location loc);
  /// The buffer a chunk starting at `firstRow` passes for `hostBuffer`,
  /// accessed with `viewRowElements` elements per row: the piece holding
  /// those rows, or the whole buffer.
  mlir::Value getChunkBuffer(mlir::Value hostBuffer, int64_t firstRow,
                             int64_t viewRowElements);
  mlir::LogicalResult buildKernel(mlir::gpu::GPUModuleOp kernels,
                                  unsigned group, KernelInfo &info,
                                  unsigned chunk);
  /// Builds `launch`'s gpu.func over `arguments` and launches it;
  /// `partials` is the temporary of a reduction's partials over several
  /// work-groups per element, `counters` that of the counters whose last
  /// group combines them (null where a second kernel does).
  mlir::LogicalResult
  emitKernel(mlir::gpu::GPUModuleOp kernels, const KernelInfo &info,
             const KernelGroup &group, const KernelArguments &arguments,
             const KernelLaunch &launch, mlir::Value copyTarget,
             mlir::Value partials, mlir::Value counters, int64_t firstRow,
             llvm::StringRef chunkNote);
  /// `chunkNote` says which rows and pieces a chunk of a split launch
  /// takes (empty for a whole launch).
  void printExplanation(const KernelInfo &info, const KernelGroup &group,
                        llvm::StringRef name, const Schedule &s, double flops,
                        double bytes, llvm::StringRef chunkNote);
  void printSplitTensors();
  /// How a reduction work-group shares an element's loop nest.
  void printSharing(const KernelInfo &info);

  mlir::ModuleOp module;
  llvm::raw_ostream *explain;
  mlir::OpBuilder builder;
  /// The host buffer of each root value (arguments, outputs, temporaries).
  llvm::DenseMap<mlir::Value, mlir::Value> hostBuffers;
  /// The temporary of each two-pass reduction's partial aggregates, by
  /// kernel group.
  llvm::DenseMap<unsigned, mlir::Value> partialBuffers;
  /// The temporary of the counters of each reduction whose last work-group
  /// of an element combines its partials, by kernel group.
  llvm::DenseMap<unsigned, mlir::Value> counterBuffers;
  /// The pieces of each split host buffer, in order.
  llvm::MapVector<mlir::Value, HostPieces> hostPieces;
  /// The position of each piece's first element in its tensor.
  llvm::DenseMap<mlir::Value, int64_t> pieceOffsets;
  llvm::SmallVector<mlir::Value> outputArgs;
  /// The host function's index constants, one per value.
  llvm::DenseMap<int64_t, mlir::Value> hostConstants;
  /// Launches go before the host function's return.
  mlir::Operation *hostInsertion = nullptr;
};

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_HOSTLOWERING_H
