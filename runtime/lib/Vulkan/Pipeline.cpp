//===- Pipeline.cpp - Shader modules and compute pipelines ----------------===//

#include "Failure.h"
#include "Structure.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <string_view>
#include <tuple>

using namespace tilec;
using namespace tilec::vulkan;

/// "1.5" for the SPIR-V header's version word 0x00010500.
static std::string formatSpirvVersion(uint32_t version) {
  return std::to_string((version >> 16) & 0xFF) + "." +
         std::to_string((version >> 8) & 0xFF);
}

Expected<std::shared_ptr<const ShaderModule>>
Device::createShaderModule(const std::vector<uint32_t> &words,
                           std::string name) {
  Expected<std::vector<SpirvEntryPoint>> entries = inspectSpirv(words, name);
  if (!entries)
    return entries.error();
  // Vulkan leaves a module newer than the device's version allows
  // undefined (a driver may accept it and miscompile), so it is refused
  // here, naming both versions (inspectSpirv has checked the header).
  uint32_t version = words[1];
  if (version > physical.spirvVersion)
    return Error("the SPIR-V of " + quoted(name) + " is version " +
                 formatSpirvVersion(version) + ", but device " +
                 quoted(physical.profile.name) + " (Vulkan " +
                 physical.apiVersion + ") accepts SPIR-V up to " +
                 formatSpirvVersion(physical.spirvVersion));
  auto info = makeStructure<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = words.size() * sizeof(uint32_t);
  info.pCode = words.data();
  VkShaderModule module = VK_NULL_HANDLE;
  std::string what = "creating the shader module of " + quoted(name);
  VkResult result = vkCreateShaderModule(device, &info, nullptr, &module);
  if (result != VK_SUCCESS)
    return driverFailure(result,
                         what + " on device " + quoted(physical.profile.name));
  std::shared_ptr<const ShaderModule> shader(
      new ShaderModule(Owned<VkShaderModule>(device, module), std::move(name),
                       std::move(*entries)));
  if (Status status = checkValidation(what); !status)
    return status.error();
  return shader;
}

/// Whether the device (and its profile, which may deny what the driver
/// offers) provides `feature`, one of Features' field names; sets `denied`
/// to what in the profile denies it.
static bool providesFeature(const DeviceDescriptor &device,
                            std::string_view feature, std::string &denied) {
  const Features &has = device.features;
  if (feature == "shaderFloat64") {
    if (!device.profile.supportsFp64)
      denied = "supports_fp64 is false";
    return has.shaderFloat64 && device.profile.supportsFp64;
  }
  if (feature == "shaderFloat16") {
    if (!device.profile.supportsFp16)
      denied = "supports_fp16 is false";
    return has.shaderFloat16 && device.profile.supportsFp16;
  }
  // A float-controls property is its prefix and a width (16, 32 or 64).
  const DeviceProfile &profile = device.profile;
  std::tuple<std::string_view, const FloatWidths &, const FloatWidths &,
             const char *>
      floatControls[] = {
          {"shaderSignedZeroInfNanPreserveFloat", has.signedZeroInfNanPreserve,
           profile.signedZeroInfNanPreserve, "signed_zero_inf_nan_preserve"},
          {"shaderDenormPreserveFloat", has.denormPreserve,
           profile.denormPreserve, "denorm_preserve"}};
  for (auto [prefix, provided, allowed, key] : floatControls) {
    if (feature.substr(0, prefix.size()) != prefix)
      continue;
    std::string_view width = feature.substr(prefix.size());
    unsigned bits = 0;
    if (std::from_chars(width.data(), width.data() + width.size(), bits).ptr !=
        width.data() + width.size())
      return false;
    // The profile read from the device lists what the device has: only a
    // file's override denies what the driver offers.
    if (provided.contains(bits) && !allowed.contains(bits))
      denied = std::string(key) + " lacks " + std::to_string(bits);
    return provided.contains(bits) && allowed.contains(bits);
  }
  std::pair<const char *, bool> others[] = {
      {"shaderInt64", has.shaderInt64},
      {"shaderInt16", has.shaderInt16},
      {"shaderInt8", has.shaderInt8},
      {"storageBuffer16BitAccess", has.storageBuffer16BitAccess},
      {"storageBuffer8BitAccess", has.storageBuffer8BitAccess},
      {"vulkanMemoryModel", has.vulkanMemoryModel}};
  for (auto [name, provided] : others)
    if (feature == name)
      return provided;
  return false;
}

/// The value of one statistic as its driver reports it.
static std::string
formatStatistic(const VkPipelineExecutableStatisticKHR &stat) {
  char text[64];
  switch (stat.format) {
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
    return stat.value.b32 ? "true" : "false";
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
    std::snprintf(text, sizeof text, "%" PRId64, stat.value.i64);
    return text;
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
    std::snprintf(text, sizeof text, "%" PRIu64, stat.value.u64);
    return text;
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
    std::snprintf(text, sizeof text, "%g", stat.value.f64);
    return text;
  default:
    return "?";
  }
}

/// Prints what the driver reports of the code it built for `pipeline`
/// (kPipelineStatisticsVariable): one line per executable, "tilec: Vulkan
/// pipeline statistics of 'entry' on 'device': Register Count = 127, ...".
/// The statistics are a diagnostic: a driver that fails to give them leaves
/// the pipeline as it is.
static void printStatistics(VkDevice device, VkPipeline pipeline,
                            std::string_view entry, std::string_view name) {
  auto getProperties =
      reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
          vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
  auto getStatistics =
      reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
          vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  if (!getProperties || !getStatistics)
    return;
  auto pipelineInfo =
      makeStructure<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  pipelineInfo.pipeline = pipeline;
  uint32_t count = 0;
  if (getProperties(device, &pipelineInfo, &count, nullptr) != VK_SUCCESS)
    return;
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, makeStructure<VkPipelineExecutablePropertiesKHR>(
                 VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  if (getProperties(device, &pipelineInfo, &count, executables.data()) !=
      VK_SUCCESS)
    return;
  for (uint32_t index = 0; index < count; ++index) {
    auto executableInfo = makeStructure<VkPipelineExecutableInfoKHR>(
        VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    executableInfo.pipeline = pipeline;
    executableInfo.executableIndex = index;
    uint32_t numStats = 0;
    if (getStatistics(device, &executableInfo, &numStats, nullptr) !=
        VK_SUCCESS)
      continue;
    std::vector<VkPipelineExecutableStatisticKHR> stats(
        numStats, makeStructure<VkPipelineExecutableStatisticKHR>(
                      VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    if (getStatistics(device, &executableInfo, &numStats, stats.data()) !=
        VK_SUCCESS)
      continue;
    std::string line = "tilec: Vulkan pipeline statistics of " + quoted(entry) +
                       " on " + quoted(name);
    if (count > 1)
      line += std::string(" (") + executables[index].name + ")";
    line += ":";
    for (uint32_t stat = 0; stat < numStats; ++stat)
      line += std::string(stat ? ", " : " ") + stats[stat].name + " = " +
              formatStatistic(stats[stat]);
    std::fprintf(stderr, "%s\n", line.c_str());
  }
}

Expected<ComputePipeline> Device::createPipeline(const ShaderModule &module,
                                                 std::string_view entry,
                                                 uint32_t numBuffers) {
  std::string action = "creating the pipeline of entry point " + quoted(entry);
  std::string what = action + " on device " + quoted(physical.profile.name);
  const SpirvEntryPoint *found = module.findEntryPoint(entry);
  if (!found) {
    std::string names;
    for (const SpirvEntryPoint &candidate : module.entryPoints())
      names += (names.empty() ? "" : ", ") + quoted(candidate.name);
    return Error(what + ": the SPIR-V of " + quoted(module.name()) +
                 " has no such entry point (it has " +
                 (names.empty() ? std::string("none") : names) + ")");
  }
  if (!found->localSize)
    return Error(what + ": the entry point fixes no work-group size "
                        "(LocalSize execution mode)");
  for (const std::string &feature : found->features) {
    std::string denied;
    if (!providesFeature(physical, feature, denied))
      return Error(what + ": it needs the Vulkan feature " + feature +
                   (denied.empty() ? ", which the device lacks"
                                   : ", which the device's profile denies (" +
                                         denied + ")"));
  }

  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t binding = 0; binding < numBuffers; ++binding)
    bindings.push_back({binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                        VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  auto layoutInfo = makeStructure<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  layoutInfo.bindingCount = numBuffers;
  layoutInfo.pBindings = bindings.data();
  VkDescriptorSetLayout rawLayout = VK_NULL_HANDLE;
  VkResult result =
      vkCreateDescriptorSetLayout(device, &layoutInfo, nullptr, &rawLayout);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  Owned<VkDescriptorSetLayout> setLayout(device, rawLayout);

  auto pipelineLayoutInfo = makeStructure<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pipelineLayoutInfo.setLayoutCount = 1;
  pipelineLayoutInfo.pSetLayouts = &rawLayout;
  VkPipelineLayout rawPipelineLayout = VK_NULL_HANDLE;
  result = vkCreatePipelineLayout(device, &pipelineLayoutInfo, nullptr,
                                  &rawPipelineLayout);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  Owned<VkPipelineLayout> pipelineLayout(device, rawPipelineLayout);

  std::string entryName(entry);
  auto info = makeStructure<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  if (!optimizeCode)
    info.flags = VK_PIPELINE_CREATE_DISABLE_OPTIMIZATION_BIT;
  if (printsPipelineStatistics)
    info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module.handle();
  info.stage.pName = entryName.c_str();
  info.layout = rawPipelineLayout;
  VkPipeline rawPipeline = VK_NULL_HANDLE;
  result = vkCreateComputePipelines(device, pipelineCache, 1, &info, nullptr,
                                    &rawPipeline);
  if (result != VK_SUCCESS)
    return driverFailure(result, what);
  Owned<VkPipeline> pipeline(device, rawPipeline);
  if (printsPipelineStatistics)
    printStatistics(device, rawPipeline, entry, physical.profile.name);
  if (Status status = checkValidation(action); !status)
    return status.error();
  return ComputePipeline(std::move(setLayout), std::move(pipelineLayout),
                         std::move(pipeline), std::move(entryName), numBuffers,
                         *found->localSize);
}

Expected<size_t> Device::pipelineCacheSize() const {
  size_t bytes = 0;
  VkResult result =
      vkGetPipelineCacheData(device, pipelineCache, &bytes, nullptr);
  if (result != VK_SUCCESS)
    return driverFailure(result, "reading the pipeline cache of device " +
                                     quoted(physical.profile.name));
  return bytes;
}
