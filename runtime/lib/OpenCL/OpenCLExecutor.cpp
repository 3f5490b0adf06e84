//===- OpenCLExecutor.cpp - Running a bundle on an OpenCL device ----------===//

#include "tilec/Runtime/OpenCLExecutor.h"

#include "Failure.h"

#include "tilec/Runtime/TensorSummary.h"

#include <cstdlib>
#include <limits>
#include <variant>

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

namespace {
/// An output kept on an OpenCL device: the storage of the tensor, or of its
/// pieces in order.
class OpenCLDeviceTensor final : public DeviceTensor {
public:
  struct Part {
    std::shared_ptr<const Buffer> buffer;
    /// The part's first byte within the tensor's bytes.
    uint64_t byteOffset = 0;
  };

  OpenCLDeviceTensor(Device &device, DType dtype, Shape shape,
                     std::vector<Part> parts)
      : DeviceTensor(dtype, std::move(shape)), device(device),
        parts(std::move(parts)) {}

  Backend backend() const override { return Backend::OpenCL; }
  Expected<HostTensor> read() const override {
    HostTensor tensor(dtype(), shape());
    for (const Part &part : parts)
      if (Status status =
              device.read(*part.buffer, tensor.data() + part.byteOffset,
                          part.buffer->size());
          !status)
        return status.error();
    return tensor;
  }

  Device &owner() const { return device; }
  const std::vector<Part> &storage() const { return parts; }

private:
  Device &device;
  std::vector<Part> parts;
};
} // namespace

const Buffer &OpenCLExecutor::storageOf(const Storage &bound,
                                        unsigned index) const {
  return *bound[storageOwner(index)];
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
    if (!ownsStorage(i))
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
  uint64_t bytes = byteSize(buffer);
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

unsigned OpenCLExecutor::storageOwner(unsigned index) const {
  return program.buffers[index].aliasOf.value_or(index);
}

std::vector<unsigned> OpenCLExecutor::partsOf(unsigned index) const {
  if (pieces[index].empty())
    return {index};
  return pieces[index];
}

/// The byte offset of bundle buffer `index` within the tensor it is part of.
static uint64_t partOffset(const Bundle &bundle, unsigned index) {
  const std::optional<BufferPiece> &piece = bundle.buffers[index].pieceOf;
  return piece ? piece->byteOffset : 0;
}

Status OpenCLExecutor::upload(const Storage &bound, unsigned index,
                              const HostTensor &tensor) {
  for (unsigned part : partsOf(index)) {
    const Buffer &buffer = storageOf(bound, part);
    if (Status status = device.write(
            buffer, tensor.data() + partOffset(program, part), buffer.size());
        !status)
      return fail(status.error().message(), status.error().driverCode());
  }
  return Status::success();
}

Status OpenCLExecutor::bindDeviceInput(Storage &bound, unsigned input,
                                       const DeviceTensor &tensor) const {
  const BundleBuffer &expected = program.buffers[program.inputs[input]];
  if (tensor.backend() != Backend::OpenCL)
    return fail("input " + quoted(expected.name) + " is a " +
                backendName(tensor.backend()) +
                " device tensor, not an OpenCL one");
  const auto &onDevice = static_cast<const OpenCLDeviceTensor &>(tensor);
  if (&onDevice.owner() != &device)
    return fail("input " + quoted(expected.name) +
                " is a tensor of another OpenCL device");
  if (tensor.dtype() != expected.dtype || tensor.shape() != expected.shape)
    return fail("input " + quoted(expected.name) + " is " +
                formatTensorType(tensor.dtype(), tensor.shape()) +
                " but the bundle expects " +
                formatTensorType(expected.dtype, expected.shape));
  std::vector<unsigned> parts = partsOf(program.inputs[input]);
  const std::vector<OpenCLDeviceTensor::Part> &given = onDevice.storage();
  bool samePieces = parts.size() == given.size();
  for (size_t p = 0; samePieces && p < parts.size(); ++p)
    samePieces = partOffset(program, parts[p]) == given[p].byteOffset &&
                 byteSize(program.buffers[parts[p]]) == given[p].buffer->size();
  if (!samePieces)
    return fail("input " + quoted(expected.name) +
                " is stored in other pieces than this bundle's");
  for (size_t p = 0; p < parts.size(); ++p)
    bound[parts[p]] = given[p].buffer;
  return Status::success();
}

Status OpenCLExecutor::poisonResults(const Storage &bound) {
  const cl_uchar pattern = 0xFF;
  for (unsigned i = 0; i < program.buffers.size(); ++i) {
    const BundleBuffer &buffer = program.buffers[i];
    BundleBuffer::Kind kind = buffer.pieceOf
                                  ? program.buffers[buffer.pieceOf->whole].kind
                                  : buffer.kind;
    if (!ownsStorage(i) || kind == BundleBuffer::Kind::Input ||
        bound[i]->size() == 0)
      continue;
    cl_int status = clEnqueueFillBuffer(device.queue(), bound[i]->handle(),
                                        &pattern, sizeof(pattern), 0,
                                        bound[i]->size(), 0, nullptr, nullptr);
    if (status != CL_SUCCESS)
      return fail(
          driverFailure(status, "poisoning buffer " + quoted(buffer.name))
              .message(),
          status);
  }
  return Status::success();
}

Expected<std::vector<std::optional<Event>>>
OpenCLExecutor::launchAll(const Storage &bound) {
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
      args.push_back(KernelArg::buffer(storageOf(bound, arg)));
    Expected<Event> event = device.launch(kernels[launch.kernel], args, global,
                                          range(launch.localSize));
    if (!event)
      return fail(describeKernel(launch.kernel) + ": " +
                      event.error().message(),
                  event.error().driverCode());
    events[l] = std::move(*event);
  }
  return events;
}

Expected<BundleRun> OpenCLExecutor::run(const std::vector<HostTensor> &inputs) {
  if (Status status = checkBundleInputs(program, inputs); !status)
    return fail(status.error().message());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status status = upload(storage, program.inputs[i], inputs[i]); !status)
      return status.error();
  if (Status status = poisonResults(storage); !status)
    return status.error();
  Expected<std::vector<std::optional<Event>>> events = launchAll(storage);
  if (!events)
    return events.error();

  BundleRun result;
  result.launchNs.assign(program.launches.size(), 0);
  for (size_t l = 0; l < events->size(); ++l) {
    const std::optional<Event> &event = (*events)[l];
    if (!event)
      continue;
    Expected<EventTiming> timing = event->timing();
    if (!timing)
      return fail(describeKernel(program.launches[l].kernel) + ": " +
                      timing.error().message(),
                  timing.error().driverCode());
    result.launchNs[l] = timing->durationNs();
  }

  for (unsigned output : program.outputs) {
    const BundleBuffer &buffer = program.buffers[output];
    HostTensor tensor(buffer.dtype, buffer.shape);
    for (unsigned part : partsOf(output)) {
      const Buffer &partStorage = storageOf(storage, part);
      if (Status status = device.read(partStorage,
                                      tensor.data() + partOffset(program, part),
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
  if (inputs.size() != program.inputs.size())
    return fail("the bundle of '" + program.function + "' takes " +
                std::to_string(program.inputs.size()) + " inputs, not " +
                std::to_string(inputs.size()));
  Storage bound = storage;
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (const auto *onDevice =
            std::get_if<std::shared_ptr<const DeviceTensor>>(&inputs[i])) {
      if (!*onDevice)
        return fail("input " + quoted(program.buffers[program.inputs[i]].name) +
                    " is a null device tensor");
      if (Status status = bindDeviceInput(bound, i, **onDevice); !status)
        return status.error();
      continue;
    }
    const HostTensor *host = std::get<const HostTensor *>(inputs[i]);
    const BundleBuffer &expected = program.buffers[program.inputs[i]];
    if (!host || host->dtype() != expected.dtype ||
        host->shape() != expected.shape)
      return fail("input " + quoted(expected.name) + " is " +
                  (host ? formatTensorType(host->dtype(), host->shape())
                        : std::string("a null host tensor")) +
                  " but the bundle expects " +
                  formatTensorType(expected.dtype, expected.shape));
    if (Status status = upload(bound, program.inputs[i], *host); !status)
      return status.error();
  }
  // Fresh storage for every output, which the returned tensors keep. An
  // output that is another buffer under a new shape keeps that buffer's.
  std::vector<bool> fresh(program.buffers.size(), false);
  for (unsigned output : program.outputs) {
    unsigned owner = storageOwner(output);
    if (program.buffers[owner].kind == BundleBuffer::Kind::Input ||
        fresh[owner])
      continue;
    fresh[owner] = true;
    for (unsigned part : partsOf(owner)) {
      Expected<std::shared_ptr<const Buffer>> allocated = allocate(part);
      if (!allocated)
        return allocated.error();
      bound[part] = std::move(*allocated);
    }
  }
  if (Status status = poisonResults(bound); !status)
    return status.error();
  if (Expected<std::vector<std::optional<Event>>> events = launchAll(bound);
      !events)
    return events.error();
  if (Status status = device.finish(); !status)
    return fail(status.error().message(), status.error().driverCode());

  std::vector<std::shared_ptr<DeviceTensor>> results;
  for (unsigned output : program.outputs) {
    std::vector<OpenCLDeviceTensor::Part> parts;
    for (unsigned part : partsOf(storageOwner(output)))
      parts.push_back({bound[part], partOffset(program, part)});
    const BundleBuffer &buffer = program.buffers[output];
    results.push_back(std::make_shared<OpenCLDeviceTensor>(
        device, buffer.dtype, buffer.shape, std::move(parts)));
  }
  return results;
}
