//===- Device.cpp - Logical devices, buffers, transfers and submissions ---===//

#include "Failure.h"
#include "Structure.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

using namespace tilec;
using namespace tilec::vulkan;

void detail::destroy(VkDevice device, VkBuffer object) {
  vkDestroyBuffer(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkDeviceMemory object) {
  vkFreeMemory(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkShaderModule object) {
  vkDestroyShaderModule(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkDescriptorSetLayout object) {
  vkDestroyDescriptorSetLayout(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkPipelineLayout object) {
  vkDestroyPipelineLayout(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkPipeline object) {
  vkDestroyPipeline(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkDescriptorPool object) {
  vkDestroyDescriptorPool(device, object, nullptr);
}
void detail::destroy(VkDevice device, VkQueryPool object) {
  vkDestroyQueryPool(device, object, nullptr);
}

Expected<std::unique_ptr<Device>>
Device::open(const DeviceDescriptor &descriptor, bool optimizeCode) {
  std::string deviceName = quoted(descriptor.profile.name);
  if (!descriptor.computeQueueFamily)
    return Error("Vulkan device " + deviceName +
                 " has no queue family with compute");

  float priority = 1;
  auto queueInfo = makeStructure<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = *descriptor.computeQueueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;

  // Every optional feature the device has: the SPIR-V of a bundle declares
  // what it uses, and createPipeline checks that against these.
  const Features &has = descriptor.features;
  auto features = makeStructure<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  features.features.shaderFloat64 = has.shaderFloat64;
  features.features.shaderInt64 = has.shaderInt64;
  features.features.shaderInt16 = has.shaderInt16;
  auto storage16 = makeStructure<VkPhysicalDevice16BitStorageFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  storage16.storageBuffer16BitAccess = has.storageBuffer16BitAccess;
  auto vulkan12 = makeStructure<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  vulkan12.shaderInt8 = has.shaderInt8;
  vulkan12.shaderFloat16 = has.shaderFloat16;
  vulkan12.storageBuffer8BitAccess = has.storageBuffer8BitAccess;
  vulkan12.vulkanMemoryModel = has.vulkanMemoryModel;
  vulkan12.vulkanMemoryModelDeviceScope =
      has.vulkanMemoryModel && has.vulkanMemoryModelDeviceScope;
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(descriptor.physicalDevice, &properties);
  if (properties.apiVersion >= VK_API_VERSION_1_1)
    features.pNext = &storage16;
  if (properties.apiVersion >= VK_API_VERSION_1_2)
    storage16.pNext = &vulkan12;

  // The driver's statistics of each pipeline's code, when asked for.
  const char *statisticsValue = std::getenv(kPipelineStatisticsVariable);
  bool printsStatistics = has.pipelineExecutableInfo && statisticsValue &&
                          std::string_view(statisticsValue) == "1";
  auto executableInfo = makeStructure<
      VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  executableInfo.pipelineExecutableInfo = VK_TRUE;
  const char *executableExtension =
      VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  if (printsStatistics) {
    executableInfo.pNext = features.pNext;
    features.pNext = &executableInfo;
  }

  auto info =
      makeStructure<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &features;
  if (printsStatistics) {
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &executableExtension;
  }
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  VkDevice handle = VK_NULL_HANDLE;
  VkResult result =
      vkCreateDevice(descriptor.physicalDevice, &info, nullptr, &handle);
  if (result != VK_SUCCESS)
    return driverFailure(result, "opening Vulkan device " + deviceName);
  std::unique_ptr<Device> device(new Device(descriptor, handle));
  device->optimizeCode = optimizeCode;
  device->printsPipelineStatistics = printsStatistics;
  vkGetDeviceQueue(handle, *descriptor.computeQueueFamily, 0, &device->queue);
  vkGetPhysicalDeviceMemoryProperties(descriptor.physicalDevice,
                                      &device->memoryProperties);

  auto poolInfo = makeStructure<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  poolInfo.queueFamilyIndex = *descriptor.computeQueueFamily;
  result =
      vkCreateCommandPool(handle, &poolInfo, nullptr, &device->commandPool);
  if (result != VK_SUCCESS)
    return driverFailure(result, "creating a command pool on " + deviceName);
  // One command buffer for every submission: each is waited for, so the
  // next finds it idle and resets the pool instead of allocating.
  auto commandsInfo = makeStructure<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  commandsInfo.commandPool = device->commandPool;
  commandsInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandsInfo.commandBufferCount = 1;
  result =
      vkAllocateCommandBuffers(handle, &commandsInfo, &device->commandBuffer);
  if (result != VK_SUCCESS)
    return driverFailure(result,
                         "allocating a command buffer on " + deviceName);
  auto fenceInfo =
      makeStructure<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  result = vkCreateFence(handle, &fenceInfo, nullptr, &device->fence);
  if (result != VK_SUCCESS)
    return driverFailure(result, "creating a fence on " + deviceName);
  auto cacheInfo = makeStructure<VkPipelineCacheCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  result = vkCreatePipelineCache(handle, &cacheInfo, nullptr,
                                 &device->pipelineCache);
  if (result != VK_SUCCESS)
    return driverFailure(result, "creating a pipeline cache on " + deviceName);
  if (Status status = device->checkValidation("opening the device"); !status)
    return status.error();
  return device;
}

Device::~Device() {
  vkDeviceWaitIdle(device);
  transferStaging.reset();
  if (pipelineCache != VK_NULL_HANDLE)
    vkDestroyPipelineCache(device, pipelineCache, nullptr);
  if (fence != VK_NULL_HANDLE)
    vkDestroyFence(device, fence, nullptr);
  if (commandPool != VK_NULL_HANDLE)
    vkDestroyCommandPool(device, commandPool, nullptr);
  vkDestroyDevice(device, nullptr);
}

Status Device::checkValidation(std::string_view what) {
  if (!physical.instance)
    return Status::success();
  std::vector<std::string> messages =
      physical.instance->takeValidationMessages();
  if (messages.empty())
    return Status::success();
  std::string text = "the Vulkan validation layer reported " +
                     std::to_string(messages.size()) + " problem" +
                     (messages.size() == 1 ? "" : "s") + " while " +
                     std::string(what) + " on device " +
                     quoted(physical.profile.name) + ":";
  for (const std::string &message : messages)
    text += "\n  " + message;
  return Error(text);
}

void Device::nameObject(VkObjectType type, uint64_t object,
                        const std::string &name) {
  if (!physical.instance || !physical.instance->validated())
    return;
  auto setName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
      vkGetDeviceProcAddr(device, "vkSetDebugUtilsObjectNameEXT"));
  if (!setName)
    return;
  auto info = makeStructure<VkDebugUtilsObjectNameInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT);
  info.objectType = type;
  info.objectHandle = object;
  info.pObjectName = name.c_str();
  setName(device, &info);
}

/// A memory type among `typeBits` with the `required` properties, one with
/// `preferred` as well if there is one.
static std::optional<uint32_t>
findMemoryType(const VkPhysicalDeviceMemoryProperties &memory,
               uint32_t typeBits, VkMemoryPropertyFlags required,
               VkMemoryPropertyFlags preferred) {
  std::optional<uint32_t> fallback;
  for (uint32_t type = 0; type < memory.memoryTypeCount; ++type) {
    if (!(typeBits & (1u << type)))
      continue;
    VkMemoryPropertyFlags flags = memory.memoryTypes[type].propertyFlags;
    if ((flags & required) != required)
      continue;
    if ((flags & preferred) == preferred)
      return type;
    if (!fallback)
      fallback = type;
  }
  return fallback;
}

Expected<Buffer> Device::allocate(uint64_t bytes, std::string name,
                                  Buffer::Memory memory) {
  bool staging = memory == Buffer::Memory::Staging;
  std::string what = std::string("allocating ") +
                     (staging ? "staging buffer " : "buffer ") + quoted(name) +
                     " of " + std::to_string(bytes) + " bytes on device " +
                     quoted(physical.profile.name);
  const DeviceProfile &profile = physical.profile;
  if (!staging && bytes > profile.maxAllocBytes)
    return Error(what + ": larger than the device's largest allocation, " +
                 std::to_string(profile.maxAllocBytes) +
                 " bytes (max_alloc_bytes of its profile)");
  if (!staging && bytes > profile.globalMemBytes)
    return Error(what + ": larger than the device's global memory, " +
                 std::to_string(profile.globalMemBytes) +
                 " bytes (global_mem_bytes of its profile)");
  // Vulkan has no empty buffers, and fills cover whole 32-bit words.
  uint64_t allocated = std::max<uint64_t>(4, (bytes + 3) / 4 * 4);

  auto info =
      makeStructure<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = allocated;
  info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               (staging ? 0 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer rawBuffer = VK_NULL_HANDLE;
  VkResult result = vkCreateBuffer(device, &info, nullptr, &rawBuffer);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  Owned<VkBuffer> buffer(device, rawBuffer);

  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, rawBuffer, &requirements);
  VkMemoryPropertyFlags required =
      staging ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
              : 0;
  VkMemoryPropertyFlags preferred = staging
                                        ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                        : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  std::optional<uint32_t> type = findMemoryType(
      memoryProperties, requirements.memoryTypeBits, required, preferred);
  if (!type)
    return Error(what + ": the device has no suitable memory type");
  auto allocation = makeStructure<VkMemoryAllocateInfo>(
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = *type;
  VkDeviceMemory rawMemory = VK_NULL_HANDLE;
  result = vkAllocateMemory(device, &allocation, nullptr, &rawMemory);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  Owned<VkDeviceMemory> deviceMemory(device, rawMemory);
  result = vkBindBufferMemory(device, rawBuffer, rawMemory, 0);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  void *hostData = nullptr;
  if (staging) {
    result = vkMapMemory(device, rawMemory, 0, VK_WHOLE_SIZE, 0, &hostData);
    if (result != VK_SUCCESS)
      return driverFailure(result, what);
  }
  return Buffer(std::move(buffer), std::move(deviceMemory), bytes, allocated,
                std::move(name), static_cast<unsigned char *>(hostData));
}

void vulkan::recordMemoryBarrier(VkCommandBuffer commands,
                                 VkPipelineStageFlags srcStage,
                                 VkAccessFlags srcAccess,
                                 VkPipelineStageFlags dstStage,
                                 VkAccessFlags dstAccess) {
  auto barrier =
      makeStructure<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  vkCmdPipelineBarrier(commands, srcStage, dstStage, 0, 1, &barrier, 0, nullptr,
                       0, nullptr);
}

Status Device::transfer(const Buffer &buffer, uint64_t bytes, uint64_t offset,
                        bool toDevice, const void *source, void *destination) {
  std::string what =
      std::string(toDevice ? "writing " : "reading ") + std::to_string(bytes) +
      " bytes " + (toDevice ? "to" : "from") + " buffer " +
      quoted(buffer.name()) + " at offset " + std::to_string(offset);
  if (offset > buffer.size() || bytes > buffer.size() - offset)
    return Error(what + ": outside the buffer, which holds " +
                 std::to_string(buffer.size()) + " bytes");
  if (bytes == 0)
    return Status::success();
  // The last staging buffer is reused when it is large enough: reading a
  // training step's loss every step then allocates nothing.
  std::optional<Buffer> fresh;
  if (!transferStaging || transferStaging->size() < bytes) {
    Expected<Buffer> allocated =
        allocate(bytes, buffer.name(), Buffer::Memory::Staging);
    if (!allocated)
      return Error(what + ": " + allocated.error().message(),
                   allocated.error().driverCode());
    fresh = std::move(*allocated);
  }
  const Buffer *staging = fresh ? &*fresh : &*transferStaging;
  if (toDevice)
    std::memcpy(staging->mapped(), source, bytes);
  VkBufferCopy region = {toDevice ? 0 : offset, toDevice ? offset : 0, bytes};
  Status status = submit(
      [&](VkCommandBuffer commands) {
        if (toDevice) {
          vkCmdCopyBuffer(commands, staging->handle(), buffer.handle(), 1,
                          &region);
          return;
        }
        vkCmdCopyBuffer(commands, buffer.handle(), staging->handle(), 1,
                        &region);
        recordMemoryBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_ACCESS_TRANSFER_WRITE_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT,
                            VK_ACCESS_HOST_READ_BIT);
      },
      what);
  if (!status)
    return status;
  if (!toDevice)
    std::memcpy(destination, staging->mapped(), bytes);
  // Kept for the next transfer, unless too large to hold on to.
  if (fresh && bytes <= kKeptStagingBytes)
    transferStaging = std::move(fresh);
  return Status::success();
}

Status Device::write(const Buffer &buffer, const void *data, uint64_t bytes,
                     uint64_t offset) {
  return transfer(buffer, bytes, offset, /*toDevice=*/true, data,
                  /*destination=*/nullptr);
}

Status Device::read(const Buffer &buffer, void *data, uint64_t bytes,
                    uint64_t offset) {
  return transfer(buffer, bytes, offset, /*toDevice=*/false,
                  /*source=*/nullptr, data);
}

Status Device::submit(const std::function<void(VkCommandBuffer)> &record,
                      std::string_view what) {
  auto description = [&] {
    return std::string(what) + " on device " + quoted(physical.profile.name);
  };
  // The previous submission has completed (each is waited for), so its
  // command buffer can be recorded afresh.
  VkResult result = vkResetCommandPool(device, commandPool, 0);
  if (result != VK_SUCCESS)
    return driverFailure(result, description());
  VkCommandBuffer commands = commandBuffer;
  auto begin = makeStructure<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  result = vkBeginCommandBuffer(commands, &begin);
  if (result != VK_SUCCESS)
    return driverFailure(result, description());
  record(commands);
  result = vkEndCommandBuffer(commands);
  if (result != VK_SUCCESS)
    return driverFailure(result, description());
  result = vkResetFences(device, 1, &fence);
  if (result != VK_SUCCESS)
    return driverFailure(result, description());
  auto submitInfo = makeStructure<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &commands;
  result = vkQueueSubmit(queue, 1, &submitInfo, fence);
  if (result != VK_SUCCESS)
    return driverFailure(result, description());
  result = vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX);
  if (result != VK_SUCCESS)
    return driverFailure(result, description());
  return checkValidation(what);
}

Expected<DescriptorSets> Device::allocateDescriptorSets(
    const std::vector<const ComputePipeline *> &uses) {
  if (uses.empty())
    return DescriptorSets(Owned<VkDescriptorPool>(), {});
  uint32_t bindings = 0;
  std::vector<VkDescriptorSetLayout> layouts;
  for (const ComputePipeline *pipeline : uses) {
    bindings += pipeline->numBuffers();
    layouts.push_back(pipeline->setLayout());
  }
  std::string what = "allocating " + std::to_string(uses.size()) +
                     " descriptor sets on device " +
                     quoted(physical.profile.name);
  VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                               std::max(1u, bindings)};
  auto poolInfo = makeStructure<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = static_cast<uint32_t>(uses.size());
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VkDescriptorPool rawPool = VK_NULL_HANDLE;
  VkResult result =
      vkCreateDescriptorPool(device, &poolInfo, nullptr, &rawPool);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  Owned<VkDescriptorPool> pool(device, rawPool);
  auto info = makeStructure<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  info.descriptorPool = rawPool;
  info.descriptorSetCount = static_cast<uint32_t>(layouts.size());
  info.pSetLayouts = layouts.data();
  std::vector<VkDescriptorSet> sets(layouts.size());
  result = vkAllocateDescriptorSets(device, &info, sets.data());
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  return DescriptorSets(std::move(pool), std::move(sets));
}

void Device::bindBuffers(VkDescriptorSet set,
                         const std::vector<const Buffer *> &buffers) {
  std::vector<VkDescriptorBufferInfo> infos;
  for (const Buffer *buffer : buffers)
    infos.push_back({buffer->handle(), 0, VK_WHOLE_SIZE});
  std::vector<VkWriteDescriptorSet> writes;
  for (uint32_t binding = 0; binding < infos.size(); ++binding) {
    auto write = makeStructure<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = set;
    write.dstBinding = binding;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos[binding];
    writes.push_back(write);
  }
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()),
                         writes.data(), 0, nullptr);
}

Expected<TimestampQueries> Device::createTimestampQueries(uint32_t count) {
  if (count == 0 || physical.timestampValidBits == 0)
    return TimestampQueries(Owned<VkQueryPool>(), 0);
  auto info = makeStructure<VkQueryPoolCreateInfo>(
      VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = count;
  VkQueryPool pool = VK_NULL_HANDLE;
  VkResult result = vkCreateQueryPool(device, &info, nullptr, &pool);
  if (result != VK_SUCCESS)
    return driverFailure(result, "creating " + std::to_string(count) +
                                     " timestamp queries on device " +
                                     quoted(physical.profile.name));
  return TimestampQueries(Owned<VkQueryPool>(device, pool), count);
}

Expected<std::vector<uint64_t>>
Device::readTimestampPairs(const TimestampQueries &queries) {
  std::vector<uint64_t> durations(queries.count() / 2, 0);
  if (queries.count() == 0)
    return durations;
  // (value, availability) per query: a query that no command wrote stays
  // unavailable, and its pair reads as 0.
  std::vector<uint64_t> results(2 * static_cast<size_t>(queries.count()));
  VkResult result = vkGetQueryPoolResults(
      device, queries.handle(), 0, queries.count(),
      results.size() * sizeof(uint64_t), results.data(), 2 * sizeof(uint64_t),
      VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  if (result != VK_SUCCESS && result != VK_NOT_READY)
    return driverFailure(result, "reading the timestamps on device " +
                                     quoted(physical.profile.name));
  uint64_t mask = physical.timestampValidBits >= 64
                      ? ~uint64_t(0)
                      : (uint64_t(1) << physical.timestampValidBits) - 1;
  for (size_t pair = 0; pair < durations.size(); ++pair) {
    const uint64_t *start = &results[4 * pair];
    const uint64_t *end = start + 2;
    if (start[1] && end[1])
      durations[pair] = static_cast<uint64_t>(
          static_cast<double>((end[0] - start[0]) & mask) *
          physical.timestampPeriodNs);
  }
  return durations;
}
