//===- OpenCLSession.cpp - A device of the OpenCL backend -----------------===//

#include "DeviceSession.h"
#include "RuntimeFailure.h"

#include "tilec/Runtime/OpenCL.h"
#include "tilec/Runtime/OpenCLExecutor.h"

namespace tilec::jit {

namespace {

class OpenCLSession final : public DeviceSession {
public:
  explicit OpenCLSession(std::unique_ptr<opencl::Device> device)
      : device(std::move(device)) {}

  Backend backend() const override { return Backend::OpenCL; }
  const DeviceProfile &profile() const override { return device->profile(); }
  CompileTargets targets() const override { return CompileTargets(); }

  Expected<PreparedBundle> prepare(const Bundle &bundle,
                                   const std::vector<unsigned char> *binary,
                                   const std::string &name) override;

private:
  std::unique_ptr<opencl::Device> device;
};

} // namespace

Expected<PreparedBundle>
OpenCLSession::prepare(const Bundle &bundle,
                       const std::vector<unsigned char> *binary,
                       const std::string &name) {
  std::string options = getBundleBuildOptions(*device);
  // The executor builds the bundle's source through the device's program
  // cache: a program loaded from the binary under the same source and
  // options is what it finds there.
  if (binary) {
    tilec::Expected<std::shared_ptr<const opencl::Program>> loaded =
        device->buildProgramFromBinary(bundle.openclSource, options, *binary,
                                       name);
    if (!loaded)
      return fromRuntimeError(loaded.error(), ErrorKind::Device);
  }
  tilec::Expected<std::unique_ptr<OpenCLExecutor>> executor =
      OpenCLExecutor::create(*device, bundle, name);
  if (!executor)
    return fromRuntimeError(executor.error(), ErrorKind::Device);
  PreparedBundle prepared;
  prepared.executor = std::move(*executor);
  if (binary)
    return prepared;
  tilec::Expected<std::shared_ptr<const opencl::Program>> built =
      device->buildProgram(bundle.openclSource, options, name);
  if (!built)
    return fromRuntimeError(built.error(), ErrorKind::Device);
  tilec::Expected<std::vector<unsigned char>> compiled =
      device->programBinary(**built);
  // A driver that offers no binary only costs the disk cache its binary:
  // a hit builds from source then.
  if (compiled)
    prepared.binary = std::move(*compiled);
  return prepared;
}

/// Picks the device as the tools' --device and --profile do, then applies
/// the overrides; each failure of its own kind.
static Expected<opencl::DeviceDescriptor>
chooseOpenCLDevice(const ContextOptions &options) {
  tilec::Expected<std::vector<opencl::DeviceDescriptor>> devices =
      opencl::enumerateDevices();
  if (!devices)
    return fromRuntimeError(devices.error(), ErrorKind::Device);
  if (devices->empty())
    return Error(ErrorKind::NoDevice,
                 "no OpenCL device found (is an OpenCL driver installed?)");
  tilec::Expected<opencl::DeviceDescriptor> chosen =
      opencl::selectDevice(*devices, options.device);
  if (!chosen)
    return fromRuntimeError(chosen.error(), ErrorKind::NoDevice);
  if (!options.profilePath.empty())
    if (tilec::Status status =
            applyProfileFile(chosen->profile, options.profilePath);
        !status)
      return fromRuntimeError(status.error(), ErrorKind::InvalidArgument);
  if (!options.profileOverrides.empty())
    if (tilec::Status status = applyProfileOverrides(
            chosen->profile, options.profileOverrides, "profile overrides");
        !status)
      return fromRuntimeError(status.error(), ErrorKind::InvalidArgument);
  return std::move(*chosen);
}

Expected<std::shared_ptr<DeviceSession>>
openOpenCLSession(const ContextOptions &options) {
  Expected<opencl::DeviceDescriptor> chosen = chooseOpenCLDevice(options);
  if (!chosen)
    return chosen.error();
  tilec::Expected<std::unique_ptr<opencl::Device>> device =
      opencl::Device::open(*chosen);
  if (!device)
    return fromRuntimeError(device.error(), ErrorKind::Device);
  return std::shared_ptr<DeviceSession>(
      std::make_shared<OpenCLSession>(std::move(*device)));
}

} // namespace tilec::jit
