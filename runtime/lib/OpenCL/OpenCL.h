//===- OpenCL.h - Running kernels through OpenCL ----------------*- C++ -*-===//
//
// A small, explicit layer over the OpenCL 1.2 API (through the ICD loader):
// enumerate devices and pick one, then, on a Device, allocate Buffers, move
// data, build Programs (cached in-process on their source and options),
// create Kernels and launch them, getting Events with profiling times.
//
// Every object owns its OpenCL handles and releases them when destroyed;
// objects are movable, not copyable. Nothing here throws or aborts: failures
// come back as Error values whose message says what was being done (on which
// kernel, buffer or device) and, for driver failures, the OpenCL status name
// ("CL_OUT_OF_RESOURCES"). Limits of the device profile (largest allocation,
// work-group sizes, local memory) are checked before calling the driver, so
// that a profile file that pretends to be a smaller device takes effect.
//
// A Device and what it created are not thread-safe: use them from one thread
// at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_OPENCL_OPENCL_H
#define TILEC_RUNTIME_LIB_OPENCL_OPENCL_H

#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Status.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tilec::opencl {

/// The name of an OpenCL status code ("CL_OUT_OF_RESOURCES"), or
/// "CL_UNKNOWN_ERROR" for a code that OpenCL 1.2 and its common extensions
/// do not define.
const char *statusName(cl_int status);

namespace detail {
inline void release(cl_context object) { clReleaseContext(object); }
inline void release(cl_command_queue object) { clReleaseCommandQueue(object); }
inline void release(cl_mem object) { clReleaseMemObject(object); }
inline void release(cl_program object) { clReleaseProgram(object); }
inline void release(cl_kernel object) { clReleaseKernel(object); }
inline void release(cl_event object) { clReleaseEvent(object); }
} // namespace detail

/// Owns one reference to an OpenCL object and releases it on destruction.
template <class T> class Handle {
public:
  Handle() = default;
  /// Adopts `object`, whose reference the caller gives up.
  explicit Handle(T object) : object(object) {}
  Handle(Handle &&other) noexcept : object(std::exchange(other.object, {})) {}
  Handle &operator=(Handle &&other) noexcept {
    if (this != &other) {
      reset();
      object = std::exchange(other.object, {});
    }
    return *this;
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() { reset(); }

  T get() const { return object; }

private:
  void reset() {
    if (object)
      detail::release(object);
    object = {};
  }

  T object = {};
};

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

/// One device as the ICD loader reports it.
struct DeviceDescriptor {
  /// Position among all devices, platforms taken in the loader's order:
  /// what `--device N` selects.
  unsigned index = 0;
  unsigned platformIndex = 0;
  std::string platformName;
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  /// Read from the driver; a caller may override it (applyProfileFile)
  /// before opening the device.
  DeviceProfile profile;
};

/// Every device of every platform. No platform at all (no ICD installed) is
/// an empty list, not an error.
Expected<std::vector<DeviceDescriptor>> enumerateDevices();

/// Reads the profile of `device` from the driver.
Expected<DeviceProfile> queryProfile(cl_device_id device);

/// Picks a device: "" picks the default (the first GPU, else the first CPU,
/// else the first device); a decimal number picks by index; anything else
/// picks the first device whose name contains it, ignoring case. When none
/// matches, the error lists the available devices.
Expected<DeviceDescriptor>
selectDevice(const std::vector<DeviceDescriptor> &devices,
             std::string_view selector);

/// The devices grouped by platform, in the form of `clinfo -l`, each with
/// its profile summary and the default marked; for `tilec devices`.
std::string formatDeviceList(const std::vector<DeviceDescriptor> &devices);

//===----------------------------------------------------------------------===//
// Objects created on a device
//===----------------------------------------------------------------------===//

/// Device memory.
class Buffer {
public:
  /// Adopts `memory`, which holds at least `size` bytes; `name` (a tensor's
  /// name, say) identifies the buffer in messages.
  Buffer(Handle<cl_mem> memory, size_t size, std::string name)
      : memory(std::move(memory)), bytes(size), label(std::move(name)) {}

  size_t size() const { return bytes; }
  const std::string &name() const { return label; }
  cl_mem handle() const { return memory.get(); }

private:
  Handle<cl_mem> memory;
  size_t bytes;
  std::string label;
};

/// Times of a completed command, in nanoseconds of the device's clock.
struct EventTiming {
  uint64_t queuedNs = 0;
  uint64_t startNs = 0;
  uint64_t endNs = 0;
  uint64_t durationNs() const { return endNs - startNs; }
};

/// A command in flight.
class Event {
public:
  /// Adopts `event`; `description` says what the command does ("running
  /// kernel 'vadd' ...") and prefixes the messages of its failures.
  Event(Handle<cl_event> event, std::string description)
      : event(std::move(event)), text(std::move(description)) {}

  /// Blocks until the command completes; fails if it failed.
  Status wait() const;
  /// Waits, then reads the profiling times.
  Expected<EventTiming> timing() const;

  const std::string &description() const { return text; }
  cl_event handle() const { return event.get(); }

private:
  Handle<cl_event> event;
  std::string text;
};

/// A program built for one device.
class Program {
public:
  Program(Handle<cl_program> program, std::string name, std::string buildLog)
      : program(std::move(program)), label(std::move(name)),
        log(std::move(buildLog)) {}

  const std::string &name() const { return label; }
  /// The compiler's output for a successful build (warnings; often empty).
  const std::string &buildLog() const { return log; }
  cl_program handle() const { return program.get(); }

private:
  Handle<cl_program> program;
  std::string label;
  std::string log;
};

/// What the driver says about a kernel compiled for a device.
struct KernelProperties {
  uint32_t numArgs = 0;
  /// The largest work-group this kernel can run with (it can be below the
  /// device's maximum when the kernel uses many registers).
  uint64_t maxWorkGroupSize = 0;
  uint64_t preferredWorkGroupSizeMultiple = 0;
  /// Local memory the kernel declares itself (not its __local arguments).
  uint64_t localMemBytes = 0;
};

/// An entry point of a Program.
class Kernel {
public:
  Kernel(Handle<cl_kernel> kernel, std::shared_ptr<const Program> program,
         std::string entry, KernelProperties properties)
      : kernel(std::move(kernel)), owner(std::move(program)),
        entry(std::move(entry)), details(properties) {}

  const std::string &name() const { return entry; }
  const Program &program() const { return *owner; }
  const KernelProperties &properties() const { return details; }
  cl_kernel handle() const { return kernel.get(); }

private:
  Handle<cl_kernel> kernel;
  std::shared_ptr<const Program> owner;
  std::string entry;
  KernelProperties details;
};

/// One argument of a launch.
class KernelArg {
public:
  /// A __global pointer argument. The buffer must outlive the launch call
  /// (the enqueued command keeps its memory alive after that).
  static KernelArg buffer(const Buffer &buffer) {
    KernelArg arg(Kind::Buffer, sizeof(cl_mem));
    arg.memory = buffer.handle();
    return arg;
  }
  /// A scalar argument of the C++ type matching the kernel's parameter
  /// (int8_t for char, ..., double for double); half is passed as its
  /// uint16_t bit pattern.
  template <class T> static KernelArg scalar(T value) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                      sizeof(T) <= sizeof(Scalar),
                  "OpenCL scalar arguments are integers or floats");
    KernelArg arg(Kind::Scalar, sizeof(T));
    std::memcpy(arg.value.data(), &value, sizeof(T));
    return arg;
  }
  /// A __local pointer argument with `bytes` of local memory.
  static KernelArg localMemory(size_t bytes) {
    return KernelArg(Kind::LocalMemory, bytes);
  }

  enum class Kind : uint8_t { Buffer, Scalar, LocalMemory };
  Kind kind() const { return type; }
  /// The argument size as clSetKernelArg takes it (the local memory size
  /// for Kind::LocalMemory).
  size_t size() const { return bytes; }
  /// The pointer clSetKernelArg takes (null for Kind::LocalMemory).
  const void *data() const {
    switch (type) {
    case Kind::Buffer:
      return &memory;
    case Kind::Scalar:
      return value.data();
    case Kind::LocalMemory:
      break;
    }
    return nullptr;
  }

private:
  using Scalar = std::array<unsigned char, 8>;
  KernelArg(Kind type, size_t bytes) : type(type), bytes(bytes) {}

  Kind type;
  size_t bytes;
  cl_mem memory = nullptr;
  Scalar value = {};
};

/// A global or local size of 1 to 3 dimensions.
class NDRange {
public:
  NDRange(size_t x) : rank(1), sizes{x, 1, 1} {}
  NDRange(size_t x, size_t y) : rank(2), sizes{x, y, 1} {}
  NDRange(size_t x, size_t y, size_t z) : rank(3), sizes{x, y, z} {}

  unsigned dims() const { return rank; }
  size_t operator[](unsigned dim) const { return sizes[dim]; }
  const size_t *data() const { return sizes.data(); }
  /// The product of the sizes.
  uint64_t count() const;
  /// "64", "64x4".
  std::string str() const;

private:
  unsigned rank;
  std::array<size_t, 3> sizes;
};

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

/// An opened device: a context and an in-order command queue with profiling
/// enabled, and the cache of programs built on it.
class Device {
public:
  /// Opens the device of `descriptor`, which keeps `descriptor.profile`
  /// (possibly overridden) as the profile that launches are checked
  /// against. Without `optimizeCode`, programs are to be built with the
  /// driver's optimizations off (getBundleBuildOptions asks optimizesCode).
  static Expected<std::unique_ptr<Device>>
  open(const DeviceDescriptor &descriptor, bool optimizeCode = true);

  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const DeviceProfile &profile() const { return deviceProfile; }
  cl_device_id deviceHandle() const { return device; }
  cl_context context() const { return contextHandle.get(); }
  cl_command_queue queue() const { return queueHandle.get(); }
  bool optimizesCode() const { return optimizeCode; }

  /// A read-write buffer of `bytes` (zero is allowed). Larger than the
  /// profile's largest allocation or global memory is an error found before
  /// asking the driver.
  Expected<Buffer> allocate(size_t bytes, std::string name);

  /// Copies `bytes` from host `data` into `buffer` at `offset` and waits.
  Status write(const Buffer &buffer, const void *data, size_t bytes,
               size_t offset = 0);
  /// Enqueues the copy; `data` must stay valid until the event completes.
  Expected<Event> writeAsync(const Buffer &buffer, const void *data,
                             size_t bytes, size_t offset = 0);
  /// Copies `bytes` of `buffer` at `offset` to host `data` and waits.
  Status read(const Buffer &buffer, void *data, size_t bytes,
              size_t offset = 0);
  /// Enqueues the copy; `data` is written once the event completes.
  Expected<Event> readAsync(const Buffer &buffer, void *data, size_t bytes,
                            size_t offset = 0);

  /// Builds OpenCL C `source` with `options` (clBuildProgram's), or returns
  /// the program built earlier from the same source and options. `name`
  /// identifies the program in messages; a failed build's error holds the
  /// compiler's log. Failed builds are not cached.
  Expected<std::shared_ptr<const Program>>
  buildProgram(std::string_view source, std::string_view options,
               std::string_view name);
  /// Programs in the cache.
  size_t cachedProgramCount() const { return programCache.size(); }

  /// The driver's binary of `program` for this device
  /// (CL_PROGRAM_BINARIES): what buildProgramFromBinary takes back, in this
  /// or a later process, to skip the driver's compiler (the JIT's disk
  /// cache stores it).
  Expected<std::vector<unsigned char>>
  programBinary(const Program &program) const;
  /// Creates a program from `binary`, which programBinary gave for the
  /// build of `source` with `options` on a device of the same driver, and
  /// builds it; caches it as buildProgram(source, options) would, so that
  /// later buildProgram calls of that pair return it. A binary the driver
  /// rejects (another device, a corrupt one) is an error, and nothing is
  /// cached: the caller builds from source then.
  Expected<std::shared_ptr<const Program>>
  buildProgramFromBinary(std::string_view source, std::string_view options,
                         const std::vector<unsigned char> &binary,
                         std::string_view name);

  /// The kernel `entry` of `program`; a missing entry's error lists the
  /// kernels the program has.
  Expected<Kernel> createKernel(std::shared_ptr<const Program> program,
                                std::string_view entry);

  /// Sets the arguments of `kernel` and enqueues it over `global` work-items
  /// in work-groups of `local` (the driver picks when absent). The argument
  /// count and the work-group against the profile and the kernel's limits
  /// are checked first.
  Expected<Event> launch(Kernel &kernel, const std::vector<KernelArg> &args,
                         const NDRange &global,
                         const std::optional<NDRange> &local = std::nullopt);
  /// launch() without an event: for launches whose time nobody reads. A
  /// failure while it runs shows at finish() or a later transfer, without
  /// the kernel's name.
  Status enqueue(Kernel &kernel, const std::vector<KernelArg> &args,
                 const NDRange &global,
                 const std::optional<NDRange> &local = std::nullopt);

  /// Waits for every enqueued command.
  Status finish();

private:
  /// What launch() and enqueue() do, `event` (null for none) receiving the
  /// launch's event.
  Status enqueueKernel(Kernel &kernel, const std::vector<KernelArg> &args,
                       const NDRange &global,
                       const std::optional<NDRange> &local, cl_event *event);
  /// "running kernel 'k' (global size G, local size L) on device 'D'".
  std::string describeLaunch(const Kernel &kernel, const NDRange &global,
                             const std::optional<NDRange> &local) const;

  Device(cl_device_id device, Handle<cl_context> context,
         Handle<cl_command_queue> queue, DeviceProfile profile,
         bool optimizeCode)
      : device(device), contextHandle(std::move(context)),
        queueHandle(std::move(queue)), deviceProfile(std::move(profile)),
        optimizeCode(optimizeCode) {}

  /// Checks that `bytes` at `offset` lie inside `buffer`, then enqueues
  /// the copy that `enqueue(event)` makes (a marker when `bytes` is 0, which
  /// OpenCL's copies reject).
  template <class Enqueue>
  Expected<Event> enqueueTransfer(const Buffer &buffer, size_t bytes,
                                  size_t offset, std::string description,
                                  Enqueue enqueue);

  cl_device_id device;
  Handle<cl_context> contextHandle;
  Handle<cl_command_queue> queueHandle;
  DeviceProfile deviceProfile;
  bool optimizeCode;
  /// Hashed on the build options, a NUL (which options cannot hold) and the
  /// source; the key is the exact pair, so distinct programs never collide.
  std::unordered_map<std::string, std::shared_ptr<const Program>> programCache;
};

} // namespace tilec::opencl

#endif // TILEC_RUNTIME_LIB_OPENCL_OPENCL_H
