//===- SessionTensor.h - A device tensor that keeps its device --*- C++ -*-===//
//
// Internal to the JIT library. The runtime's device tensors must not
// outlive their device, and reading one uses the device's queue; the JIT
// hands out this wrapper instead, which keeps the session (and so the
// device) alive and reads under the session's queue lock. Inputs are
// unwrapped before they reach an executor.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_SESSIONTENSOR_H
#define TILEC_JIT_LIB_SESSIONTENSOR_H

#include "DeviceSession.h"

#include "tilec/Runtime/Executor.h"

#include <memory>

namespace tilec::jit {

class SessionTensor final : public DeviceTensor {
public:
  SessionTensor(std::shared_ptr<DeviceSession> session,
                std::shared_ptr<DeviceTensor> tensor)
      : DeviceTensor(tensor->dtype(), tensor->shape()),
        session(std::move(session)), tensor(std::move(tensor)) {}

  Backend backend() const override { return tensor->backend(); }
  tilec::Expected<HostTensor> read() const override {
    std::lock_guard<std::mutex> guard(session->queueLock());
    return tensor->read();
  }

  const DeviceSession &owner() const { return *session; }
  /// The backend's tensor, which executors take.
  const std::shared_ptr<DeviceTensor> &unwrap() const { return tensor; }

private:
  std::shared_ptr<DeviceSession> session;
  std::shared_ptr<DeviceTensor> tensor;
};

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_SESSIONTENSOR_H
