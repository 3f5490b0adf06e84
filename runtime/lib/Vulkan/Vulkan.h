//===- Vulkan.h - Running compute shaders through Vulkan --------*- C++ -*-===//
//
// A small, explicit layer over Vulkan compute (through the loader,
// libvulkan): enumerate the physical devices with a DeviceProfile read from
// their limits and pick one, then, on an opened Device, allocate Buffers
// (device-local, or host-visible for staging), move data through staging
// buffers, create compute Pipelines from a SPIR-V module (through a pipeline
// cache), record commands and submit them, waiting on a fence.
//
// Validation: with TILEC_VULKAN_VALIDATION=1 in the environment, the
// instance enables VK_LAYER_KHRONOS_validation and a debug-utils messenger
// that records every warning and error; Device::submit and the creation of
// pipelines fail with those messages, so a run that provokes one is a
// failure.
//
// Every object owns its Vulkan handles and destroys them when destroyed;
// objects are movable, not copyable, and must not outlive the Device that
// made them. Nothing here throws or aborts: failures come back as Error
// values whose message says what was being done and, for driver failures,
// the VkResult's name ("VK_ERROR_OUT_OF_DEVICE_MEMORY"), with the VkResult
// as the driver code. A Device is not thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_VULKAN_VULKAN_H
#define TILEC_RUNTIME_LIB_VULKAN_VULKAN_H

#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Status.h"

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec::vulkan {

/// The name of a VkResult ("VK_ERROR_OUT_OF_DEVICE_MEMORY"), or
/// "VK_UNKNOWN_RESULT".
const char *resultName(VkResult result);

/// The environment variable that turns validation on ("1").
inline constexpr const char *kValidationVariable = "TILEC_VULKAN_VALIDATION";

/// The environment variable ("1") that makes every pipeline print the
/// driver's statistics of its code to stderr, where the device reports them
/// (VK_KHR_pipeline_executable_properties): one line per executable.
inline constexpr const char *kPipelineStatisticsVariable =
    "TILEC_VULKAN_PIPELINE_STATISTICS";

//===----------------------------------------------------------------------===//
// The instance and its devices
//===----------------------------------------------------------------------===//

/// A VkInstance, with the validation layer and its messenger when asked
/// for. Shared by the descriptors and devices made from it.
class Instance {
public:
  /// Creates an instance, validated when `validation` is set. A loader
  /// without any driver is not an error: the result is then null.
  static Expected<std::shared_ptr<Instance>> create(bool validation);
  /// Whether the environment asks for validation (kValidationVariable).
  static bool validationRequested();

  ~Instance();
  Instance(const Instance &) = delete;
  Instance &operator=(const Instance &) = delete;

  VkInstance handle() const { return instance; }
  bool validated() const { return messenger != VK_NULL_HANDLE; }

  /// The validation messages recorded since the last call, oldest first.
  std::vector<std::string> takeValidationMessages();
  /// Records a validation message (the messenger's callback).
  void recordValidationMessage(std::string message);

private:
  explicit Instance(VkInstance instance) : instance(instance) {}

  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  std::mutex messagesLock;
  std::vector<std::string> messages;
};

/// The optional device features that SPIR-V from tilec may need. Opening a
/// device enables every one it has. (The shaderSignedZeroInfNanPreserve and
/// shaderDenormPreserve ones are properties, which need no enabling.)
struct Features {
  bool shaderFloat64 = false;
  bool shaderInt64 = false;
  bool shaderInt16 = false;
  bool shaderInt8 = false;
  bool shaderFloat16 = false;
  bool storageBuffer16BitAccess = false;
  bool storageBuffer8BitAccess = false;
  bool vulkanMemoryModel = false;
  /// Enabled with vulkanMemoryModel: a device that enables that feature
  /// without this one may not run the Device-scope atomics and fences of
  /// a reduction whose last work-group combines (VUID 06265).
  bool vulkanMemoryModelDeviceScope = false;
  /// VK_KHR_pipeline_executable_properties with its pipelineExecutableInfo:
  /// the driver can report statistics of the code it built (registers).
  bool pipelineExecutableInfo = false;
  /// shaderSignedZeroInfNanPreserveFloat16/32/64 and
  /// shaderDenormPreserveFloat16/32/64.
  FloatWidths signedZeroInfNanPreserve;
  FloatWidths denormPreserve;
};

/// One physical device as the loader reports it.
struct DeviceDescriptor {
  /// Position among the loader's devices: what `--device N` selects.
  unsigned index = 0;
  std::shared_ptr<Instance> instance;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  /// Discrete, integrated or virtual GPU, CPU: what the default choice
  /// looks at.
  VkPhysicalDeviceType deviceType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  /// "1.3.230".
  std::string apiVersion;
  /// The newest SPIR-V version its shader modules may have, in the SPIR-V
  /// header's encoding (0x00010500 for 1.5): what the Vulkan version that
  /// tilec uses on it (the device's, at most 1.2) accepts.
  uint32_t spirvVersion = 0x00010000;
  /// The first queue family with compute; unset when there is none, which
  /// Device::open reports.
  std::optional<uint32_t> computeQueueFamily;
  Features features;
  /// The largest group count of a dispatch, per dimension.
  std::array<uint32_t, 3> maxGroupCount = {1, 1, 1};
  /// Nanoseconds per timestamp tick; 0 when the compute queue has no
  /// timestamps (launch times are then reported as 0).
  double timestampPeriodNs = 0;
  uint32_t timestampValidBits = 0;
  /// Read from the driver; a caller may override it (applyProfileFile)
  /// before opening the device.
  DeviceProfile profile;
};

/// Every physical device, with validation when the environment asks for
/// it. No Vulkan driver at all is an empty list, not an error.
Expected<std::vector<DeviceDescriptor>> enumerateDevices();

/// Picks a device: "" picks the default (the first discrete or integrated
/// GPU, else the first CPU, else the first device); a decimal number picks
/// by index; anything else picks the first device whose name contains it,
/// ignoring case. When none matches, the error lists the devices.
Expected<DeviceDescriptor>
selectDevice(const std::vector<DeviceDescriptor> &devices,
             std::string_view selector);

/// The devices with their API versions and profile summaries, the default
/// marked; for `tilec devices`.
std::string formatDeviceList(const std::vector<DeviceDescriptor> &devices);

//===----------------------------------------------------------------------===//
// Owned handles
//===----------------------------------------------------------------------===//

namespace detail {
void destroy(VkDevice device, VkBuffer object);
void destroy(VkDevice device, VkDeviceMemory object);
void destroy(VkDevice device, VkShaderModule object);
void destroy(VkDevice device, VkDescriptorSetLayout object);
void destroy(VkDevice device, VkPipelineLayout object);
void destroy(VkDevice device, VkPipeline object);
void destroy(VkDevice device, VkDescriptorPool object);
void destroy(VkDevice device, VkQueryPool object);
} // namespace detail

/// Owns one object of a VkDevice and destroys it on destruction.
template <class T> class Owned {
public:
  Owned() = default;
  Owned(VkDevice device, T object) : device(device), object(object) {}
  Owned(Owned &&other) noexcept
      : device(other.device), object(std::exchange(other.object, {})) {}
  Owned &operator=(Owned &&other) noexcept {
    if (this != &other) {
      reset();
      device = other.device;
      object = std::exchange(other.object, {});
    }
    return *this;
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  ~Owned() { reset(); }

  T get() const { return object; }

private:
  void reset() {
    if (object != VK_NULL_HANDLE)
      detail::destroy(device, object);
    object = {};
  }

  VkDevice device = VK_NULL_HANDLE;
  T object = {};
};

//===----------------------------------------------------------------------===//
// Objects created on a device
//===----------------------------------------------------------------------===//

/// A VkBuffer bound to memory of its own.
class Buffer {
public:
  enum class Memory : uint8_t {
    /// Device-local storage buffer: kernel arguments.
    DeviceLocal,
    /// Host-visible, coherent and mapped: staging for transfers.
    Staging,
  };

  /// The buffer's bytes as the caller asked for them (an empty tensor's
  /// buffer has size 0, while Vulkan gets a few bytes).
  uint64_t size() const { return bytes; }
  /// The bytes Vulkan holds: size() rounded up to a whole, non-zero
  /// number of 32-bit words (what fills and bindings cover).
  uint64_t allocatedSize() const { return allocated; }
  const std::string &name() const { return label; }
  VkBuffer handle() const { return buffer.get(); }
  /// The host address of a Staging buffer's bytes; null otherwise.
  unsigned char *mapped() const { return hostData; }

private:
  friend class Device;
  Buffer(Owned<VkBuffer> buffer, Owned<VkDeviceMemory> memory, uint64_t bytes,
         uint64_t allocated, std::string name, unsigned char *hostData)
      : memory(std::move(memory)), buffer(std::move(buffer)), bytes(bytes),
        allocated(allocated), label(std::move(name)), hostData(hostData) {}

  /// Declared first so that the buffer is destroyed before its memory.
  Owned<VkDeviceMemory> memory;
  Owned<VkBuffer> buffer;
  uint64_t bytes;
  uint64_t allocated;
  std::string label;
  unsigned char *hostData;
};

/// What tilec needs to know of a SPIR-V module before handing it to the
/// driver, read from its instructions.
struct SpirvEntryPoint {
  std::string name;
  /// The LocalSize execution mode; unset when the module has none.
  std::optional<std::array<uint32_t, 3>> localSize;
  /// The optional features (Features' field names) that this entry point
  /// needs: those of the module's capabilities that concern a type its
  /// code uses (a kernel without f64 code does not need shaderFloat64).
  std::vector<std::string> features;
};

/// A shader module with the entry points found in it.
class ShaderModule {
public:
  VkShaderModule handle() const { return module.get(); }
  const std::string &name() const { return label; }
  const std::vector<SpirvEntryPoint> &entryPoints() const { return entries; }
  /// The entry point `name`, or null.
  const SpirvEntryPoint *findEntryPoint(std::string_view name) const;

private:
  friend class Device;
  ShaderModule(Owned<VkShaderModule> module, std::string name,
               std::vector<SpirvEntryPoint> entries)
      : module(std::move(module)), label(std::move(name)),
        entries(std::move(entries)) {}

  Owned<VkShaderModule> module;
  std::string label;
  std::vector<SpirvEntryPoint> entries;
};

/// Reads the entry points, their work-group sizes and the features each
/// needs from a SPIR-V binary (`name` for messages). A binary that is not
/// SPIR-V (the magic number, a truncated instruction) is an error.
Expected<std::vector<SpirvEntryPoint>>
inspectSpirv(const std::vector<uint32_t> &words, std::string_view name);

/// A compute pipeline for one entry point whose arguments are `numBuffers`
/// storage buffers at descriptor set 0, bindings 0 to numBuffers - 1.
class ComputePipeline {
public:
  const std::string &entryPoint() const { return entry; }
  uint32_t numBuffers() const { return buffers; }
  /// The work-group size fixed in the module.
  const std::array<uint32_t, 3> &localSize() const { return groupSize; }
  VkDescriptorSetLayout setLayout() const { return layout.get(); }
  VkPipelineLayout pipelineLayout() const { return pipelineLayoutHandle.get(); }
  VkPipeline handle() const { return pipeline.get(); }

private:
  friend class Device;
  ComputePipeline(Owned<VkDescriptorSetLayout> layout,
                  Owned<VkPipelineLayout> pipelineLayout,
                  Owned<VkPipeline> pipeline, std::string entry,
                  uint32_t buffers, std::array<uint32_t, 3> groupSize)
      : layout(std::move(layout)),
        pipelineLayoutHandle(std::move(pipelineLayout)),
        pipeline(std::move(pipeline)), entry(std::move(entry)),
        buffers(buffers), groupSize(groupSize) {}

  Owned<VkDescriptorSetLayout> layout;
  Owned<VkPipelineLayout> pipelineLayoutHandle;
  Owned<VkPipeline> pipeline;
  std::string entry;
  uint32_t buffers;
  std::array<uint32_t, 3> groupSize;
};

/// Descriptor sets of storage buffers, one per use (a launch), allocated
/// together from a pool of their own.
class DescriptorSets {
public:
  VkDescriptorSet operator[](size_t index) const { return sets[index]; }
  size_t size() const { return sets.size(); }

private:
  friend class Device;
  DescriptorSets(Owned<VkDescriptorPool> pool,
                 std::vector<VkDescriptorSet> sets)
      : pool(std::move(pool)), sets(std::move(sets)) {}

  Owned<VkDescriptorPool> pool;
  std::vector<VkDescriptorSet> sets;
};

/// A pool of timestamp queries.
class TimestampQueries {
public:
  VkQueryPool handle() const { return pool.get(); }
  uint32_t count() const { return queries; }

private:
  friend class Device;
  TimestampQueries(Owned<VkQueryPool> pool, uint32_t queries)
      : pool(std::move(pool)), queries(queries) {}

  Owned<VkQueryPool> pool;
  uint32_t queries;
};

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

/// An opened device: a VkDevice with the optional features it has enabled,
/// one compute queue, a command pool, a fence and a pipeline cache.
class Device {
public:
  /// Opens the device of `descriptor`, which keeps `descriptor.profile`
  /// (possibly overridden) as the profile that allocations and launches are
  /// checked against. A device without a compute queue is an error.
  /// Without `optimizeCode`, pipelines are created with the driver's
  /// optimizations off (VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT).
  static Expected<std::unique_ptr<Device>>
  open(const DeviceDescriptor &descriptor, bool optimizeCode = true);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const DeviceDescriptor &descriptor() const { return physical; }
  const DeviceProfile &profile() const { return physical.profile; }
  VkDevice handle() const { return device; }

  /// A buffer of `bytes` (zero is allowed). For Memory::DeviceLocal, larger
  /// than the profile's largest allocation or global memory is an error
  /// found before asking the driver.
  Expected<Buffer>
  allocate(uint64_t bytes, std::string name,
           Buffer::Memory memory = Buffer::Memory::DeviceLocal);

  /// Copies `bytes` from host `data` into `buffer` at `offset` through a
  /// staging buffer, and waits.
  Status write(const Buffer &buffer, const void *data, uint64_t bytes,
               uint64_t offset = 0);
  /// Copies `bytes` of `buffer` at `offset` to host `data` through a
  /// staging buffer, and waits.
  Status read(const Buffer &buffer, void *data, uint64_t bytes,
              uint64_t offset = 0);

  /// Checks the SPIR-V `words` (inspectSpirv) and creates a module of them.
  Expected<std::shared_ptr<const ShaderModule>>
  createShaderModule(const std::vector<uint32_t> &words, std::string name);
  /// A pipeline for `entry` of `module` taking `numBuffers` storage
  /// buffers. A missing entry point (the error lists the module's), one
  /// without a fixed work-group size, or one that needs a feature the
  /// device lacks (or that its profile denies: supports_fp64/fp16) is an
  /// error found before asking the driver.
  Expected<ComputePipeline> createPipeline(const ShaderModule &module,
                                           std::string_view entry,
                                           uint32_t numBuffers);
  /// The pipeline cache's size in bytes (it grows with each new pipeline).
  Expected<size_t> pipelineCacheSize() const;

  /// One descriptor set for each of `uses`, in its pipeline's layout, from
  /// a new pool.
  Expected<DescriptorSets>
  allocateDescriptorSets(const std::vector<const ComputePipeline *> &uses);
  /// Points binding i of `set` at the whole of `buffers[i]`.
  void bindBuffers(VkDescriptorSet set,
                   const std::vector<const Buffer *> &buffers);

  /// A pool of `count` timestamp queries.
  Expected<TimestampQueries> createTimestampQueries(uint32_t count);
  /// The nanoseconds between timestamp queries `first` and `first + 1` of
  /// each pair from `first` on; 0 for a pair that was not written.
  Expected<std::vector<uint64_t>>
  readTimestampPairs(const TimestampQueries &queries);

  /// Records commands into a command buffer with `record`, submits it to
  /// the compute queue and waits for it; `what` says what the commands do,
  /// for messages. Validation messages recorded meanwhile fail it.
  Status submit(const std::function<void(VkCommandBuffer)> &record,
                std::string_view what);

  /// Fails with the validation messages recorded since the last check, if
  /// any; `what` says what was done.
  Status checkValidation(std::string_view what);

  /// Under validation, names `object` (of `type`) in the layer's messages
  /// (a kernel's description for its pipeline, say); otherwise nothing.
  void nameObject(VkObjectType type, uint64_t object, const std::string &name);

private:
  Device(DeviceDescriptor descriptor, VkDevice device)
      : physical(std::move(descriptor)), device(device) {}

  /// Copies `bytes` between `buffer` at `offset` and the host, through a
  /// staging buffer of their own: from `source` if `toDevice`, else to
  /// `destination`.
  Status transfer(const Buffer &buffer, uint64_t bytes, uint64_t offset,
                  bool toDevice, const void *source, void *destination);

  DeviceDescriptor physical;
  VkDevice device;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  /// Of commandPool: what every submission records into.
  VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkPipelineCache pipelineCache = VK_NULL_HANDLE;
  bool optimizeCode = true;
  /// Whether pipelines print the driver's statistics of their code
  /// (kPipelineStatisticsVariable, on a device that reports them).
  bool printsPipelineStatistics = false;
  VkPhysicalDeviceMemoryProperties memoryProperties = {};
  /// The staging buffer of the last write or read, kept for the next one
  /// when it holds at most kKeptStagingBytes.
  std::optional<Buffer> transferStaging;
  static constexpr uint64_t kKeptStagingBytes = 64 << 20;
};

/// A barrier making the writes of `srcStage` through `srcAccess` visible to
/// `dstAccess` in `dstStage`, recorded into `commands`.
void recordMemoryBarrier(VkCommandBuffer commands,
                         VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                         VkPipelineStageFlags dstStage,
                         VkAccessFlags dstAccess);

} // namespace tilec::vulkan

#endif // TILEC_RUNTIME_LIB_VULKAN_VULKAN_H
