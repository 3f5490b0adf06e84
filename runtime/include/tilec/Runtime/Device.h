//===- Device.h - A device of either backend --------------------*- C++ -*-===//
//
// What an application (a tool, the JIT) needs of a device, whichever API is
// underneath: list a backend's devices, choose one the way `--backend`,
// `--device SEL` and `--profile FILE` say (a profile file overrides what the
// driver reports, so that a test can pretend to be a smaller device), open
// it, and prepare bundles there into Executors.
//
// A Device is not thread-safe: prepare bundles and run their executors from
// one thread at a time (the JIT serialises them under a lock of its own).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICE_H
#define TILEC_RUNTIME_DEVICE_H

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/Status.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec {

/// Which device to use, and what to override of its profile.
struct DeviceRequest {
  Backend backend = Backend::OpenCL;
  /// "" picks the backend's default (OpenCL: the first GPU, else the first
  /// CPU, else the first device; Vulkan: the first discrete or integrated
  /// GPU, else the first CPU, else the first device); a decimal number picks
  /// by index (as listDevices numbers them); anything else picks the first
  /// device whose name contains it, ignoring case.
  std::string selector;
  /// A JSON device profile file (as `tilec devices --json` writes) whose
  /// fields override what the driver reports; empty for none.
  std::string profilePath;
  /// A JSON object of profile fields, applied after profilePath; empty for
  /// none.
  std::string profileOverrides;
  /// Whether the driver's compiler optimizes the device code. Off builds
  /// OpenCL C with -cl-opt-disable and creates Vulkan pipelines with
  /// VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT: slower kernels, to tell a
  /// miscompile of the driver's optimizer from one of tilec's
  /// (docs/testing.md).
  bool optimizeDeviceCode = true;
};

/// One device of a backend, as the driver reports it; nothing is opened.
struct DeviceInfo {
  /// What DeviceRequest::selector takes to pick exactly this device.
  unsigned index = 0;
  /// Where the device comes from, for people: its OpenCL platform's name,
  /// or "Vulkan 1.3.230".
  std::string origin;
  DeviceProfile profile;
  /// Whether the selector "" picks it.
  bool isDefault = false;
};

/// The devices of one backend.
struct DeviceList {
  std::vector<DeviceInfo> devices;
  /// The devices for people, as `tilec devices` prints them (OpenCL's
  /// grouped by platform, in the form of `clinfo -l`), each with its profile
  /// summary and the default marked; with no device, why there is none and
  /// what to install.
  std::string listing;
};

/// The devices of `backend` on this machine; no driver or device at all is
/// an empty list, not an error.
Expected<DeviceList> listDevices(Backend backend);

/// The profile of the device that `request` picks, with its overrides
/// applied; nothing is opened. Fails as Device::open does.
Expected<DeviceProfile> chooseDeviceProfile(const DeviceRequest &request);

/// An opened device: what bundles are prepared on.
class Device {
public:
  /// Opens the device that `request` picks, with its overrides applied.
  /// Fails with ErrorKind::NoDevice (no driver or device, or none that the
  /// selector matches; the error lists the devices),
  /// ErrorKind::InvalidArgument (a profile file or overrides that cannot be
  /// applied) or ErrorKind::Device (enumerating or opening failed).
  static Expected<std::unique_ptr<Device>> open(const DeviceRequest &request);

  virtual ~Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  virtual Backend backend() const = 0;
  /// The profile that compilation and the executors' checks use: the
  /// driver's, with the request's overrides.
  virtual const DeviceProfile &profile() const = 0;
  /// Where the device comes from, as DeviceInfo::origin says it.
  virtual std::string origin() const = 0;

  /// Prepares `bundle` (named `name` in messages) from its code for this
  /// backend (OpenCL C or SPIR-V). The device must outlive the executor.
  Expected<std::unique_ptr<Executor>> prepare(Bundle bundle, std::string name) {
    return prepareBundle(std::move(bundle), std::move(name), nullptr);
  }
  /// prepare(), from `binary`, what driverBinary() gave for the same bundle
  /// on a device of the same driver (in this process or an earlier one):
  /// the driver's compiler is skipped. A binary the driver rejects is an
  /// error; the caller prepares from the bundle's code then.
  Expected<std::unique_ptr<Executor>>
  prepareFromBinary(Bundle bundle, const std::vector<unsigned char> &binary,
                    std::string name) {
    return prepareBundle(std::move(bundle), std::move(name), &binary);
  }
  /// The driver's binary of the code of `bundle`, which prepare() has built
  /// on this device: what a cache on disk keeps for prepareFromBinary.
  /// Empty when the backend keeps none (Vulkan: its pipeline cache is the
  /// device's, in memory) or the driver offers none.
  virtual Expected<std::vector<unsigned char>>
  driverBinary(const Bundle &bundle, const std::string &name) = 0;

protected:
  Device() = default;

private:
  /// Prepares `bundle`, from `binary` when one is given.
  virtual Expected<std::unique_ptr<Executor>>
  prepareBundle(Bundle bundle, std::string name,
                const std::vector<unsigned char> *binary) = 0;
};

} // namespace tilec

#endif // TILEC_RUNTIME_DEVICE_H
