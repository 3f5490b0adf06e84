//===- Launch.cpp - Kernel arguments, launch geometry and launches --------===//

#include "Failure.h"

#include "tilec/Runtime/Plural.h"
using namespace tilec;
using namespace tilec::opencl;

uint64_t NDRange::count() const {
  uint64_t product = 1;
  for (unsigned dim = 0; dim < rank; ++dim)
    product *= sizes[dim];
  return product;
}

std::string NDRange::str() const {
  std::string text = std::to_string(sizes[0]);
  for (unsigned dim = 1; dim < rank; ++dim)
    text += "x" + std::to_string(sizes[dim]);
  return text;
}

/// Checks a launch against what OpenCL 1.2, the device profile and the
/// kernel allow, so that its errors say which limit is exceeded rather than
/// the driver's bare CL_INVALID_WORK_GROUP_SIZE. Returns the problem, or an
/// empty string.
static std::string checkLaunch(const Kernel &kernel,
                               const std::vector<KernelArg> &args,
                               const NDRange &global,
                               const std::optional<NDRange> &local,
                               const DeviceProfile &profile) {
  if (args.size() != kernel.properties().numArgs)
    return "the kernel takes " +
           pluralize(kernel.properties().numArgs, "argument") + ", " +
           std::to_string(args.size()) + (args.size() == 1 ? " was" : " were") +
           " given";
  if (global.count() == 0)
    return "the global size is zero in some dimension";

  uint64_t localArgBytes = 0;
  for (const KernelArg &arg : args)
    if (arg.kind() == KernelArg::Kind::LocalMemory)
      localArgBytes += arg.size();
  uint64_t localBytes = localArgBytes + kernel.properties().localMemBytes;
  if (localBytes > profile.localMemBytes)
    return "it needs " + std::to_string(localBytes) +
           " bytes of local memory, the device has " +
           std::to_string(profile.localMemBytes);

  if (!local)
    return "";
  if (local->dims() != global.dims())
    return "the local size has " + std::to_string(local->dims()) +
           " dimensions, the global size " + std::to_string(global.dims());
  for (unsigned dim = 0; dim < global.dims(); ++dim) {
    // Spelled out only on a failure: every launch passes here.
    auto which = [&] { return "in dimension " + std::to_string(dim); };
    if ((*local)[dim] == 0)
      return "the local size is zero " + which();
    if (global[dim] % (*local)[dim] != 0)
      return "the global size is not a multiple of the local size " + which();
    if ((*local)[dim] > profile.maxWorkItemSizes[dim])
      return "the local size exceeds the device's " +
             std::to_string(profile.maxWorkItemSizes[dim]) + " work-items " +
             which();
  }
  if (local->count() > profile.maxWorkGroupSize)
    return "the work-group of " + std::to_string(local->count()) +
           " work-items exceeds the device's maximum, " +
           std::to_string(profile.maxWorkGroupSize);
  if (local->count() > kernel.properties().maxWorkGroupSize)
    return "the work-group of " + std::to_string(local->count()) +
           " work-items exceeds the kernel's maximum on this device, " +
           std::to_string(kernel.properties().maxWorkGroupSize);
  return "";
}

std::string Device::describeLaunch(const Kernel &kernel, const NDRange &global,
                                   const std::optional<NDRange> &local) const {
  std::string what = "running kernel " + quoted(kernel.name()) +
                     " (global size " + global.str();
  if (local)
    what += ", local size " + local->str();
  return what + ") on device " + quoted(deviceProfile.name);
}

Status Device::enqueueKernel(Kernel &kernel, const std::vector<KernelArg> &args,
                             const NDRange &global,
                             const std::optional<NDRange> &local,
                             cl_event *event) {
  std::string problem = checkLaunch(kernel, args, global, local, deviceProfile);
  if (!problem.empty())
    return Error(describeLaunch(kernel, global, local) + ": " + problem);
  for (size_t index = 0; index < args.size(); ++index) {
    const KernelArg &arg = args[index];
    cl_int status = clSetKernelArg(kernel.handle(), static_cast<cl_uint>(index),
                                   arg.size(), arg.data());
    if (status != CL_SUCCESS)
      return driverFailure(status, "setting argument " + std::to_string(index) +
                                       " of kernel " + quoted(kernel.name()));
  }
  cl_int status = clEnqueueNDRangeKernel(
      queue(), kernel.handle(), global.dims(), nullptr, global.data(),
      local ? local->data() : nullptr, 0, nullptr, event);
  if (status != CL_SUCCESS)
    return driverFailure(status, describeLaunch(kernel, global, local));
  return Status::success();
}

Expected<Event> Device::launch(Kernel &kernel,
                               const std::vector<KernelArg> &args,
                               const NDRange &global,
                               const std::optional<NDRange> &local) {
  cl_event event = nullptr;
  if (Status status = enqueueKernel(kernel, args, global, local, &event);
      !status)
    return status.error();
  return Event(Handle<cl_event>(event), describeLaunch(kernel, global, local));
}

Status Device::enqueue(Kernel &kernel, const std::vector<KernelArg> &args,
                       const NDRange &global,
                       const std::optional<NDRange> &local) {
  return enqueueKernel(kernel, args, global, local, /*event=*/nullptr);
}
