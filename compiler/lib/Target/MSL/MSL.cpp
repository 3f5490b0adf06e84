//===- MSL.cpp - Metal Shading Language through SPIRV-Cross ---------------===//

#include "tilec/Target/MSL/MSL.h"

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <spirv_cross/spirv_cross_c.h>

#include <array>

using namespace mlir;

namespace tilec {

/// Whether `kernel` has an f64 value or buffer anywhere.
static bool usesF64(gpu::GPUFuncOp kernel) {
  auto isF64 = [](Type type) { return getElementTypeOrSelf(type).isF64(); };
  if (llvm::any_of(kernel.getArgumentTypes(), isF64))
    return true;
  WalkResult found = kernel.walk([&](Operation *op) {
    return llvm::any_of(op->getResultTypes(), isF64) ? WalkResult::interrupt()
                                                     : WalkResult::advance();
  });
  return found.wasInterrupted();
}

FailureOr<std::string> translateToMSL(gpu::GPUFuncOp kernel,
                                      llvm::ArrayRef<uint32_t> spirv) {
  // Errors name the kernel's statement, without MLIR's dump of the kernel.
  Location loc = kernel.getLoc();
  if (usesF64(kernel))
    return emitError(loc, "Metal has no f64: kernel '")
           << kernel.getName() << "' cannot be translated to MSL";
  spirv::EntryPointABIAttr abi = spirv::lookupEntryPointABI(kernel);
  if (!abi || !abi.getWorkgroupSize() || abi.getWorkgroupSize().empty() ||
      abi.getWorkgroupSize().size() > 3)
    return emitError(loc, "the kernel has no spirv.entry_point_abi with a "
                          "work-group size");
  // Missing trailing dimensions are 1, as in SPIR-V's LocalSize.
  std::array<int32_t, 3> size = {1, 1, 1};
  llvm::copy(abi.getWorkgroupSize().asArrayRef(), size.begin());

  spvc_context context = nullptr;
  if (spvc_context_create(&context) != SPVC_SUCCESS)
    return emitError(loc, "cannot create a SPIRV-Cross context");
  auto destroy = llvm::make_scope_exit([&] { spvc_context_destroy(context); });
  auto refuse = [&]() {
    return emitError(loc, "SPIRV-Cross cannot translate kernel '")
           << kernel.getName()
           << "' to MSL: " << spvc_context_get_last_error_string(context);
  };

  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  if (spvc_context_parse_spirv(context, spirv.data(), spirv.size(), &ir) !=
          SPVC_SUCCESS ||
      spvc_context_create_compiler(context, SPVC_BACKEND_MSL, ir,
                                   SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                   &compiler) != SPVC_SUCCESS ||
      spvc_compiler_set_entry_point(compiler, kernel.getName().str().c_str(),
                                    SpvExecutionModelGLCompute) !=
          SPVC_SUCCESS ||
      spvc_compiler_create_compiler_options(compiler, &options) !=
          SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(
          options, SPVC_COMPILER_OPTION_MSL_VERSION,
          SPVC_MAKE_MSL_VERSION(kMSLMajorVersion, kMSLMinorVersion, 0)) !=
          SPVC_SUCCESS ||
      spvc_compiler_install_compiler_options(compiler, options) != SPVC_SUCCESS)
    return refuse();
  // Explicit bindings: SPIRV-Cross would otherwise number the buffers in
  // the order it meets them.
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    spvc_msl_resource_binding binding;
    spvc_msl_resource_binding_init(&binding);
    binding.stage = SpvExecutionModelGLCompute;
    binding.desc_set = 0;
    binding.binding = i;
    binding.msl_buffer = i;
    if (spvc_compiler_msl_add_resource_binding(compiler, &binding) !=
        SPVC_SUCCESS)
      return refuse();
  }
  const char *source = nullptr;
  if (spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS)
    return refuse();

  std::string msl;
  llvm::raw_string_ostream os(msl);
  os << "// Kernel " << kernel.getName() << ": threadgroup size " << size[0]
     << " x " << size[1] << " x " << size[2]
     << "; argument i is [[buffer(i)]].\n"
     << source;
  return msl;
}

} // namespace tilec
