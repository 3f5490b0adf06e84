//===- Executor.h - Running a bundle on a device, any backend ---*- C++ -*-===//
//
// What every runtime backend offers once a bundle is prepared on one of its
// devices: run it on host data and get host results with each launch's
// device time. The OpenCL backend (OpenCLExecutor.h) and the Vulkan backend
// (VulkanExecutor.h) implement it, so tools and the JIT run bundles without
// knowing which API is underneath.
//
// Every executor poisons outputs and temporaries (all bytes 0xFF) before
// each run, so that elements no kernel writes stand out.
//
// A bundle whose buffers do not fit the device's global memory together
// streams through it: each buffer is on the device only from the first
// launch that takes it to the last (Residency.h, docs/runtime.md).
//
// Results may also stay on the device (runOnDevice): the outputs come back as
// DeviceTensors that another executor on the same device takes as inputs
// without a copy, which is how programs are chained.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_EXECUTOR_H
#define TILEC_RUNTIME_EXECUTOR_H

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/HostTensor.h"
#include "tilec/Runtime/Status.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tilec {

/// The APIs a bundle can run through.
enum class Backend : uint8_t { OpenCL, Vulkan };

/// "opencl" or "vulkan": the spelling of `--backend`.
const char *backendName(Backend backend);
/// The backend spelt `name`, or nullopt.
std::optional<Backend> parseBackend(std::string_view name);

/// Checks `inputs`, one per `bundle.inputs` in that order, against the
/// bundle's dtypes and shapes; the error names the first input that differs
/// ("input 'A' is f32[4, 5] but the bundle expects f32[4, 4]").
Status checkBundleInputs(const Bundle &bundle,
                         const std::vector<HostTensor> &inputs);

/// What one run of a bundle produced.
struct BundleRun {
  /// One per `Bundle::outputs`, in that order.
  std::vector<HostTensor> outputs;
  /// The device time of each launch in nanoseconds, one per
  /// `Bundle::launches`; 0 for a launch without work-items, which is skipped.
  std::vector<uint64_t> launchNs;
  /// The most bytes of device storage the run held at once: every buffer's
  /// when the bundle fits the device whole, less when it streams.
  uint64_t peakDeviceBytes = 0;
};

/// "memory: at most N bytes on device 'D' at once, of its G bytes of global
/// memory": what `--memory-report` prints of a run on a device of
/// `profile`.
std::string formatMemoryReport(const BundleRun &run,
                               const DeviceProfile &profile);

/// A tensor in device memory: an output of Executor::runOnDevice, which any
/// executor on the same device (same backend, same device object) may take as
/// an input without a copy. Shared: it lives while any holder keeps it, but
/// not beyond the device it was made on. Each backend's subclass holds the
/// storage (whole, or the pieces of a tensor too large for one allocation).
class DeviceTensor {
public:
  virtual ~DeviceTensor() = default;

  virtual Backend backend() const = 0;
  DType dtype() const { return type; }
  const Shape &shape() const { return dims; }

  /// Copies the tensor to the host, after the work that writes it. Uses the
  /// device's queue: not concurrently with other work on the same device.
  virtual Expected<HostTensor> read() const = 0;

  DeviceTensor(const DeviceTensor &) = delete;
  DeviceTensor &operator=(const DeviceTensor &) = delete;

protected:
  DeviceTensor(DType dtype, Shape shape)
      : type(dtype), dims(std::move(shape)) {}

private:
  DType type;
  Shape dims;
};

/// An input of Executor::runOnDevice: host data to upload (not owned; it
/// must outlive the call), or a tensor already on the device.
using RunInput =
    std::variant<const HostTensor *, std::shared_ptr<const DeviceTensor>>;

/// Told how far a streamed run has got: `done` of its `total` launches have
/// completed on the device.
using RunProgress = std::function<void(size_t done, size_t total)>;

/// A bundle prepared on one device: buffers allocated, kernels built. It
/// may run many times. Not thread-safe: one run at a time.
class Executor {
public:
  virtual ~Executor() = default;

  virtual Backend backend() const = 0;
  virtual const Bundle &bundle() const = 0;

  /// Runs the bundle once on `inputs` (one per `Bundle::inputs`, in order):
  /// uploads them, poisons every output and temporary, launches every
  /// kernel in order and reads the outputs back. A failure names the kernel
  /// and its source location.
  virtual Expected<BundleRun> run(const std::vector<HostTensor> &inputs) = 0;

  /// Runs the bundle once with its inputs on the host or on the device; the
  /// outputs stay on the device, each in storage of its own, so that the
  /// outputs of earlier runs stay valid while anything holds them (a run
  /// reuses the storage of outputs that nothing holds any longer). An
  /// output that is an input under a new shape shares that input's storage
  /// only where the input is given as a device tensor (the caller's). The
  /// launches are not timed. Returns after the launches have completed. A
  /// device tensor of another backend or device, of another dtype or shape
  /// than the input it is bound to, or split into pieces other than the
  /// ones this bundle expects, is an error.
  virtual Expected<std::vector<std::shared_ptr<DeviceTensor>>>
  runOnDevice(const std::vector<RunInput> &inputs) = 0;

  /// Calls `progress` (on the calling thread) during the later runs that
  /// stream through the device, each time it waits for launches to
  /// complete: a run that fits the device whole waits once, at its end, and
  /// reports nothing. An empty function stops the calls.
  virtual void setProgress(RunProgress progress) = 0;
};

} // namespace tilec

#endif // TILEC_RUNTIME_EXECUTOR_H
