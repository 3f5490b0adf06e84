//===- DeviceSession.cpp - The JIT's use of one runtime Device ------------===//

#include "DeviceSession.h"

namespace tilec::jit {

Expected<std::shared_ptr<DeviceSession>>
DeviceSession::open(const ContextOptions &options) {
  DeviceRequest request;
  request.backend = options.backend;
  request.selector = options.device;
  request.profilePath = options.profilePath;
  request.profileOverrides = options.profileOverrides;
  Expected<std::unique_ptr<Device>> device = Device::open(request);
  if (!device)
    return device.error();
  return std::make_shared<DeviceSession>(std::move(*device));
}

CompileTargets DeviceSession::targets() const {
  CompileTargets targets;
  targets.openCL = backend() == Backend::OpenCL;
  targets.spirv = backend() == Backend::Vulkan;
  return targets;
}

Expected<PreparedBundle>
DeviceSession::prepare(const Bundle &bundle,
                       const std::vector<unsigned char> *binary,
                       const std::string &name) {
  Expected<std::unique_ptr<Executor>> executor =
      binary ? device->prepareFromBinary(bundle, *binary, name)
             : device->prepare(bundle, name);
  if (!executor)
    return executor.error();
  PreparedBundle prepared;
  prepared.executor = std::move(*executor);
  if (binary)
    return prepared;
  Expected<std::vector<unsigned char>> compiled =
      device->driverBinary(bundle, name);
  if (!compiled)
    return compiled.error();
  prepared.binary = std::move(*compiled);
  return prepared;
}

} // namespace tilec::jit
