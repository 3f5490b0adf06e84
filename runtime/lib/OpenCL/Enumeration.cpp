//===- Enumeration.cpp - Platforms, devices and their profiles ------------===//

#include "Failure.h"

#include "../DeviceSelector.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <sstream>

using namespace tilec;
using namespace tilec::opencl;

/// Reads a fixed-size device property.
template <class T>
static cl_int getDeviceInfo(cl_device_id device, cl_device_info param, T &out) {
  return clGetDeviceInfo(device, param, sizeof(T), &out, nullptr);
}

/// Reads an array-valued device property.
template <class T>
static cl_int getDeviceInfo(cl_device_id device, cl_device_info param,
                            std::vector<T> &out) {
  size_t bytes = 0;
  cl_int status = clGetDeviceInfo(device, param, 0, nullptr, &bytes);
  if (status != CL_SUCCESS)
    return status;
  out.resize(bytes / sizeof(T));
  return clGetDeviceInfo(device, param, out.size() * sizeof(T), out.data(),
                         nullptr);
}

/// Reads a string-valued device property, without its terminating NUL.
static cl_int getDeviceInfo(cl_device_id device, cl_device_info param,
                            std::string &out) {
  std::vector<char> text;
  cl_int status = getDeviceInfo(device, param, text);
  out.assign(text.begin(), std::find(text.begin(), text.end(), '\0'));
  return status;
}

static std::set<std::string> splitExtensions(const std::string &list) {
  std::istringstream words(list);
  return std::set<std::string>(std::istream_iterator<std::string>(words),
                               std::istream_iterator<std::string>());
}

/// The subgroup width from the vendor queries that report one per device;
/// cl_khr_subgroups reports it per kernel only, so it is not used here.
static std::optional<uint32_t>
querySubgroupSize(cl_device_id device,
                  const std::set<std::string> &extensions) {
  cl_uint width = 0;
  if (extensions.count("cl_nv_device_attribute_query") &&
      getDeviceInfo(device, CL_DEVICE_WARP_SIZE_NV, width) == CL_SUCCESS)
    return width;
  if (extensions.count("cl_amd_device_attribute_query") &&
      getDeviceInfo(device, CL_DEVICE_WAVEFRONT_WIDTH_AMD, width) == CL_SUCCESS)
    return width;
  // Intel GPUs run a kernel at one of several widths the compiler picks;
  // the largest is the one that tiling decisions should assume.
  std::vector<size_t> sizes;
  if (extensions.count("cl_intel_required_subgroup_size") &&
      getDeviceInfo(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizes) ==
          CL_SUCCESS &&
      !sizes.empty())
    return static_cast<uint32_t>(*std::max_element(sizes.begin(), sizes.end()));
  return std::nullopt;
}

Expected<DeviceProfile> opencl::queryProfile(cl_device_id device) {
  DeviceProfile profile;
  cl_int status = CL_SUCCESS;
  const char *failedParam = nullptr;
  // Each query runs only while all before it succeeded, so that the first
  // failure is the one reported.
  auto query = [&](cl_device_info param, const char *paramName, auto &out) {
    if (status != CL_SUCCESS)
      return;
    status = getDeviceInfo(device, param, out);
    if (status != CL_SUCCESS)
      failedParam = paramName;
  };
#define QUERY(param, out) query(param, #param, out)

  cl_device_type type = 0;
  size_t maxWorkGroupSize = 0;
  std::vector<size_t> maxWorkItemSizes;
  cl_ulong localMem = 0, maxAlloc = 0, globalMem = 0;
  std::string extensionList;
  PreferredVectorWidths &widths = profile.preferredVectorWidth;
  QUERY(CL_DEVICE_NAME, profile.name);
  QUERY(CL_DEVICE_VENDOR, profile.vendor);
  QUERY(CL_DRIVER_VERSION, profile.driverVersion);
  QUERY(CL_DEVICE_TYPE, type);
  QUERY(CL_DEVICE_MAX_WORK_GROUP_SIZE, maxWorkGroupSize);
  QUERY(CL_DEVICE_MAX_WORK_ITEM_SIZES, maxWorkItemSizes);
  QUERY(CL_DEVICE_LOCAL_MEM_SIZE, localMem);
  QUERY(CL_DEVICE_MAX_COMPUTE_UNITS, profile.computeUnits);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, widths.charWidth);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, widths.shortWidth);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, widths.intWidth);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, widths.longWidth);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, widths.floatWidth);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, widths.doubleWidth);
  QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, widths.halfWidth);
  QUERY(CL_DEVICE_MAX_MEM_ALLOC_SIZE, maxAlloc);
  QUERY(CL_DEVICE_GLOBAL_MEM_SIZE, globalMem);
  QUERY(CL_DEVICE_MAX_CLOCK_FREQUENCY, profile.clockMHz);
  QUERY(CL_DEVICE_EXTENSIONS, extensionList);
#undef QUERY
  if (status != CL_SUCCESS)
    return driverFailure(status, std::string("querying ") + failedParam +
                                     " of OpenCL device " +
                                     quoted(profile.name));

  profile.type = (type & CL_DEVICE_TYPE_GPU)   ? DeviceType::GPU
                 : (type & CL_DEVICE_TYPE_CPU) ? DeviceType::CPU
                                               : DeviceType::Other;
  profile.maxWorkGroupSize = maxWorkGroupSize;
  for (size_t dim = 0; dim < 3 && dim < maxWorkItemSizes.size(); ++dim)
    profile.maxWorkItemSizes[dim] = maxWorkItemSizes[dim];
  profile.localMemBytes = localMem;
  profile.maxAllocBytes = maxAlloc;
  profile.globalMemBytes = globalMem;
  std::set<std::string> extensions = splitExtensions(extensionList);
  profile.supportsFp64 = extensions.count("cl_khr_fp64");
  profile.supportsFp16 = extensions.count("cl_khr_fp16");
  profile.subgroupSize = querySubgroupSize(device, extensions);
  return profile;
}

static Expected<std::string> queryPlatformName(cl_platform_id platform,
                                               unsigned platformIndex) {
  std::string what =
      "querying the name of OpenCL platform #" + std::to_string(platformIndex);
  size_t bytes = 0;
  cl_int status =
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &bytes);
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  std::vector<char> text(bytes);
  status = clGetPlatformInfo(platform, CL_PLATFORM_NAME, bytes, text.data(),
                             nullptr);
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  return std::string(text.begin(), std::find(text.begin(), text.end(), '\0'));
}

Expected<std::vector<DeviceDescriptor>> opencl::enumerateDevices() {
  std::vector<DeviceDescriptor> devices;
  cl_uint numPlatforms = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &numPlatforms);
  // The ICD loader says CL_PLATFORM_NOT_FOUND_KHR when no driver is
  // installed: that is an empty machine, which selectDevice reports.
  if (status == CL_PLATFORM_NOT_FOUND_KHR || numPlatforms == 0)
    return devices;
  if (status != CL_SUCCESS)
    return driverFailure(status, "listing OpenCL platforms");
  std::vector<cl_platform_id> platforms(numPlatforms);
  status = clGetPlatformIDs(numPlatforms, platforms.data(), nullptr);
  if (status != CL_SUCCESS)
    return driverFailure(status, "listing OpenCL platforms");

  for (unsigned platformIndex = 0; platformIndex < numPlatforms;
       ++platformIndex) {
    cl_platform_id platform = platforms[platformIndex];
    Expected<std::string> platformName =
        queryPlatformName(platform, platformIndex);
    if (!platformName)
      return platformName.error();
    std::string what =
        "listing the devices of OpenCL platform " + quoted(*platformName);
    cl_uint numDevices = 0;
    status =
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &numDevices);
    if (status == CL_DEVICE_NOT_FOUND)
      continue;
    if (status != CL_SUCCESS)
      return driverFailure(status, what);
    std::vector<cl_device_id> ids(numDevices);
    status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, numDevices,
                            ids.data(), nullptr);
    if (status != CL_SUCCESS)
      return driverFailure(status, what);

    for (cl_device_id id : ids) {
      Expected<DeviceProfile> profile = queryProfile(id);
      if (!profile)
        return profile.error();
      DeviceDescriptor descriptor;
      descriptor.index = static_cast<unsigned>(devices.size());
      descriptor.platformIndex = platformIndex;
      descriptor.platformName = *platformName;
      descriptor.platform = platform;
      descriptor.device = id;
      descriptor.profile = std::move(*profile);
      devices.push_back(std::move(descriptor));
    }
  }
  return devices;
}

/// The index of the default device: the first GPU, else the first CPU,
/// else the first device; nullopt when there is none.
static std::optional<size_t>
defaultDeviceIndex(const std::vector<DeviceDescriptor> &devices) {
  for (DeviceType type : {DeviceType::GPU, DeviceType::CPU})
    for (size_t i = 0; i < devices.size(); ++i)
      if (devices[i].profile.type == type)
        return i;
  if (devices.empty())
    return std::nullopt;
  return 0;
}

static const char *const kNoDevice =
    "no OpenCL device found: the ICD loader reports none (is a driver such "
    "as pocl-opencl-icd installed, with its file in /etc/OpenCL/vendors?)";

Expected<DeviceDescriptor>
opencl::selectDevice(const std::vector<DeviceDescriptor> &devices,
                     std::string_view selector) {
  return pickDevice(devices, selector, defaultDeviceIndex(devices), "OpenCL",
                    kNoDevice, [](const DeviceDescriptor &descriptor) {
                      return descriptor.platformName + ", " +
                             deviceTypeName(descriptor.profile.type);
                    });
}

std::string
opencl::formatDeviceList(const std::vector<DeviceDescriptor> &devices) {
  if (devices.empty())
    return std::string(kNoDevice) + "\n";
  size_t defaultIndex = *defaultDeviceIndex(devices);
  std::string out;
  for (size_t i = 0; i < devices.size(); ++i) {
    const DeviceDescriptor &device = devices[i];
    if (i == 0 || devices[i - 1].platformIndex != device.platformIndex)
      out += "Platform #" + std::to_string(device.platformIndex) + ": " +
             device.platformName + "\n";
    bool lastOfPlatform = i + 1 == devices.size() ||
                          devices[i + 1].platformIndex != device.platformIndex;
    out += std::string(lastOfPlatform ? " `-- " : " +-- ") + "Device #" +
           std::to_string(device.index) + ": " + device.profile.name +
           (i == defaultIndex ? " (default)" : "") + "\n";
    out += formatProfileSummary(device.profile,
                                lastOfPlatform ? "       " : " |     ");
  }
  return out;
}
