//===- LowerToKernelIRPass.cpp - tile-lower-to-kernel-ir ------------------===//

#include "PassDetail.h"

#include "KernelIR/HostLowering.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace tilec {
#define GEN_PASS_DECL_TILELOWERTOKERNELIR
#define GEN_PASS_DEF_TILELOWERTOKERNELIR
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

struct LowerToKernelIRPass
    : public tilec::impl::TileLowerToKernelIRBase<LowerToKernelIRPass> {
  using TileLowerToKernelIRBase::TileLowerToKernelIRBase;
  LowerToKernelIRPass() = default;
  LowerToKernelIRPass(std::optional<DeviceProfile> profile,
                      llvm::raw_ostream *explainStream)
      : givenProfile(std::move(profile)), explainStream(explainStream) {}

  void runOnOperation() override {
    FailureOr<KernelPassInput> input =
        readKernelPassInput(givenProfile, profilePath, getOperation());
    if (failed(input))
      return signalPassFailure();
    llvm::raw_ostream *stream =
        explainStream ? explainStream : (explain ? &llvm::errs() : nullptr);
    if (failed(HostLowering(getOperation(), input->function, input->plan,
                            input->profile, stream)
                   .run()))
      signalPassFailure();
  }

  std::optional<DeviceProfile> givenProfile;
  llvm::raw_ostream *explainStream = nullptr;
};

} // namespace

std::unique_ptr<Pass>
tilec::createLowerToKernelIRPass(std::optional<DeviceProfile> profile,
                                 llvm::raw_ostream *explain) {
  return std::make_unique<LowerToKernelIRPass>(std::move(profile), explain);
}
