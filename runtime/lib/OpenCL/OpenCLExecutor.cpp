//===- OpenCLExecutor.cpp - Running a bundle on an OpenCL device ----------===//

#include "OpenCL/OpenCLExecutor.h"

#include "Failure.h"

#include "../StoragePlan.h"
#include "../StoredTensor.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <variant>

using namespace tilec;
using namespace tilec::opencl;

using OpenCLDeviceTensor = StoredTensor<Backend::OpenCL, Device, Buffer>;

Error OpenCLExecutor::fail(const std::string &message, int driverCode) const {
  return Error(label + ": " + message, driverCode);
}

OpenCLExecutor::OpenCLExecutor(Device &device, Bundle bundle, std::string name)
    : device(device), program(std::move(bundle)), label(std::move(name)),
      plan(std::make_unique<StoragePlan>(program)) {}

OpenCLExecutor::~OpenCLExecutor() = default;

const Buffer &OpenCLExecutor::storageOf(const Storage &bound,
                                        unsigned index) const {
  return *bound[plan->storageOwner(index)];
}

Expected<std::unique_ptr<OpenCLExecutor>>
OpenCLExecutor::create(Device &device, Bundle bundle, std::string name) {
  // A bundle built in memory (the JIT's) is checked as a file is.
  if (Status valid = validateBundle(bundle); !valid)
    return Error(name + ": " + valid.error().message());
  std::unique_ptr<OpenCLExecutor> executor(
      new OpenCLExecutor(device, std::move(bundle), std::move(name)));
  if (Status status = executor->allocateBuffers(); !status)
    return status.error();
  if (Status status = executor->buildKernels(); !status)
    return status.error();
  return executor;
}

Status OpenCLExecutor::allocateBuffers() {
  if (Status status = plan->checkFootprint(device.profile(), false); !status)
    return fail(status.error().message());
  storage.resize(program.buffers.size());
  streamed = !plan->fitsWhole(device.profile());
  if (streamed)
    return Status::success();
  for (unsigned i = 0; i < program.buffers.size(); ++i) {
    if (!plan->ownsStorage(i))
      continue;
    Expected<std::shared_ptr<const Buffer>> allocated = allocate(i);
    if (!allocated)
      return allocated.error();
    storage[i] = std::move(*allocated);
  }
  return Status::success();
}

Expected<std::shared_ptr<const Buffer>>
OpenCLExecutor::allocate(unsigned index) {
  const BundleBuffer &buffer = program.buffers[index];
  uint64_t bytes = bufferBytes(buffer);
  if (bytes > std::numeric_limits<size_t>::max())
    return fail("buffer " + quoted(buffer.name) + " of " +
                std::to_string(bytes) +
                " bytes does not fit this host's address space");
  Expected<Buffer> allocated =
      device.allocate(static_cast<size_t>(bytes), buffer.name);
  if (!allocated)
    return fail(allocated.error().message(), allocated.error().driverCode());
  return std::make_shared<const Buffer>(std::move(*allocated));
}

std::string tilec::getBundleBuildOptions(const opencl::Device &device) {
  std::string options = "-cl-std=CL1.2";
  cl_device_fp_config single = 0;
  if (clGetDeviceInfo(device.deviceHandle(), CL_DEVICE_SINGLE_FP_CONFIG,
                      sizeof single, &single, nullptr) == CL_SUCCESS &&
      (single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
    options += " -cl-fp32-correctly-rounded-divide-sqrt";
  return options;
}

/// The 1-based line of `source` at which kernel `name` is defined (the line
/// holding `name(` after `kernel` or `void`), or 0 if none is found.
static unsigned definitionLine(const std::string &source,
                               const std::string &name) {
  unsigned line = 1;
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos)
      end = source.size();
    std::string_view text(source.data() + start, end - start);
    size_t at = text.find(name + "(");
    if (at != std::string_view::npos &&
        (text.find("kernel") < at || text.find("void ") < at))
      return line;
    start = end + 1;
    ++line;
  }
  return 0;
}

/// The source line of the first error in a build log, or 0. Drivers print
/// "<source>:LINE:COL: error: ..." (NVIDIA's, clang's) or "error:
/// <source>:LINE:COL: ..." (PoCL's): the first ":LINE:COL" of the first
/// line that mentions an error.
static unsigned firstErrorLine(const std::string &log) {
  auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos)
      end = log.size();
    std::string_view line(log.data() + start, end - start);
    start = end + 1;
    if (line.find("error") == std::string_view::npos)
      continue;
    for (size_t colon = line.find(':'); colon != std::string_view::npos;
         colon = line.find(':', colon + 1)) {
      size_t digits = colon + 1;
      while (digits < line.size() && isDigit(line[digits]))
        ++digits;
      if (digits == colon + 1 || digits + 1 >= line.size() ||
          line[digits] != ':' || !isDigit(line[digits + 1]))
        continue;
      return static_cast<unsigned>(std::strtoul(
          std::string(line.substr(colon + 1, digits - colon - 1)).c_str(),
          nullptr, 10));
    }
  }
  return 0;
}

Status OpenCLExecutor::buildKernels() {
  if (program.openclSource.empty() && !program.kernels.empty())
    return fail("the bundle of " + quoted(program.function) +
                " has no OpenCL C: it was compiled without the opencl target");
  Expected<std::shared_ptr<const Program>> built = device.buildProgram(
      program.openclSource, getBundleBuildOptions(device), program.function);
  if (!built) {
    // Name the kernel in which the compiler found its first error: the one
    // defined last before the error's line.
    unsigned errorLine = firstErrorLine(built.error().message());
    std::optional<unsigned> culprit;
    unsigned culpritLine = 0;
    for (unsigned k = 0; k < program.kernels.size(); ++k) {
      unsigned line =
          definitionLine(program.openclSource, program.kernels[k].name);
      if (line && line <= errorLine && line > culpritLine) {
        culprit = k;
        culpritLine = line;
      }
    }
    std::string what = culprit
                           ? plan->describeKernel(*culprit) + " failed to build"
                           : "the program failed to build";
    return fail(what + ": " + built.error().message(),
                built.error().driverCode());
  }
  for (unsigned k = 0; k < program.kernels.size(); ++k) {
    Expected<Kernel> kernel =
        device.createKernel(*built, program.kernels[k].name);
    if (!kernel)
      return fail(plan->describeKernel(k) + ": " + kernel.error().message(),
                  kernel.error().driverCode());
    kernels.push_back(std::move(*kernel));
  }
  return Status::success();
}

Status OpenCLExecutor::upload(const Storage &bound, unsigned index,
                              const HostTensor &tensor) {
  for (unsigned part : plan->partsOf(index)) {
    const Buffer &buffer = storageOf(bound, part);
    if (Status status = device.write(
            buffer, tensor.data() + plan->partOffset(part), buffer.size());
        !status)
      return fail(status.error().message(), status.error().driverCode());
  }
  return Status::success();
}

Status OpenCLExecutor::poison(const Storage &bound, unsigned index) {
  if (!plan->isPoisoned(index))
    return Status::success();
  const cl_uchar pattern = 0xFF;
  cl_int status = clEnqueueFillBuffer(
      device.queue(), bound[index]->handle(), &pattern, sizeof(pattern), 0,
      bound[index]->size(), 0, nullptr, nullptr);
  if (status == CL_SUCCESS)
    return Status::success();
  return fail(driverFailure(status, "poisoning buffer " +
                                        quoted(program.buffers[index].name))
                  .message(),
              status);
}

Status OpenCLExecutor::poisonResults(const Storage &bound) {
  for (unsigned i = 0; i < program.buffers.size(); ++i)
    if (Status status = poison(bound, i); !status)
      return status;
  return Status::success();
}

Expected<std::optional<Event>> OpenCLExecutor::launch(const Storage &bound,
                                                      size_t index) {
  const BundleLaunch &launch = program.launches[index];
  auto range = [&](const std::array<uint64_t, 3> &sizes) {
    if (launch.dims == 1)
      return NDRange(sizes[0]);
    if (launch.dims == 2)
      return NDRange(sizes[0], sizes[1]);
    return NDRange(sizes[0], sizes[1], sizes[2]);
  };
  NDRange global = range(launch.globalSize);
  if (global.count() == 0)
    return std::optional<Event>();
  std::vector<KernelArg> args;
  for (unsigned arg : launch.args)
    args.push_back(KernelArg::buffer(storageOf(bound, arg)));
  Expected<Event> event = device.launch(kernels[launch.kernel], args, global,
                                        range(launch.localSize));
  if (!event)
    return fail(plan->describeKernel(launch.kernel) + ": " +
                    event.error().message(),
                event.error().driverCode());
  return std::optional<Event>(std::move(*event));
}

Expected<std::vector<std::optional<Event>>>
OpenCLExecutor::launchAll(const Storage &bound) {
  // Enqueue everything, then wait: the queue is in order, and the host does
  // not stall the device between launches.
  std::vector<std::optional<Event>> events(program.launches.size());
  for (size_t l = 0; l < program.launches.size(); ++l) {
    Expected<std::optional<Event>> event = launch(bound, l);
    if (!event)
      return event.error();
    events[l] = std::move(*event);
  }
  return events;
}

Expected<std::vector<uint64_t>> OpenCLExecutor::timeLaunches(
    const std::vector<std::optional<Event>> &events) const {
  std::vector<uint64_t> launchNs(program.launches.size(), 0);
  for (size_t l = 0; l < events.size(); ++l) {
    const std::optional<Event> &event = events[l];
    if (!event)
      continue;
    Expected<EventTiming> timing = event->timing();
    if (!timing)
      return fail(plan->describeKernel(program.launches[l].kernel) + ": " +
                      timing.error().message(),
                  timing.error().driverCode());
    launchNs[l] = timing->durationNs();
  }
  return launchNs;
}

Expected<BundleRun>
OpenCLExecutor::runStreamed(Storage &bound,
                            const std::vector<const HostTensor *> &hostInputs,
                            bool deviceResident, bool readOutputs) {
  Residency residency = plan->planResidency(deviceResident);
  BundleRun result;
  // Which outputs each part holds bytes of, to read back when it goes.
  std::vector<std::vector<unsigned>> outputsIn(program.buffers.size());
  if (readOutputs)
    for (unsigned o = 0; o < program.outputs.size(); ++o) {
      const BundleBuffer &buffer = program.buffers[program.outputs[o]];
      result.outputs.emplace_back(buffer.dtype, buffer.shape);
      for (unsigned part : plan->outputParts(program.outputs[o]))
        outputsIn[part].push_back(o);
    }
  std::vector<const HostTensor *> source(program.buffers.size(), nullptr);
  for (unsigned i = 0; i < hostInputs.size(); ++i)
    for (unsigned part : plan->partsOf(program.inputs[i]))
      source[part] = hostInputs[i];

  std::vector<std::optional<Event>> events(program.launches.size());
  uint64_t held = 0;
  size_t end = program.launches.size();
  for (size_t step = 0; step <= end; ++step) {
    for (unsigned part : residency.allocated[step]) {
      held += residency.ranges[part].bytes;
      result.peakDeviceBytes = std::max(result.peakDeviceBytes, held);
      if (bound[part])
        continue;
      Expected<std::shared_ptr<const Buffer>> allocated = allocate(part);
      if (!allocated)
        return allocated.error();
      bound[part] = std::move(*allocated);
      if (const HostTensor *host = source[part])
        if (Status status = device.write(*bound[part],
                                         host->data() + plan->partOffset(part),
                                         bound[part]->size());
            !status)
          return fail(status.error().message(), status.error().driverCode());
      if (Status status = poison(bound, part); !status)
        return status.error();
    }
    if (step < end) {
      Expected<std::optional<Event>> event = launch(bound, step);
      if (!event)
        return event.error();
      events[step] = std::move(*event);
    }
    if (residency.released[step].empty())
      continue;
    // OpenCL releases a buffer once the commands using it are done; wait
    // for them, so that the next allocation finds the memory free.
    if (Status status = device.finish(); !status)
      return fail(status.error().message(), status.error().driverCode());
    for (unsigned part : residency.released[step]) {
      for (unsigned o : outputsIn[part])
        if (Status status = device.read(
                *bound[part], result.outputs[o].data() + plan->partOffset(part),
                bound[part]->size());
            !status)
          return fail(status.error().message(), status.error().driverCode());
      held -= residency.ranges[part].bytes;
      // What stays to the end of a device-resident run is its result.
      if (step < end)
        bound[part].reset();
    }
  }
  Expected<std::vector<uint64_t>> launchNs = timeLaunches(events);
  if (!launchNs)
    return launchNs.error();
  result.launchNs = std::move(*launchNs);
  return result;
}

Expected<BundleRun> OpenCLExecutor::run(const std::vector<HostTensor> &inputs) {
  if (Status status = checkBundleInputs(program, inputs); !status)
    return fail(status.error().message());
  if (streamed) {
    Storage bound(program.buffers.size());
    std::vector<const HostTensor *> hostInputs;
    for (const HostTensor &input : inputs)
      hostInputs.push_back(&input);
    return runStreamed(bound, hostInputs, false, true);
  }
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status status = upload(storage, program.inputs[i], inputs[i]); !status)
      return status.error();
  if (Status status = poisonResults(storage); !status)
    return status.error();
  Expected<std::vector<std::optional<Event>>> events = launchAll(storage);
  if (!events)
    return events.error();

  BundleRun result;
  Expected<std::vector<uint64_t>> launchNs = timeLaunches(*events);
  if (!launchNs)
    return launchNs.error();
  result.launchNs = std::move(*launchNs);
  result.peakDeviceBytes = plan->totalBytes();

  for (unsigned output : program.outputs) {
    const BundleBuffer &buffer = program.buffers[output];
    HostTensor tensor(buffer.dtype, buffer.shape);
    for (unsigned part : plan->partsOf(output)) {
      const Buffer &partStorage = storageOf(storage, part);
      if (Status status =
              device.read(partStorage, tensor.data() + plan->partOffset(part),
                          partStorage.size());
          !status)
        return fail(status.error().message(), status.error().driverCode());
    }
    result.outputs.push_back(std::move(tensor));
  }
  return result;
}

Expected<std::vector<std::shared_ptr<DeviceTensor>>>
OpenCLExecutor::runOnDevice(const std::vector<RunInput> &inputs) {
  if (Status status = plan->checkInputCount(inputs.size()); !status)
    return fail(status.error().message());
  if (streamed)
    if (Status status = plan->checkFootprint(device.profile(), true); !status)
      return fail(status.error().message());
  Storage bound = storage;
  std::vector<const HostTensor *> hostInputs(inputs.size(), nullptr);
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (const auto *onDevice =
            std::get_if<std::shared_ptr<const DeviceTensor>>(&inputs[i])) {
      if (Status status = OpenCLDeviceTensor::bindInput(
              *plan, program, i, *onDevice, device, bound);
          !status)
        return fail(status.error().message());
      continue;
    }
    const HostTensor *host = std::get<const HostTensor *>(inputs[i]);
    if (Status status = plan->checkHostInput(i, host); !status)
      return fail(status.error().message());
    hostInputs[i] = host;
  }
  if (streamed) {
    if (Expected<BundleRun> done =
            runStreamed(bound, hostInputs, /*deviceResident=*/true,
                        /*readOutputs=*/false);
        !done)
      return done.error();
    return OpenCLDeviceTensor::wrapOutputs(*plan, program, device, bound);
  }
  for (unsigned i = 0; i < inputs.size(); ++i)
    if (hostInputs[i])
      if (Status status = upload(bound, program.inputs[i], *hostInputs[i]);
          !status)
        return status.error();
  // Fresh storage for every output, which the returned tensors keep. An
  // output that is another buffer under a new shape keeps that buffer's.
  for (unsigned part : plan->freshParts()) {
    Expected<std::shared_ptr<const Buffer>> allocated = allocate(part);
    if (!allocated)
      return allocated.error();
    bound[part] = std::move(*allocated);
  }
  if (Status status = poisonResults(bound); !status)
    return status.error();
  if (Expected<std::vector<std::optional<Event>>> events = launchAll(bound);
      !events)
    return events.error();
  if (Status status = device.finish(); !status)
    return fail(status.error().message(), status.error().driverCode());

  return OpenCLDeviceTensor::wrapOutputs(*plan, program, device, bound);
}
