//===- OpenCLExecutor.cpp - Running a bundle on an OpenCL device ----------===//

#include "tilec/Runtime/OpenCLExecutor.h"

#include "Failure.h"

#include "tilec/Runtime/TensorSummary.h"

#include <cstdlib>
#include <functional>
#include <limits>

using namespace tilec;
using namespace tilec::opencl;

/// The bytes of `buffer`'s elements (the bundle parser has checked that
/// this does not overflow).
static uint64_t byteSize(const BundleBuffer &buffer) {
  return static_cast<uint64_t>(numElements(buffer.shape).value_or(0)) *
         dtypeSize(buffer.dtype);
}

Error OpenCLExecutor::fail(const std::string &message, int driverCode) const {
  return Error(label + ": " + message, driverCode);
}

std::string OpenCLExecutor::describeKernel(unsigned kernel) const {
  const BundleKernel &info = program.kernels[kernel];
  std::string text = "kernel " + quoted(info.name);
  if (!info.sourceLocation.empty())
    text += " (" + info.sourceLocation + ")";
  return text;
}

const Buffer &OpenCLExecutor::storageOf(unsigned index) const {
  const BundleBuffer &buffer = program.buffers[index];
  return *storage[buffer.aliasOf ? *buffer.aliasOf : index];
}

Expected<std::unique_ptr<OpenCLExecutor>>
OpenCLExecutor::create(Device &device, Bundle bundle, std::string name) {
  std::unique_ptr<OpenCLExecutor> executor(
      new OpenCLExecutor(device, std::move(bundle), std::move(name)));
  if (Status status = executor->allocateBuffers(); !status)
    return status.error();
  if (Status status = executor->buildKernels(); !status)
    return status.error();
  return executor;
}

bool OpenCLExecutor::ownsStorage(unsigned index) const {
  return !program.buffers[index].aliasOf && pieces[index].empty();
}

Status OpenCLExecutor::allocateBuffers() {
  pieces.assign(program.buffers.size(), {});
  for (unsigned i = 0; i < program.buffers.size(); ++i)
    if (const std::optional<BufferPiece> &piece = program.buffers[i].pieceOf)
      pieces[piece->whole].push_back(i);

  // The footprint as a whole first: each allocation may fit the device while
  // all of them together do not.
  uint64_t total = 0;
  for (unsigned i = 0; i < program.buffers.size(); ++i)
    if (ownsStorage(i))
      total += byteSize(program.buffers[i]);
  const DeviceProfile &profile = device.profile();
  if (total > profile.globalMemBytes)
    return fail("the buffers of '" + program.function + "' take " +
                std::to_string(total) + " bytes, more than the " +
                std::to_string(profile.globalMemBytes) +
                " bytes of global memory of device " + quoted(profile.name) +
                " (global_mem_bytes of its profile)");

  storage.resize(program.buffers.size());
  for (unsigned i = 0; i < program.buffers.size(); ++i) {
    const BundleBuffer &buffer = program.buffers[i];
    if (!ownsStorage(i))
      continue;
    uint64_t bytes = byteSize(buffer);
    if (bytes > std::numeric_limits<size_t>::max())
      return fail("buffer " + quoted(buffer.name) + " of " +
                  std::to_string(bytes) +
                  " bytes does not fit this host's address space");
    Expected<Buffer> allocated =
        device.allocate(static_cast<size_t>(bytes), buffer.name);
    if (!allocated)
      return fail(allocated.error().message(), allocated.error().driverCode());
    storage[i] = std::move(*allocated);
  }
  return Status::success();
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
    std::string what = culprit ? describeKernel(*culprit) + " failed to build"
                               : "the program failed to build";
    return fail(what + ": " + built.error().message(),
                built.error().driverCode());
  }
  for (unsigned k = 0; k < program.kernels.size(); ++k) {
    Expected<Kernel> kernel =
        device.createKernel(*built, program.kernels[k].name);
    if (!kernel)
      return fail(describeKernel(k) + ": " + kernel.error().message(),
                  kernel.error().driverCode());
    kernels.push_back(std::move(*kernel));
  }
  return Status::success();
}

Status OpenCLExecutor::forEachPart(
    unsigned index,
    const std::function<Status(const Buffer &, uint64_t)> &visit) const {
  if (pieces[index].empty())
    return visit(storageOf(index), 0);
  for (unsigned piece : pieces[index])
    if (Status status =
            visit(storageOf(piece), program.buffers[piece].pieceOf->byteOffset);
        !status)
      return status;
  return Status::success();
}

Status OpenCLExecutor::poisonResults() {
  const cl_uchar pattern = 0xFF;
  for (unsigned i = 0; i < program.buffers.size(); ++i) {
    const BundleBuffer &buffer = program.buffers[i];
    BundleBuffer::Kind kind = buffer.pieceOf
                                  ? program.buffers[buffer.pieceOf->whole].kind
                                  : buffer.kind;
    if (!ownsStorage(i) || kind == BundleBuffer::Kind::Input ||
        storage[i]->size() == 0)
      continue;
    cl_int status = clEnqueueFillBuffer(
        device.queue(), storage[i]->handle(), &pattern, sizeof(pattern), 0,
        storage[i]->size(), 0, nullptr, nullptr);
    if (status != CL_SUCCESS)
      return fail(
          driverFailure(status, "poisoning buffer " + quoted(buffer.name))
              .message(),
          status);
  }
  return Status::success();
}

Expected<BundleRun> OpenCLExecutor::run(const std::vector<HostTensor> &inputs) {
  if (Status status = checkBundleInputs(program, inputs); !status)
    return fail(status.error().message());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status status =
            forEachPart(program.inputs[i],
                        [&](const Buffer &part, uint64_t byteOffset) {
                          return device.write(
                              part, inputs[i].data() + byteOffset, part.size());
                        });
        !status)
      return fail(status.error().message(), status.error().driverCode());
  if (Status status = poisonResults(); !status)
    return status.error();

  // Enqueue everything, then wait: the queue is in order, and the host does
  // not stall the device between launches.
  std::vector<std::optional<Event>> events(program.launches.size());
  for (size_t l = 0; l < program.launches.size(); ++l) {
    const BundleLaunch &launch = program.launches[l];
    auto range = [&](const std::array<uint64_t, 3> &sizes) {
      if (launch.dims == 1)
        return NDRange(sizes[0]);
      if (launch.dims == 2)
        return NDRange(sizes[0], sizes[1]);
      return NDRange(sizes[0], sizes[1], sizes[2]);
    };
    NDRange global = range(launch.globalSize);
    if (global.count() == 0)
      continue;
    std::vector<KernelArg> args;
    for (unsigned arg : launch.args)
      args.push_back(KernelArg::buffer(storageOf(arg)));
    Expected<Event> event = device.launch(kernels[launch.kernel], args, global,
                                          range(launch.localSize));
    if (!event)
      return fail(describeKernel(launch.kernel) + ": " +
                      event.error().message(),
                  event.error().driverCode());
    events[l] = std::move(*event);
  }

  BundleRun result;
  result.launchNs.assign(program.launches.size(), 0);
  for (size_t l = 0; l < events.size(); ++l) {
    if (!events[l])
      continue;
    Expected<EventTiming> timing = events[l]->timing();
    if (!timing)
      return fail(describeKernel(program.launches[l].kernel) + ": " +
                      timing.error().message(),
                  timing.error().driverCode());
    result.launchNs[l] = timing->durationNs();
  }

  for (unsigned output : program.outputs) {
    const BundleBuffer &buffer = program.buffers[output];
    HostTensor tensor(buffer.dtype, buffer.shape);
    if (Status status = forEachPart(
            output,
            [&](const Buffer &part, uint64_t byteOffset) {
              return device.read(part, tensor.data() + byteOffset, part.size());
            });
        !status)
      return fail(status.error().message(), status.error().driverCode());
    result.outputs.push_back(std::move(tensor));
  }
  return result;
}
