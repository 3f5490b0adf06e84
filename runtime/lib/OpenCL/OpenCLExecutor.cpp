//===- OpenCLExecutor.cpp - Running a bundle on an OpenCL device ----------===//

#include "OpenCL/OpenCLExecutor.h"

#include "Failure.h"

#include "../RunSkeleton.h"

#include <cstdlib>
#include <limits>

using namespace tilec;
using namespace tilec::opencl;

/// The run skeleton with OpenCL's steps: transfers block, fills and
/// launches are enqueued on the in-order queue, and each launch's event
/// gives its device time.
class OpenCLExecutor::Runner final
    : public RunSkeleton<Backend::OpenCL, Device, Buffer> {
public:
  Runner(Device &device, Bundle bundle, std::string name)
      : RunSkeleton(device, std::move(bundle), std::move(name)),
        events(this->bundle().launches.size()) {}

  using RunSkeleton::allocateStorage;
  using RunSkeleton::checkBundle;
  /// Builds the program and creates the kernels.
  Status buildKernels();

private:
  Expected<std::shared_ptr<const Buffer>> allocate(unsigned part) override;
  void beginRun(bool timed) override { timedRun = timed; }
  Status write(const Storage &bound, unsigned part,
               const uint8_t *data) override;
  Status fill(const Storage &bound, unsigned part) override;
  Status launch(const Storage &bound, size_t index) override;
  Status read(const Storage &bound, unsigned part, uint8_t *data) override;
  Status synchronise(const Storage &bound) override;
  Expected<std::vector<uint64_t>> launchTimes() override;

  /// The buffer that holds the storage of bundle buffer `index`.
  const Buffer &storageOf(const Storage &bound, unsigned index) const {
    return *bound[plan->storageOwner(index)];
  }

  std::vector<Kernel> kernels;
  /// Whether the run's launches get events, for their times.
  bool timedRun = true;
  /// The event of each launch of the last timed run; none for those
  /// skipped.
  std::vector<std::optional<Event>> events;
};

Expected<std::unique_ptr<OpenCLExecutor>>
OpenCLExecutor::create(Device &device, Bundle bundle, std::string name) {
  if (Status valid = Runner::checkBundle(bundle, name); !valid)
    return valid.error();
  auto runner =
      std::make_unique<Runner>(device, std::move(bundle), std::move(name));
  if (Status status = runner->allocateStorage(); !status)
    return status.error();
  if (Status status = runner->buildKernels(); !status)
    return status.error();
  return std::unique_ptr<OpenCLExecutor>(new OpenCLExecutor(std::move(runner)));
}

OpenCLExecutor::OpenCLExecutor(std::unique_ptr<Runner> runner)
    : runner(std::move(runner)) {}

OpenCLExecutor::~OpenCLExecutor() = default;

const Bundle &OpenCLExecutor::bundle() const { return runner->bundle(); }

Expected<BundleRun> OpenCLExecutor::run(const std::vector<HostTensor> &inputs) {
  return runner->run(inputs);
}

void OpenCLExecutor::setProgress(RunProgress progress) {
  runner->setProgress(std::move(progress));
}

Expected<std::vector<std::shared_ptr<DeviceTensor>>>
OpenCLExecutor::runOnDevice(const std::vector<RunInput> &inputs) {
  return runner->runOnDevice(inputs);
}

Expected<std::shared_ptr<const Buffer>>
OpenCLExecutor::Runner::allocate(unsigned part) {
  const BundleBuffer &buffer = bundle().buffers[part];
  uint64_t bytes = bufferBytes(buffer);
  if (bytes > std::numeric_limits<size_t>::max())
    return fail("buffer " + quoted(buffer.name) + " of " +
                std::to_string(bytes) +
                " bytes does not fit this host's address space");
  Expected<Buffer> allocated =
      device.allocate(static_cast<size_t>(bytes), buffer.name);
  if (!allocated)
    return fail(allocated.error());
  return std::make_shared<const Buffer>(std::move(*allocated));
}

std::string tilec::getBundleBuildOptions(const opencl::Device &device) {
  std::string options = "-cl-std=CL1.2";
  cl_device_fp_config single = 0;
  if (clGetDeviceInfo(device.deviceHandle(), CL_DEVICE_SINGLE_FP_CONFIG,
                      sizeof single, &single, nullptr) == CL_SUCCESS &&
      (single & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
    options += " -cl-fp32-correctly-rounded-divide-sqrt";
  if (!device.optimizesCode())
    options += " -cl-opt-disable";
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

Status OpenCLExecutor::Runner::buildKernels() {
  if (bundle().openclSource.empty() && !bundle().kernels.empty())
    return fail("the bundle of " + quoted(bundle().function) +
                " has no OpenCL C: it was compiled without the opencl target");
  Expected<std::shared_ptr<const Program>> built = device.buildProgram(
      bundle().openclSource, getBundleBuildOptions(device), bundle().function);
  if (!built) {
    // Name the kernel in which the compiler found its first error: the one
    // defined last before the error's line.
    unsigned errorLine = firstErrorLine(built.error().message());
    std::optional<unsigned> culprit;
    unsigned culpritLine = 0;
    for (unsigned k = 0; k < bundle().kernels.size(); ++k) {
      unsigned line =
          definitionLine(bundle().openclSource, bundle().kernels[k].name);
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
  for (unsigned k = 0; k < bundle().kernels.size(); ++k) {
    Expected<Kernel> kernel =
        device.createKernel(*built, bundle().kernels[k].name);
    if (!kernel)
      return fail(plan->describeKernel(k) + ": " + kernel.error().message(),
                  kernel.error().driverCode());
    kernels.push_back(std::move(*kernel));
  }
  return Status::success();
}

Status OpenCLExecutor::Runner::write(const Storage &bound, unsigned part,
                                     const uint8_t *data) {
  const Buffer &buffer = *bound[part];
  if (Status status = device.write(buffer, data, buffer.size()); !status)
    return fail(status.error());
  return Status::success();
}

Status OpenCLExecutor::Runner::fill(const Storage &bound, unsigned part) {
  const cl_uchar pattern = plan->fillByte(part);
  cl_int status = clEnqueueFillBuffer(device.queue(), bound[part]->handle(),
                                      &pattern, sizeof(pattern), 0,
                                      bound[part]->size(), 0, nullptr, nullptr);
  if (status == CL_SUCCESS)
    return Status::success();
  return fail(driverFailure(status, "filling buffer " +
                                        quoted(bundle().buffers[part].name))
                  .message(),
              status);
}

Status OpenCLExecutor::Runner::launch(const Storage &bound, size_t index) {
  const BundleLaunch &launch = bundle().launches[index];
  auto range = [&](const std::array<uint64_t, 3> &sizes) {
    if (launch.dims == 1)
      return NDRange(sizes[0]);
    if (launch.dims == 2)
      return NDRange(sizes[0], sizes[1]);
    return NDRange(sizes[0], sizes[1], sizes[2]);
  };
  std::vector<KernelArg> args;
  args.reserve(launch.args.size());
  for (unsigned arg : launch.args)
    args.push_back(KernelArg::buffer(storageOf(bound, arg)));
  // Enqueued without waiting: the queue is in order, and the host does not
  // stall the device between launches. An untimed launch gets no event,
  // which the driver would otherwise create, time and release.
  Kernel &kernel = kernels[launch.kernel];
  Status launched = Status::success();
  if (timedRun) {
    Expected<Event> event = device.launch(
        kernel, args, range(launch.globalSize), range(launch.localSize));
    if (event)
      events[index] = std::move(*event);
    else
      launched = event.error();
  } else {
    launched = device.enqueue(kernel, args, range(launch.globalSize),
                              range(launch.localSize));
  }
  if (!launched)
    return fail(plan->describeKernel(launch.kernel) + ": " +
                    launched.error().message(),
                launched.error().driverCode());
  return Status::success();
}

Status OpenCLExecutor::Runner::read(const Storage &bound, unsigned part,
                                    uint8_t *data) {
  const Buffer &buffer = storageOf(bound, part);
  if (Status status = device.read(buffer, data, buffer.size()); !status)
    return fail(status.error());
  return Status::success();
}

Status OpenCLExecutor::Runner::synchronise(const Storage &) {
  // OpenCL releases a buffer once the commands using it are done; waiting
  // for them lets the next allocation find the memory free.
  if (Status status = device.finish(); !status)
    return fail(status.error());
  return Status::success();
}

Expected<std::vector<uint64_t>> OpenCLExecutor::Runner::launchTimes() {
  std::vector<uint64_t> launchNs(bundle().launches.size(), 0);
  for (size_t l = 0; l < events.size(); ++l) {
    const std::optional<Event> &event = events[l];
    if (!event)
      continue;
    Expected<EventTiming> timing = event->timing();
    if (!timing)
      return fail(plan->describeKernel(bundle().launches[l].kernel) + ": " +
                      timing.error().message(),
                  timing.error().driverCode());
    launchNs[l] = timing->durationNs();
  }
  return launchNs;
}
