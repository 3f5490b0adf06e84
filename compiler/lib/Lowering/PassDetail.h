//===- PassDetail.h - What lowering's passes share --------------*- C++ -*-===//
//
// Each pass's file includes its generated base class (Passes.td) with
// GEN_PASS_DECL_<PASS> and GEN_PASS_DEF_<PASS> defined.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_PASSDETAIL_H
#define TILEC_LOWERING_PASSDETAIL_H

#include "tilec/Lowering/KernelFormation.h"
#include "tilec/Lowering/Lowering.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace tilec {

/// The profile a pass schedules for: `given` (by the compiler's pipeline),
/// else the reference profile overridden by the JSON file at `path` (the
/// pass option `profile=`, empty for none). Reports an error at `op` when
/// the file cannot be read.
mlir::FailureOr<DeviceProfile>
resolveProfile(const std::optional<DeviceProfile> &given, llvm::StringRef path,
               mlir::Operation *op);

/// What every pass after formation starts from: the device profile, the
/// `tile` function and the plan its tile.kernel ops record.
struct KernelPassInput {
  DeviceProfile profile;
  mlir::func::FuncOp function;
  lowering::KernelPlan plan;
};

/// resolveProfile, then the module's tile function and its kernels read
/// back as a plan (readKernels); reports an error and fails when one is
/// missing.
mlir::FailureOr<KernelPassInput>
readKernelPassInput(const std::optional<DeviceProfile> &given,
                    llvm::StringRef path, mlir::ModuleOp module);

} // namespace tilec

#endif // TILEC_LOWERING_PASSDETAIL_H
