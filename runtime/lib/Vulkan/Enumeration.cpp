//===- Enumeration.cpp - Physical devices and their profiles --------------===//

#include "Failure.h"
#include "Structure.h"

#include "../DeviceSelector.h"

#include <algorithm>
#include <cstring>
#include <thread>

using namespace tilec;
using namespace tilec::vulkan;

static std::string formatVersion(uint32_t version) {
  return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
         std::to_string(VK_API_VERSION_MINOR(version)) + "." +
         std::to_string(VK_API_VERSION_PATCH(version));
}

/// The newest SPIR-V version that Vulkan `version` accepts (SPIR-V 1.0 in
/// Vulkan 1.0, 1.3 in 1.1, 1.5 in 1.2, 1.6 in 1.3), with the Vulkan version
/// capped at the instance's, 1.2.
static uint32_t spirvVersionOf(uint32_t version) {
  if (version >= VK_API_VERSION_1_2)
    return 0x00010500;
  if (version >= VK_API_VERSION_1_1)
    return 0x00010300;
  return 0x00010000;
}

/// The vendor's name from its PCI id (or Khronos vendor id).
static std::string vendorName(uint32_t vendorID) {
  switch (vendorID) {
  case 0x10DE:
    return "NVIDIA";
  case 0x1002:
    return "AMD";
  case 0x8086:
    return "Intel";
  case 0x13B5:
    return "ARM";
  case 0x5143:
    return "Qualcomm";
  case 0x106B:
    return "Apple";
  case VK_VENDOR_ID_MESA:
    return "Mesa";
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%04X", vendorID);
  return hex;
}

static bool hasExtension(VkPhysicalDevice device, const char *name) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) !=
      VK_SUCCESS)
    return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count,
                                           extensions.data()) != VK_SUCCESS)
    return false;
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties &extension) {
                       return std::strcmp(extension.extensionName, name) == 0;
                     });
}

/// Links `next` into the pNext chain that `chain` ends, and makes it the end.
template <class T> static void append(void **&chain, T &next) {
  *chain = &next;
  chain = &next.pNext;
}

/// Reads the optional features tilec's SPIR-V may use.
static Features queryFeatures(VkPhysicalDevice device, uint32_t apiVersion) {
  // The float controls are core in Vulkan 1.2 (VK_KHR_shader_float_controls
  // before), and tilec's SPIR-V 1.5 needs 1.2 anyway: an older device keeps
  // none.
  auto floatControls = makeStructure<VkPhysicalDeviceFloatControlsProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES);
  if (apiVersion >= VK_API_VERSION_1_2) {
    auto properties = makeStructure<VkPhysicalDeviceProperties2>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    properties.pNext = &floatControls;
    vkGetPhysicalDeviceProperties2(device, &properties);
  }

  auto features = makeStructure<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  auto storage16 = makeStructure<VkPhysicalDevice16BitStorageFeatures>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES);
  auto vulkan12 = makeStructure<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto executableInfo = makeStructure<
      VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  void **chain = &features.pNext;
  if (apiVersion >= VK_API_VERSION_1_1)
    append(chain, storage16);
  if (apiVersion >= VK_API_VERSION_1_2)
    append(chain, vulkan12);
  bool hasExecutableProperties = hasExtension(
      device, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (hasExecutableProperties)
    append(chain, executableInfo);
  vkGetPhysicalDeviceFeatures2(device, &features);

  Features result;
  result.shaderFloat64 = features.features.shaderFloat64;
  result.shaderInt64 = features.features.shaderInt64;
  result.shaderInt16 = features.features.shaderInt16;
  result.storageBuffer16BitAccess = storage16.storageBuffer16BitAccess;
  result.shaderInt8 = vulkan12.shaderInt8;
  result.shaderFloat16 = vulkan12.shaderFloat16;
  result.storageBuffer8BitAccess = vulkan12.storageBuffer8BitAccess;
  result.vulkanMemoryModel = vulkan12.vulkanMemoryModel;
  result.vulkanMemoryModelDeviceScope = vulkan12.vulkanMemoryModelDeviceScope;
  result.pipelineExecutableInfo =
      hasExecutableProperties && executableInfo.pipelineExecutableInfo;
  result.signedZeroInfNanPreserve = {
      bool(floatControls.shaderSignedZeroInfNanPreserveFloat16),
      bool(floatControls.shaderSignedZeroInfNanPreserveFloat32),
      bool(floatControls.shaderSignedZeroInfNanPreserveFloat64)};
  result.denormPreserve = {bool(floatControls.shaderDenormPreserveFloat16),
                           bool(floatControls.shaderDenormPreserveFloat32),
                           bool(floatControls.shaderDenormPreserveFloat64)};
  return result;
}

/// The number of multiprocessors where the driver says (NVIDIA's SM count,
/// AMD's compute units), the host's threads for a CPU device (lavapipe
/// runs a work-group per thread), else 1.
static uint32_t queryComputeUnits(VkPhysicalDevice device,
                                  VkPhysicalDeviceType type) {
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU)
    return std::max(1u, std::thread::hardware_concurrency());
  auto properties = makeStructure<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  if (hasExtension(device, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
    auto sm = makeStructure<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
    properties.pNext = &sm;
    vkGetPhysicalDeviceProperties2(device, &properties);
    return std::max(1u, sm.shaderSMCount);
  }
  if (hasExtension(device, VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) {
    auto core = makeStructure<VkPhysicalDeviceShaderCorePropertiesAMD>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD);
    properties.pNext = &core;
    vkGetPhysicalDeviceProperties2(device, &properties);
    return std::max(1u, core.shaderEngineCount *
                            core.shaderArraysPerEngineCount *
                            core.computeUnitsPerShaderArray);
  }
  return 1;
}

/// Describes `device`: its profile from its limits (docs/runtime.md, "The
/// Vulkan backend"), features and compute queue.
static DeviceDescriptor describeDevice(VkPhysicalDevice device) {
  auto properties = makeStructure<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  auto subgroup = makeStructure<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto maintenance3 = makeStructure<VkPhysicalDeviceMaintenance3Properties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
  auto driver = makeStructure<VkPhysicalDeviceDriverProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES);
  // The 1.0 properties decide which structures the device understands.
  vkGetPhysicalDeviceProperties(device, &properties.properties);
  uint32_t apiVersion = properties.properties.apiVersion;
  void **chain = &properties.pNext;
  if (apiVersion >= VK_API_VERSION_1_1) {
    append(chain, subgroup);
    append(chain, maintenance3);
  }
  if (apiVersion >= VK_API_VERSION_1_2)
    append(chain, driver);
  vkGetPhysicalDeviceProperties2(device, &properties);
  const VkPhysicalDeviceLimits &limits = properties.properties.limits;

  DeviceDescriptor descriptor;
  descriptor.physicalDevice = device;
  descriptor.deviceType = properties.properties.deviceType;
  descriptor.apiVersion = formatVersion(apiVersion);
  descriptor.spirvVersion = spirvVersionOf(apiVersion);
  descriptor.features = queryFeatures(device, apiVersion);
  for (unsigned dim = 0; dim < 3; ++dim)
    descriptor.maxGroupCount[dim] = limits.maxComputeWorkGroupCount[dim];

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount,
                                           families.data());
  for (uint32_t family = 0; family < familyCount; ++family)
    if (families[family].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      descriptor.computeQueueFamily = family;
      descriptor.timestampValidBits = families[family].timestampValidBits;
      if (descriptor.timestampValidBits)
        descriptor.timestampPeriodNs = limits.timestampPeriod;
      break;
    }

  DeviceProfile &profile = descriptor.profile;
  profile.name = properties.properties.deviceName;
  profile.vendor = vendorName(properties.properties.vendorID);
  profile.driverVersion =
      apiVersion >= VK_API_VERSION_1_2
          ? std::string(driver.driverName) + " " + driver.driverInfo
          : std::to_string(properties.properties.driverVersion);
  switch (descriptor.deviceType) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
    profile.type = DeviceType::GPU;
    break;
  case VK_PHYSICAL_DEVICE_TYPE_CPU:
    profile.type = DeviceType::CPU;
    break;
  default:
    profile.type = DeviceType::Other;
  }
  profile.maxWorkGroupSize = limits.maxComputeWorkGroupInvocations;
  profile.maxWorkGroupSizeGuaranteed = true;
  for (unsigned dim = 0; dim < 3; ++dim)
    profile.maxWorkGroupCount[dim] = descriptor.maxGroupCount[dim];
  for (unsigned dim = 0; dim < 3; ++dim)
    profile.maxWorkItemSizes[dim] = limits.maxComputeWorkGroupSize[dim];
  profile.localMemBytes = limits.maxComputeSharedMemorySize;
  profile.computeUnits = queryComputeUnits(device, descriptor.deviceType);
  // Vulkan states no preferred vector widths: scalar code everywhere, and
  // none for the types the device lacks.
  const Features &features = descriptor.features;
  profile.supportsFp64 = features.shaderFloat64;
  profile.supportsFp16 =
      features.shaderFloat16 && features.storageBuffer16BitAccess;
  profile.preferredVectorWidth = PreferredVectorWidths();
  profile.preferredVectorWidth.doubleWidth = profile.supportsFp64 ? 1 : 0;
  profile.preferredVectorWidth.halfWidth = profile.supportsFp16 ? 1 : 0;
  profile.signedZeroInfNanPreserve = features.signedZeroInfNanPreserve;
  profile.denormPreserve = features.denormPreserve;
  if (apiVersion >= VK_API_VERSION_1_1)
    profile.subgroupSize = subgroup.subgroupSize;
  // llvmpipe's shader compiler gives each invocation one loop counter that
  // every pass of every loop decrements, and ends all its loops once it
  // reaches 0 (LP_MAX_TGSI_LOOP_ITERATIONS in Mesa's gallivm): a longer
  // kernel would silently compute a partial result.
  if (apiVersion >= VK_API_VERSION_1_2 &&
      driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE)
    profile.maxLoopIterations = 65535;
  // A storage buffer binding covers at most maxStorageBufferRange bytes,
  // whatever memory the allocation could take.
  profile.maxAllocBytes = limits.maxStorageBufferRange;
  if (apiVersion >= VK_API_VERSION_1_1)
    profile.maxAllocBytes = std::min<uint64_t>(
        profile.maxAllocBytes, maintenance3.maxMemoryAllocationSize);
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(device, &memory);
  for (uint32_t heap = 0; heap < memory.memoryHeapCount; ++heap)
    if (memory.memoryHeaps[heap].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      profile.globalMemBytes = std::max<uint64_t>(
          profile.globalMemBytes, memory.memoryHeaps[heap].size);
  // Vulkan reports no clock rate.
  profile.clockMHz = 0;
  return descriptor;
}

Expected<std::vector<DeviceDescriptor>> vulkan::enumerateDevices() {
  Expected<std::shared_ptr<Instance>> instance =
      Instance::create(Instance::validationRequested());
  if (!instance)
    return instance.error();
  std::vector<DeviceDescriptor> devices;
  if (!*instance)
    return devices;
  uint32_t count = 0;
  VkResult result =
      vkEnumeratePhysicalDevices((*instance)->handle(), &count, nullptr);
  if (result != VK_SUCCESS)
    return driverFailure(result, "listing the Vulkan devices");
  std::vector<VkPhysicalDevice> handles(count);
  result =
      vkEnumeratePhysicalDevices((*instance)->handle(), &count, handles.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE)
    return driverFailure(result, "listing the Vulkan devices");
  handles.resize(count);
  for (VkPhysicalDevice handle : handles) {
    DeviceDescriptor descriptor = describeDevice(handle);
    descriptor.index = static_cast<unsigned>(devices.size());
    descriptor.instance = *instance;
    devices.push_back(std::move(descriptor));
  }
  return devices;
}

/// The index of the default device: the first discrete or integrated GPU,
/// else the first CPU, else the first device; nullopt when there is none.
static std::optional<size_t>
defaultDeviceIndex(const std::vector<DeviceDescriptor> &devices) {
  for (auto matches : {+[](VkPhysicalDeviceType type) {
                         return type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                                type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
                       },
                       +[](VkPhysicalDeviceType type) {
                         return type == VK_PHYSICAL_DEVICE_TYPE_CPU;
                       }})
    for (size_t i = 0; i < devices.size(); ++i)
      if (matches(devices[i].deviceType))
        return i;
  if (devices.empty())
    return std::nullopt;
  return 0;
}

static const char *const kNoDevice =
    "no Vulkan devices: the Vulkan loader finds no driver (is one such as "
    "mesa-vulkan-drivers installed, with its file in /usr/share/vulkan/icd.d?)";

Expected<DeviceDescriptor>
vulkan::selectDevice(const std::vector<DeviceDescriptor> &devices,
                     std::string_view selector) {
  return pickDevice(devices, selector, defaultDeviceIndex(devices), "Vulkan",
                    kNoDevice, [](const DeviceDescriptor &descriptor) {
                      return "Vulkan " + descriptor.apiVersion + ", " +
                             deviceTypeName(descriptor.profile.type);
                    });
}

std::string
vulkan::formatDeviceList(const std::vector<DeviceDescriptor> &devices) {
  if (devices.empty())
    return std::string(kNoDevice) + "\n";
  size_t defaultIndex = *defaultDeviceIndex(devices);
  std::string out;
  for (size_t i = 0; i < devices.size(); ++i) {
    const DeviceDescriptor &device = devices[i];
    bool last = i + 1 == devices.size();
    out += std::string(last ? " `-- " : " +-- ") + "Device #" +
           std::to_string(device.index) + ": " + device.profile.name +
           (i == defaultIndex ? " (default)" : "") + "\n";
    std::string indent = last ? "       " : " |     ";
    out += indent + "Vulkan " + device.apiVersion +
           (device.computeQueueFamily ? "" : ", no compute queue") + "\n";
    out += formatProfileSummary(device.profile, indent);
  }
  return out;
}
