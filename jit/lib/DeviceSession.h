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

private:
  std::mutex lock;
};

/// Opens the device that `options` choose.
Expected<std::shared_ptr<DeviceSession>>
openDeviceSession(const ContextOptions &options);

/// The OpenCL backend's session (OpenCLSession.cpp).
Expected<std::shared_ptr<DeviceSession>>
openOpenCLSession(const ContextOptions &options);

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_DEVICESESSION_H
