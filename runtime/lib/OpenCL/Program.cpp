//===- Program.cpp - Program builds, their cache, and kernels -------------===//

#include "Failure.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::opencl;

/// Reads a string-valued program property, without its terminating NUL.
template <class Query> static cl_int readString(Query query, std::string &out) {
  size_t bytes = 0;
  cl_int status = query(0, nullptr, &bytes);
  if (status != CL_SUCCESS)
    return status;
  std::vector<char> text(bytes);
  status = query(bytes, text.data(), nullptr);
  out.assign(text.begin(), std::find(text.begin(), text.end(), '\0'));
  return status;
}

static std::string buildLog(cl_program program, cl_device_id device) {
  std::string log;
  cl_int status = readString(
      [&](size_t size, void *value, size_t *sizeRet) {
        return clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                     size, value, sizeRet);
      },
      log);
  if (status != CL_SUCCESS)
    return std::string("(the build log is unavailable: ") + statusName(status) +
           ")";
  return log;
}

/// The key of the program cache: the options, a NUL (which options cannot
/// hold) and the source, so that distinct programs never collide.
static std::string programCacheKey(std::string_view source,
                                   std::string_view options) {
  return std::string(options) + '\0' + std::string(source);
}

/// Builds `program` (created from source or from a binary) for `device` with
/// `options`; `what` says what is being built, for messages. A failed
/// build's error holds the options and the compiler's log.
static Expected<std::shared_ptr<const Program>>
buildCreated(Handle<cl_program> program, cl_device_id device,
             std::string_view options, std::string_view name,
             const std::string &what) {
  std::string optionText(options);
  cl_int status = clBuildProgram(program.get(), 1, &device, optionText.c_str(),
                                 nullptr, nullptr);
  std::string log = buildLog(program.get(), device);
  if (status != CL_SUCCESS) {
    std::string message = driverFailure(status, what).message();
    if (!optionText.empty())
      message += "\noptions: " + optionText;
    message += "\nbuild log:\n" + (log.empty() ? "(empty)" : log);
    return Error(message, status);
  }
  return std::shared_ptr<const Program>(std::make_shared<Program>(
      std::move(program), std::string(name), std::move(log)));
}

Expected<std::shared_ptr<const Program>>
Device::buildProgram(std::string_view source, std::string_view options,
                     std::string_view name) {
  std::string key = programCacheKey(source, options);
  if (auto cached = programCache.find(key); cached != programCache.end())
    return cached->second;

  std::string what = "building OpenCL program " + quoted(name) +
                     " for device " + quoted(deviceProfile.name);
  const char *text = source.data();
  size_t length = source.size();
  cl_int status = CL_SUCCESS;
  Handle<cl_program> program(
      clCreateProgramWithSource(context(), 1, &text, &length, &status));
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  Expected<std::shared_ptr<const Program>> built =
      buildCreated(std::move(program), device, options, name, what);
  if (built)
    programCache.emplace(std::move(key), *built);
  return built;
}

Expected<std::vector<unsigned char>>
Device::programBinary(const Program &program) const {
  std::string what =
      "reading the binary of OpenCL program " + quoted(program.name());
  cl_uint deviceCount = 0;
  cl_int status = clGetProgramInfo(program.handle(), CL_PROGRAM_NUM_DEVICES,
                                   sizeof(deviceCount), &deviceCount, nullptr);
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  // Programs are built for this device alone, but the queries are per
  // device of the program's context: take this device's entry.
  std::vector<cl_device_id> devices(deviceCount);
  std::vector<size_t> sizes(deviceCount);
  status = clGetProgramInfo(program.handle(), CL_PROGRAM_DEVICES,
                            deviceCount * sizeof(cl_device_id), devices.data(),
                            nullptr);
  if (status == CL_SUCCESS)
    status =
        clGetProgramInfo(program.handle(), CL_PROGRAM_BINARY_SIZES,
                         deviceCount * sizeof(size_t), sizes.data(), nullptr);
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  auto position = std::find(devices.begin(), devices.end(), device);
  if (position == devices.end())
    return Error(what + ": the program is not built for device " +
                 quoted(deviceProfile.name));
  size_t index = position - devices.begin();
  std::vector<std::vector<unsigned char>> binaries(deviceCount);
  std::vector<unsigned char *> pointers(deviceCount);
  for (size_t i = 0; i < deviceCount; ++i) {
    binaries[i].resize(sizes[i]);
    pointers[i] = binaries[i].data();
  }
  status = clGetProgramInfo(program.handle(), CL_PROGRAM_BINARIES,
                            deviceCount * sizeof(unsigned char *),
                            pointers.data(), nullptr);
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  if (binaries[index].empty())
    return Error(what + ": the driver offers no binary");
  return std::move(binaries[index]);
}

Expected<std::shared_ptr<const Program>> Device::buildProgramFromBinary(
    std::string_view source, std::string_view options,
    const std::vector<unsigned char> &binary, std::string_view name) {
  std::string what = "loading the binary of OpenCL program " + quoted(name) +
                     " for device " + quoted(deviceProfile.name);
  if (binary.empty())
    return Error(what + ": the binary is empty");
  const unsigned char *bytes = binary.data();
  size_t length = binary.size();
  cl_int binaryStatus = CL_SUCCESS;
  cl_int status = CL_SUCCESS;
  Handle<cl_program> program(clCreateProgramWithBinary(
      context(), 1, &device, &length, &bytes, &binaryStatus, &status));
  if (status == CL_SUCCESS)
    status = binaryStatus;
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  Expected<std::shared_ptr<const Program>> built =
      buildCreated(std::move(program), device, options, name, what);
  if (built)
    programCache.insert_or_assign(programCacheKey(source, options), *built);
  return built;
}

/// The kernels of `program`, comma-separated, for messages.
static std::string kernelNames(cl_program program) {
  std::string names;
  cl_int status = readString(
      [&](size_t size, void *value, size_t *sizeRet) {
        return clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, size, value,
                                sizeRet);
      },
      names);
  if (status != CL_SUCCESS)
    return std::string("(unavailable: ") + statusName(status) + ")";
  std::replace(names.begin(), names.end(), ';', ',');
  return names.empty() ? "(none)" : names;
}

Expected<Kernel> Device::createKernel(std::shared_ptr<const Program> program,
                                      std::string_view entry) {
  std::string kernelName(entry);
  std::string what = "creating kernel " + quoted(entry) + " of program " +
                     quoted(program->name());
  cl_int status = CL_SUCCESS;
  Handle<cl_kernel> kernel(
      clCreateKernel(program->handle(), kernelName.c_str(), &status));
  if (status == CL_INVALID_KERNEL_NAME)
    return Error(what + ": the program has no such kernel; its kernels: " +
                     kernelNames(program->handle()),
                 status);
  if (status != CL_SUCCESS)
    return driverFailure(status, what);

  KernelProperties info;
  size_t maxWorkGroupSize = 0, preferredMultiple = 0;
  cl_ulong localMem = 0;
  cl_kernel handle = kernel.get();
  std::pair<const char *, cl_int> queries[] = {
      {"CL_KERNEL_NUM_ARGS",
       clGetKernelInfo(handle, CL_KERNEL_NUM_ARGS, sizeof(info.numArgs),
                       &info.numArgs, nullptr)},
      {"CL_KERNEL_WORK_GROUP_SIZE",
       clGetKernelWorkGroupInfo(handle, device, CL_KERNEL_WORK_GROUP_SIZE,
                                sizeof(maxWorkGroupSize), &maxWorkGroupSize,
                                nullptr)},
      {"CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE",
       clGetKernelWorkGroupInfo(
           handle, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
           sizeof(preferredMultiple), &preferredMultiple, nullptr)},
      {"CL_KERNEL_LOCAL_MEM_SIZE",
       clGetKernelWorkGroupInfo(handle, device, CL_KERNEL_LOCAL_MEM_SIZE,
                                sizeof(localMem), &localMem, nullptr)}};
  for (auto [param, queryStatus] : queries)
    if (queryStatus != CL_SUCCESS)
      return driverFailure(queryStatus, "querying " + std::string(param) +
                                            " of kernel " + quoted(entry));
  info.maxWorkGroupSize = maxWorkGroupSize;
  info.preferredWorkGroupSizeMultiple = preferredMultiple;
  info.localMemBytes = localMem;
  return Kernel(std::move(kernel), std::move(program), std::move(kernelName),
                info);
}
