//===- Executor.cpp - What every backend's executor shares ----------------===//

#include "tilec/Runtime/Executor.h"

#include "tilec/Runtime/Plural.h"
#include "tilec/Runtime/TensorSummary.h"

using namespace tilec;

const char *tilec::backendName(Backend backend) {
  switch (backend) {
  case Backend::OpenCL:
    return "opencl";
  case Backend::Vulkan:
    return "vulkan";
  }
  return "unknown";
}

std::optional<Backend> tilec::parseBackend(std::string_view name) {
  for (Backend backend : {Backend::OpenCL, Backend::Vulkan})
    if (name == backendName(backend))
      return backend;
  return std::nullopt;
}

Status tilec::checkBundleInputs(const Bundle &bundle,
                                const std::vector<HostTensor> &inputs) {
  if (inputs.size() != bundle.inputs.size())
    return Error("the bundle of '" + bundle.function + "' takes " +
                 pluralize(bundle.inputs.size(), "input") + ", not " +
                 std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const BundleBuffer &expected = bundle.buffers[bundle.inputs[i]];
    const HostTensor &actual = inputs[i];
    if (actual.dtype() != expected.dtype || actual.shape() != expected.shape)
      return Error("input '" + expected.name + "' is " +
                   formatTensorType(actual.dtype(), actual.shape()) +
                   " but the bundle expects " +
                   formatTensorType(expected.dtype, expected.shape));
  }
  return Status::success();
}

std::string tilec::formatMemoryReport(const BundleRun &run,
                                      const DeviceProfile &profile) {
  return "memory: at most " + std::to_string(run.peakDeviceBytes) +
         " bytes on device '" + profile.name + "' at once, of its " +
         std::to_string(profile.globalMemBytes) + " bytes of global memory";
}
