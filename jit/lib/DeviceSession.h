//===- DeviceSession.h - One opened device of some backend ------*- C++ -*-===//
//
// Internal to the JIT library: what a Context needs of a backend, so that
// every backend plugs in behind the Executor interface. A session is shared
// by its context and every program compiled there (a program outlives its
// context), and its lock serialises every use of the device's queue, which
// the backends' device objects do not make thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_DEVICESESSION_H
#define TILEC_JIT_LIB_DEVICESESSION_H

#include "WorkQueue.h"
#include "tilec/Compiler/Pipeline.h"

#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"
#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tilec::jit {

/// A bundle made ready to run.
struct PreparedBundle {
  std::unique_ptr<Executor> executor;
  /// The driver's binary of the bundle's code when it was just compiled
  /// from source, for the disk cache; empty when it was loaded from a
  /// binary, or when the backend has none.
  std::vector<unsigned char> binary;
};

class DeviceSession {
public:
  virtual ~DeviceSession() = default;

  virtual Backend backend() const = 0;
  /// The profile programs are compiled for.
  virtual const DeviceProfile &profile() const = 0;
  /// The code the backend's bundles must carry.
  virtual CompileTargets targets() const = 0;

  /// Prepares `bundle` (named `name` in messages): from `binary` (the
  /// driver's binary of a PreparedBundle of the same bundle) when given,
  /// else from the bundle's code. The caller holds queueLock().
  virtual Expected<PreparedBundle>
  prepare(const Bundle &bundle, const std::vector<unsigned char> *binary,
          const std::string &name) = 0;

  /// Held around every use of the device: preparing, running.
  std::mutex &queueLock() { return lock; }
  /// Where the asynchronous runs of every program of the session go: one
  /// thread, so they run one at a time in submission order, and an output of
  /// an earlier run is complete when a later run takes it.
  WorkQueue &runQueue() { return runs; }

private:
  std::mutex lock;
  WorkQueue runs{1};
};

/// Opens the device that `options` choose.
Expected<std::shared_ptr<DeviceSession>>
openDeviceSession(const ContextOptions &options);

/// The backends' sessions (OpenCLSession.cpp, VulkanSession.cpp).
Expected<std::shared_ptr<DeviceSession>>
openOpenCLSession(const ContextOptions &options);
Expected<std::shared_ptr<DeviceSession>>
openVulkanSession(const ContextOptions &options);

/// Picks the device of `devices` (a backend's enumeration: descriptors with
/// a `profile`) that `options.device` selects through `select` (the
/// backend's selectDevice), then applies `options`' profile file and
/// overrides to its profile. No device at all and no match are
/// ErrorKind::NoDevice, a bad profile is ErrorKind::InvalidArgument.
template <class Descriptor, class Select>
Expected<Descriptor>
chooseDescriptor(const tilec::Expected<std::vector<Descriptor>> &devices,
                 Select select, const ContextOptions &options) {
  if (!devices)
    return Error(ErrorKind::Device, devices.error().message(), {},
                 devices.error().driverCode());
  if (devices->empty())
    return Error(ErrorKind::NoDevice,
                 std::string("no ") + backendName(options.backend) +
                     " device found (is a driver installed?)");
  tilec::Expected<Descriptor> chosen = select(*devices, options.device);
  if (!chosen)
    return Error(ErrorKind::NoDevice, chosen.error().message());
  auto invalid = [](const tilec::Status &status) {
    return Error(ErrorKind::InvalidArgument, status.error().message());
  };
  if (!options.profilePath.empty())
    if (tilec::Status status =
            applyProfileFile(chosen->profile, options.profilePath);
        !status)
      return invalid(status);
  if (!options.profileOverrides.empty())
    if (tilec::Status status = applyProfileOverrides(
            chosen->profile, options.profileOverrides, "profile overrides");
        !status)
      return invalid(status);
  return std::move(*chosen);
}

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_DEVICESESSION_H
