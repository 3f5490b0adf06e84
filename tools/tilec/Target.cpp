//===- Target.cpp - The device a subcommand compiles and runs for ---------===//

#include "Driver.h"

#include "tilec/Compiler/Pipeline.h"
#include "tilec/Runtime/DeviceChoice.h"

using namespace llvm;

namespace tilec {

std::optional<opencl::DeviceDescriptor> chooseRunDevice(StringRef selector,
                                                        StringRef profilePath) {
  Expected<opencl::DeviceDescriptor> chosen =
      chooseDevice(selector, profilePath.str());
  if (!chosen) {
    reportError(chosen.error().message());
    return std::nullopt;
  }
  return *chosen;
}

std::optional<DeviceProfile> chooseTargetProfile(StringRef selector,
                                                 StringRef profilePath) {
  Expected<std::vector<opencl::DeviceDescriptor>> devices =
      opencl::enumerateDevices();
  if (!devices) {
    reportError(devices.error().message());
    return std::nullopt;
  }
  // Ahead-of-time compilation for a device this machine does not have: the
  // profile file describes it entirely.
  if (devices->empty() && selector.empty() && !profilePath.empty()) {
    DeviceProfile profile;
    if (Status status = applyProfileFile(profile, profilePath.str()); !status) {
      reportError(status.error().message());
      return std::nullopt;
    }
    return profile;
  }
  if (devices->empty()) {
    reportError("no OpenCL device found to compile for; to compile for a "
                "device this machine does not have, describe it with "
                "--profile FILE (a JSON device profile, as `tilec devices "
                "--json` prints it on a machine that has the device)");
    return std::nullopt;
  }
  std::optional<opencl::DeviceDescriptor> chosen =
      chooseRunDevice(selector, profilePath);
  if (!chosen)
    return std::nullopt;
  return chosen->profile;
}

int prepareOnDevice(const Program &program, Backend backend, StringRef selector,
                    StringRef profilePath, StringRef name, SourceMgr &sourceMgr,
                    DeviceProgram &prepared) {
  Expected<std::unique_ptr<OpenedDevice>> device =
      openDevice(backend, selector, profilePath.str());
  if (!device) {
    reportError(device.error().message());
    return ExitDeviceError;
  }
  prepared.device = std::move(*device);
  CompileTargets targets;
  targets.openCL = backend == Backend::OpenCL;
  targets.spirv = backend == Backend::Vulkan;
  std::optional<Bundle> bundle =
      compileProgram(program, prepared.device->profile(), sourceMgr, targets);
  if (!bundle)
    return ExitProgramError;
  prepared.bundle = std::move(*bundle);
  Expected<std::unique_ptr<Executor>> executor =
      prepared.device->prepare(prepared.bundle, name.str());
  if (!executor) {
    reportError(executor.error().message());
    return ExitDeviceError;
  }
  prepared.executor = std::move(*executor);
  return ExitSuccess;
}

std::optional<Backend> parseDeviceBackend(StringRef name, StringRef choices) {
  if (std::optional<Backend> backend = parseBackend(name))
    return backend;
  reportError("unknown backend '" + name + "' (available: " + choices + ")");
  return std::nullopt;
}

std::vector<HostTensor>
tensorsInBundleOrder(const Bundle &bundle, ArrayRef<unsigned> indexes,
                     const StringMap<HostTensor> &data) {
  std::vector<HostTensor> tensors;
  for (unsigned index : indexes)
    tensors.push_back(data.lookup(bundle.buffers[index].name));
  return tensors;
}

} // namespace tilec
