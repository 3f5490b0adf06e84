//===- Device.cpp - Contexts, queues, buffers, transfers and events -------===//

#include "Failure.h"

#include <algorithm>

using namespace tilec;
using namespace tilec::opencl;

Expected<std::unique_ptr<Device>>
Device::open(const DeviceDescriptor &descriptor, bool optimizeCode) {
  std::string deviceName = quoted(descriptor.profile.name);
  cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM,
      reinterpret_cast<cl_context_properties>(descriptor.platform), 0};
  cl_int status = CL_SUCCESS;
  Handle<cl_context> context(clCreateContext(properties, 1, &descriptor.device,
                                             nullptr, nullptr, &status));
  if (status != CL_SUCCESS)
    return driverFailure(status,
                         "creating an OpenCL context on device " + deviceName);
  // In order, so that a launch sees the writes enqueued before it and a read
  // the launches before it, without event lists.
  Handle<cl_command_queue> queue(clCreateCommandQueue(
      context.get(), descriptor.device, CL_QUEUE_PROFILING_ENABLE, &status));
  if (status != CL_SUCCESS)
    return driverFailure(status, "creating an OpenCL command queue on device " +
                                     deviceName);
  return std::unique_ptr<Device>(
      new Device(descriptor.device, std::move(context), std::move(queue),
                 descriptor.profile, optimizeCode));
}

Expected<Buffer> Device::allocate(size_t bytes, std::string name) {
  std::string what = "allocating buffer " + quoted(name) + " of " +
                     std::to_string(bytes) + " bytes on device " +
                     quoted(deviceProfile.name);
  if (bytes > deviceProfile.maxAllocBytes)
    return Error(what + ": larger than the device's largest allocation, " +
                 std::to_string(deviceProfile.maxAllocBytes) +
                 " bytes (max_alloc_bytes of its profile)");
  if (bytes > deviceProfile.globalMemBytes)
    return Error(what + ": larger than the device's global memory, " +
                 std::to_string(deviceProfile.globalMemBytes) +
                 " bytes (global_mem_bytes of its profile)");
  // OpenCL has no empty buffers; an empty tensor gets one unused byte.
  cl_int status = CL_SUCCESS;
  Handle<cl_mem> memory(clCreateBuffer(context(), CL_MEM_READ_WRITE,
                                       std::max<size_t>(bytes, 1), nullptr,
                                       &status));
  if (status != CL_SUCCESS)
    return driverFailure(status, what);
  return Buffer(std::move(memory), bytes, std::move(name));
}

template <class Enqueue>
Expected<Event> Device::enqueueTransfer(const Buffer &buffer, size_t bytes,
                                        size_t offset, std::string description,
                                        Enqueue enqueue) {
  if (offset > buffer.size() || bytes > buffer.size() - offset)
    return Error(description + ": outside the buffer, which holds " +
                 std::to_string(buffer.size()) + " bytes");
  cl_event event = nullptr;
  cl_int status = bytes == 0
                      ? clEnqueueMarkerWithWaitList(queue(), 0, nullptr, &event)
                      : enqueue(&event);
  if (status != CL_SUCCESS)
    return driverFailure(status, description);
  return Event(Handle<cl_event>(event), std::move(description));
}

/// "<verb> <bytes> bytes <preposition> buffer 'name' at offset <offset>".
static std::string describeTransfer(const char *verb, const char *preposition,
                                    const Buffer &buffer, size_t bytes,
                                    size_t offset) {
  return std::string(verb) + " " + std::to_string(bytes) + " bytes " +
         preposition + " buffer " + quoted(buffer.name()) + " at offset " +
         std::to_string(offset);
}

Expected<Event> Device::writeAsync(const Buffer &buffer, const void *data,
                                   size_t bytes, size_t offset) {
  return enqueueTransfer(
      buffer, bytes, offset,
      describeTransfer("writing", "to", buffer, bytes, offset),
      [&](cl_event *event) {
        return clEnqueueWriteBuffer(queue(), buffer.handle(), CL_FALSE, offset,
                                    bytes, data, 0, nullptr, event);
      });
}

Expected<Event> Device::readAsync(const Buffer &buffer, void *data,
                                  size_t bytes, size_t offset) {
  return enqueueTransfer(
      buffer, bytes, offset,
      describeTransfer("reading", "from", buffer, bytes, offset),
      [&](cl_event *event) {
        return clEnqueueReadBuffer(queue(), buffer.handle(), CL_FALSE, offset,
                                   bytes, data, 0, nullptr, event);
      });
}

/// Waits for the event of an enqueued command, or passes on the failure to
/// enqueue it.
static Status waitFor(const Expected<Event> &event) {
  return event ? event->wait() : event.status();
}

Status Device::write(const Buffer &buffer, const void *data, size_t bytes,
                     size_t offset) {
  return waitFor(writeAsync(buffer, data, bytes, offset));
}

Status Device::read(const Buffer &buffer, void *data, size_t bytes,
                    size_t offset) {
  return waitFor(readAsync(buffer, data, bytes, offset));
}

Status Device::finish() {
  cl_int status = clFinish(queue());
  if (status != CL_SUCCESS)
    return driverFailure(status, "waiting for the commands on device " +
                                     quoted(deviceProfile.name));
  return Status::success();
}

Status Event::wait() const {
  cl_event events[] = {handle()};
  cl_int status = clWaitForEvents(1, events);
  if (status == CL_SUCCESS)
    return Status::success();
  // A command that failed while running reports its own (negative) status;
  // that says more than the wait's "an event in the list failed".
  cl_int execution = CL_COMPLETE;
  if (status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST &&
      clGetEventInfo(handle(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                     sizeof(execution), &execution, nullptr) == CL_SUCCESS &&
      execution < 0)
    status = execution;
  return driverFailure(status, text);
}

Expected<EventTiming> Event::timing() const {
  if (Status done = wait(); !done)
    return done.error();
  EventTiming timing;
  std::pair<cl_profiling_info, cl_ulong *> queries[] = {
      {CL_PROFILING_COMMAND_QUEUED, &timing.queuedNs},
      {CL_PROFILING_COMMAND_START, &timing.startNs},
      {CL_PROFILING_COMMAND_END, &timing.endNs}};
  for (auto [param, out] : queries) {
    cl_int status = clGetEventProfilingInfo(handle(), param, sizeof(cl_ulong),
                                            out, nullptr);
    if (status != CL_SUCCESS)
      return driverFailure(status, "reading the profiling times of " + text);
  }
  return timing;
}
