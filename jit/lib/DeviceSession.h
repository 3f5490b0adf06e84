//===- DeviceSession.h - The JIT's use of one runtime Device ----*- C++ -*-===//
//
// Internal to the JIT library: a runtime Device (tilec/Runtime/Device.h)
// with what the JIT adds on top. A session is shared by its context and
// every program compiled there (a program outlives its context), and its
// lock serialises every use of the device, which the runtime does not make
// thread-safe; its run queue orders the asynchronous runs; and preparing a
// bundle also returns the driver's binary, for the disk cache.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_DEVICESESSION_H
#define TILEC_JIT_LIB_DEVICESESSION_H

#include "WorkQueue.h"
#include "tilec/Compiler/Pipeline.h"

#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"
#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/Device.h"
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
  /// Opens the device that `options` choose (Device::open's errors).
  static Expected<std::shared_ptr<DeviceSession>>
  open(const ContextOptions &options);

  explicit DeviceSession(std::unique_ptr<Device> device)
      : device(std::move(device)) {}

  Backend backend() const { return device->backend(); }
  /// The profile programs are compiled for.
  const DeviceProfile &profile() const { return device->profile(); }
  /// The code the backend's bundles must carry.
  CompileTargets targets() const;

  /// Prepares `bundle` (named `name` in messages): from `binary` (the
  /// driver's binary of a PreparedBundle of the same bundle) when given,
  /// else from the bundle's code. The caller holds queueLock().
  Expected<PreparedBundle> prepare(const Bundle &bundle,
                                   const std::vector<unsigned char> *binary,
                                   const std::string &name);

  /// Held around every use of the device: preparing, running.
  std::mutex &queueLock() { return lock; }
  /// Where the asynchronous runs of every program of the session go: one
  /// thread, so they run one at a time in submission order, and an output of
  /// an earlier run is complete when a later run takes it.
  WorkQueue &runQueue() { return runs; }

private:
  std::unique_ptr<Device> device;
  std::mutex lock;
  WorkQueue runs{1};
};

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_DEVICESESSION_H
