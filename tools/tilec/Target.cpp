//===- Target.cpp - The device a subcommand compiles and runs for ---------===//

#include "Driver.h"

#include "tilec/Compiler/Pipeline.h"
#include "tilec/Runtime/Device.h"

using namespace llvm;

namespace tilec {

/// The profile of the device of `backend` that `--device`/`--profile` name,
/// the file over the driver's. Errors are printed; the caller exits with
/// ExitDeviceError.
static std::optional<DeviceProfile>
chooseProfile(Backend backend, StringRef selector, StringRef profilePath) {
  Expected<DeviceProfile> profile =
      chooseDeviceProfile({backend, selector.str(), profilePath.str()});
  if (!profile) {
    reportError(profile.error().message());
    return std::nullopt;
  }
  return *profile;
}

/// The profile file at `path` if it gives every key (it then describes the
/// target by itself), else nullopt; an error for a file that cannot be
/// applied. A field that the file sets comes out the same over any base
/// profile, so applying it to two profiles that differ in every field shows
/// whether it sets them all. The fields added since profiles were first
/// written (the launch limit, the float controls, the work-group promise)
/// may be left out: the two agree on their defaults, which hold for any
/// OpenCL device.
static Expected<std::optional<DeviceProfile>>
readCompleteProfile(const std::string &path) {
  DeviceProfile unset, differing;
  differing.name = differing.vendor = differing.driverVersion = "?";
  differing.type = DeviceType::GPU;
  differing.maxWorkGroupSize = 2;
  differing.maxWorkItemSizes = {2, 2, 2};
  differing.localMemBytes = 1;
  differing.computeUnits = 2;
  differing.preferredVectorWidth = {2, 2, 2, 2, 2, 1, 1};
  differing.subgroupSize = 1;
  differing.maxAllocBytes = differing.globalMemBytes = 1;
  differing.clockMHz = 1;
  differing.supportsFp64 = differing.supportsFp16 = true;
  differing.maxLoopIterations = 1;
  if (Status status = applyProfileFile(unset, path); !status)
    return status.error();
  if (Status status = applyProfileFile(differing, path); !status)
    return status.error();
  if (unset != differing)
    return std::optional<DeviceProfile>();
  return std::optional<DeviceProfile>(unset);
}

/// What `--backend metal` compiles for when `--profile` does not say: a
/// conservative Apple GPU (Metal's feature set tables, Apple4 family and
/// later: 1024 threads per threadgroup, 32 KiB of threadgroup memory,
/// buffers of 256 MiB at least, SIMD groups of 32), with no f64, which Metal
/// lacks. No Metal device is opened here.
static DeviceProfile genericMetalProfile() {
  DeviceProfile profile;
  profile.name = "generic Apple GPU (Metal)";
  profile.vendor = "Apple";
  profile.type = DeviceType::GPU;
  profile.maxWorkGroupSize = 1024;
  profile.maxWorkItemSizes = {1024, 1024, 1024};
  profile.localMemBytes = 32 * 1024;
  profile.computeUnits = 8;
  profile.preferredVectorWidth = {1, 1, 1, 1, 1, 0, 1};
  profile.subgroupSize = 32;
  profile.maxAllocBytes = 256ull << 20;
  profile.globalMemBytes = 1ull << 30;
  profile.supportsFp64 = false;
  profile.supportsFp16 = true;
  return profile;
}

std::optional<DeviceProfile> chooseTargetProfile(CompileBackend backend,
                                                 StringRef selector,
                                                 StringRef profilePath) {
  if (backend == CompileBackend::Metal) {
    if (!selector.empty()) {
      reportError("--device " + selector +
                  ": tilec opens no Metal devices; --backend metal compiles "
                  "for a generic Apple GPU, which --profile FILE overrides");
      return std::nullopt;
    }
    DeviceProfile profile = genericMetalProfile();
    if (!profilePath.empty())
      if (Status status = applyProfileFile(profile, profilePath.str());
          !status) {
        reportError(status.error().message());
        return std::nullopt;
      }
    return profile;
  }
  // A profile that gives every key needs no device: none is opened, so no
  // driver is loaded (PoCL alone loads its own LLVM), which keeps
  // ahead-of-time compilation fast and possible on any machine.
  if (selector.empty() && !profilePath.empty()) {
    Expected<std::optional<DeviceProfile>> complete =
        readCompleteProfile(profilePath.str());
    if (!complete) {
      reportError(complete.error().message());
      return std::nullopt;
    }
    if (*complete)
      return **complete;
  }
  if (backend == CompileBackend::Vulkan)
    return chooseProfile(Backend::Vulkan, selector, profilePath);
  Expected<DeviceList> devices = listDevices(Backend::OpenCL);
  if (!devices) {
    reportError(devices.error().message());
    return std::nullopt;
  }
  // Ahead-of-time compilation for a device this machine does not have: the
  // profile file describes it, over the defaults.
  if (devices->devices.empty() && selector.empty() && !profilePath.empty()) {
    DeviceProfile profile;
    if (Status status = applyProfileFile(profile, profilePath.str()); !status) {
      reportError(status.error().message());
      return std::nullopt;
    }
    return profile;
  }
  if (devices->devices.empty()) {
    reportError("no OpenCL device found to compile for; to compile for a "
                "device this machine does not have, describe it with "
                "--profile FILE (a JSON device profile, as `tilec devices "
                "--json` prints it on a machine that has the device)");
    return std::nullopt;
  }
  return chooseProfile(Backend::OpenCL, selector, profilePath);
}

int openRunDevice(Backend backend, StringRef selector, StringRef profilePath,
                  bool unoptimized, DeviceProgram &prepared) {
  DeviceRequest request{backend, selector.str(), profilePath.str()};
  request.optimizeDeviceCode = !unoptimized;
  Expected<std::unique_ptr<Device>> device = Device::open(request);
  if (!device) {
    reportError(device.error().message());
    return ExitDeviceError;
  }
  prepared.device = std::move(*device);
  return ExitSuccess;
}

CompileTargets getRunTargets(Backend backend) {
  CompileTargets targets;
  targets.openCL = backend == Backend::OpenCL;
  targets.spirv = backend == Backend::Vulkan;
  return targets;
}

int prepareExecutor(DeviceProgram &prepared, StringRef name) {
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
