//===- MSL.cpp - Metal Shading Language through SPIRV-Cross ---------------===//

#include "tilec/Target/MSL.h"

#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <spirv_cross/spirv_cross_c.h>

using namespace mlir;

namespace tilec {

FailureOr<std::string> translateToMSL(gpu::GPUFuncOp kernel,
                                      llvm::ArrayRef<uint32_t> spirv) {
  spirv::EntryPointABIAttr abi = spirv::lookupEntryPointABI(kernel);
  if (!abi || !abi.getWorkgroupSize() ||
      abi.getWorkgroupSize().size() != 3)
    return kernel.emitError("the kernel has no spirv.entry_point_abi with a "
                            "work-group size");
  llvm::ArrayRef<int32_t> size = abi.getWorkgroupSize().asArrayRef();

  spvc_context context = nullptr;
  if (spvc_context_create(&context) != SPVC_SUCCESS)
    return kernel.emitError("cannot create a SPIRV-Cross context");
  auto destroy = llvm::make_scope_exit([&] { spvc_context_destroy(context); });
  auto refuse = [&]() {
    return kernel.emitError("SPIRV-Cross cannot translate kernel '")
           << kernel.getName() << "' to MSL: "
           << spvc_context_get_last_error_string(context);
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
      spvc_compiler_install_compiler_options(compiler, options) !=
          SPVC_SUCCESS)
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
