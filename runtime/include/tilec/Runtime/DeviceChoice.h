//===- DeviceChoice.h - The device a command line asks for ------*- C++ -*-===//
//
// What `--backend`, `--device SEL` and `--profile FILE` mean for every
// tool: enumerate the backend's devices, pick one, and let a profile file
// override what the driver reports (so a test can pretend to be a smaller
// device). OpenedDevice hides the backend from tools that only prepare and
// run bundles.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICECHOICE_H
#define TILEC_RUNTIME_DEVICECHOICE_H

#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/OpenCL.h"

#include <memory>
#include <string>
#include <string_view>

namespace tilec {

/// Enumerates the devices, picks one with `selector` (as
/// opencl::selectDevice does) and, unless `profilePath` is empty, applies
/// that profile file to its profile.
Expected<opencl::DeviceDescriptor> chooseDevice(std::string_view selector,
                                                const std::string &profilePath);

/// chooseDevice, then opens the device.
Expected<std::unique_ptr<opencl::Device>>
openChosenDevice(std::string_view selector, const std::string &profilePath);

/// A device of either backend, opened: what tools prepare bundles on.
class OpenedDevice {
public:
  virtual ~OpenedDevice() = default;

  virtual Backend backend() const = 0;
  /// The profile that compilation and the executor's checks use (the
  /// driver's, possibly overridden by a profile file).
  virtual const DeviceProfile &profile() const = 0;
  /// Where the device comes from, for people: its OpenCL platform's name,
  /// or "Vulkan 1.3.230".
  virtual std::string origin() const = 0;
  /// Prepares `bundle` on the device (OpenCLExecutor::create or
  /// VulkanExecutor::create); the device must outlive the executor.
  virtual Expected<std::unique_ptr<Executor>> prepare(Bundle bundle,
                                                      std::string name) = 0;
};

/// The profile of the device of `backend` that `selector` picks, with the
/// profile file at `profilePath` (unless empty) over it; nothing is opened.
Expected<DeviceProfile> chooseDeviceProfile(Backend backend,
                                            std::string_view selector,
                                            const std::string &profilePath);

/// Chooses a device of `backend` as chooseDeviceProfile does, and opens it.
Expected<std::unique_ptr<OpenedDevice>>
openDevice(Backend backend, std::string_view selector,
           const std::string &profilePath);

} // namespace tilec

#endif // TILEC_RUNTIME_DEVICECHOICE_H
