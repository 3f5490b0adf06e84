//===- LoweringPass.cpp - lowerToKernels as a tile-opt pass ---------------===//
//
// `--tile-lower-to-kernels` runs lowerToKernels for a device profile: a
// built-in reference profile, overridden by a JSON profile file so that
// tests can pretend to be any device.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/Lowering.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"
#include "tilec/Runtime/DeviceProfile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;

namespace {

/// A mid-sized GPU: what lit tests schedule for unless they pass a profile.
DeviceProfile getReferenceProfile() {
  DeviceProfile profile;
  profile.name = "reference";
  profile.type = DeviceType::GPU;
  profile.maxWorkGroupSize = 256;
  profile.maxWorkItemSizes = {256, 256, 64};
  profile.localMemBytes = 32 * 1024;
  profile.computeUnits = 16;
  profile.maxAllocBytes = uint64_t(1) << 30;
  profile.globalMemBytes = uint64_t(4) << 30;
  profile.supportsFp64 = true;
  return profile;
}

struct LowerToKernelsPass
    : public PassWrapper<LowerToKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerToKernelsPass)

  LowerToKernelsPass() = default;
  LowerToKernelsPass(const LowerToKernelsPass &other) : PassWrapper(other) {}

  StringRef getArgument() const override { return "tile-lower-to-kernels"; }
  StringRef getDescription() const override {
    return "Fuse, schedule and lower a tile function to the kernel IR";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, func::FuncDialect, gpu::GPUDialect,
                    math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                    spirv::SPIRVDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    DeviceProfile profile = getReferenceProfile();
    if (!profilePath.empty()) {
      Status status = applyProfileFile(profile, profilePath);
      if (!status.ok()) {
        emitError(getOperation().getLoc()) << status.error().message();
        return signalPassFailure();
      }
    }
    if (failed(lowerToKernels(getOperation(), profile,
                              explain ? &llvm::errs() : nullptr)))
      signalPassFailure();
  }

  Option<std::string> profilePath{
      *this, "profile",
      llvm::cl::desc("JSON device profile overriding the reference profile")};
  Option<bool> explain{*this, "explain",
                       llvm::cl::desc("Print each kernel's schedule to stderr"),
                       llvm::cl::init(false)};
};

} // namespace

void tilec::registerLoweringPasses() { PassRegistration<LowerToKernelsPass>(); }
