//===- StoragePlan.cpp - How a bundle's buffers map onto storage ----------===//

#include "StoragePlan.h"

#include "tilec/Runtime/Plural.h"
#include "tilec/Runtime/TensorSummary.h"

using namespace tilec;

static std::string quoted(std::string_view name) {
  return "'" + std::string(name) + "'";
}

uint64_t tilec::bufferBytes(const BundleBuffer &buffer) {
  return static_cast<uint64_t>(numElements(buffer.shape).value_or(0)) *
         dtypeSize(buffer.dtype);
}

StoragePlan::StoragePlan(const Bundle &bundle)
    : bundle(bundle), pieces(bundle.buffers.size()),
      used(bundle.buffers.size(), false) {
  for (unsigned i = 0; i < bundle.buffers.size(); ++i)
    if (const std::optional<BufferPiece> &piece = bundle.buffers[i].pieceOf)
      pieces[piece->whole].push_back(i);
  for (const BundleLaunch &launch : bundle.launches)
    for (unsigned arg : launch.args)
      used[storageOwner(arg)] = true;
  for (unsigned output : bundle.outputs)
    for (unsigned part : partsOf(storageOwner(output)))
      used[part] = true;
}

bool StoragePlan::ownsStorage(unsigned index) const {
  return !bundle.buffers[index].aliasOf && pieces[index].empty() && used[index];
}

unsigned StoragePlan::storageOwner(unsigned index) const {
  return bundle.buffers[index].aliasOf.value_or(index);
}

std::vector<unsigned> StoragePlan::partsOf(unsigned index) const {
  if (pieces[index].empty())
    return {index};
  return pieces[index];
}

uint64_t StoragePlan::partOffset(unsigned index) const {
  const std::optional<BufferPiece> &piece = bundle.buffers[index].pieceOf;
  return piece ? piece->byteOffset : 0;
}

uint8_t StoragePlan::fillByte(unsigned index) const {
  return bundle.buffers[index].zeroed ? 0x00 : 0xFF;
}

bool StoragePlan::isFilled(unsigned index) const {
  const BundleBuffer &buffer = bundle.buffers[index];
  BundleBuffer::Kind kind =
      buffer.pieceOf ? bundle.buffers[buffer.pieceOf->whole].kind : buffer.kind;
  return ownsStorage(index) && kind != BundleBuffer::Kind::Input &&
         bufferBytes(buffer) != 0;
}

std::vector<unsigned>
StoragePlan::freshParts(const std::vector<bool> &fromHost) const {
  std::vector<bool> onDevice(bundle.buffers.size(), false);
  for (unsigned i = 0; i < bundle.inputs.size(); ++i)
    onDevice[bundle.inputs[i]] = !fromHost[i];
  std::vector<bool> seen(bundle.buffers.size(), false);
  std::vector<unsigned> parts;
  for (unsigned output : bundle.outputs) {
    unsigned owner = storageOwner(output);
    if (onDevice[owner] || seen[owner])
      continue;
    seen[owner] = true;
    for (unsigned part : partsOf(owner))
      parts.push_back(part);
  }
  return parts;
}

uint64_t StoragePlan::totalBytes() const {
  uint64_t total = 0;
  for (unsigned i = 0; i < bundle.buffers.size(); ++i)
    if (ownsStorage(i))
      total += bufferBytes(bundle.buffers[i]);
  return total;
}

bool StoragePlan::fitsWhole(const DeviceProfile &profile) const {
  return totalBytes() <= profile.globalMemBytes;
}

Residency StoragePlan::planResidency(bool deviceResident) const {
  std::vector<uint64_t> bytes(bundle.buffers.size(), 0);
  for (unsigned i = 0; i < bundle.buffers.size(); ++i)
    if (ownsStorage(i))
      bytes[i] = bufferBytes(bundle.buffers[i]);
  std::vector<std::vector<unsigned>> uses;
  for (const BundleLaunch &launch : bundle.launches) {
    std::vector<unsigned> &owners = uses.emplace_back();
    for (unsigned arg : launch.args)
      owners.push_back(storageOwner(arg));
  }
  Residency residency;
  residency.ranges = computeLiveRanges(bytes, uses);
  size_t end = bundle.launches.size();
  if (deviceResident) {
    // The outputs' storage other than inputs', then every input's: all
    // inputs are kept, however they are given.
    std::vector<unsigned> kept =
        freshParts(std::vector<bool>(bundle.inputs.size(), false));
    for (unsigned input : bundle.inputs)
      for (unsigned part : partsOf(input))
        kept.push_back(part);
    for (unsigned part : kept)
      residency.ranges[part].first = 0, residency.ranges[part].last = end;
  }
  residency.allocated.resize(end + 1);
  residency.released.resize(end + 1);
  for (unsigned i = 0; i < bundle.buffers.size(); ++i) {
    if (!ownsStorage(i))
      continue;
    residency.allocated[residency.ranges[i].first].push_back(i);
    residency.released[residency.ranges[i].last].push_back(i);
  }
  residency.peakBytes = computePeakBytes(residency.ranges);
  return residency;
}

Status StoragePlan::checkFootprint(const DeviceProfile &profile,
                                   bool deviceResident) const {
  if (fitsWhole(profile))
    return Status::success();
  uint64_t peak = planResidency(deviceResident).peakBytes;
  if (peak <= profile.globalMemBytes)
    return Status::success();
  return Error(
      "the buffers of '" + bundle.function + "' need " + std::to_string(peak) +
      " bytes at once even streamed through the device" +
      (deviceResident ? " with its inputs and outputs resident" : "") + " (" +
      std::to_string(totalBytes()) + " in all), more than the " +
      std::to_string(profile.globalMemBytes) +
      " bytes of global memory of device " + quoted(profile.name) +
      " (global_mem_bytes of its profile)");
}

std::vector<unsigned> StoragePlan::outputParts(unsigned output) const {
  return partsOf(storageOwner(output));
}

std::string StoragePlan::describeKernel(unsigned kernel) const {
  const BundleKernel &info = bundle.kernels[kernel];
  std::string text = "kernel " + quoted(info.name);
  if (!info.sourceLocation.empty())
    text += " (" + info.sourceLocation + ")";
  return text;
}

Status StoragePlan::checkInputCount(size_t count) const {
  if (count == bundle.inputs.size())
    return Status::success();
  return Error("the bundle of '" + bundle.function + "' takes " +
               pluralize(bundle.inputs.size(), "input") + ", not " +
               std::to_string(count));
}

Status StoragePlan::checkHostInput(unsigned input,
                                   const HostTensor *host) const {
  const BundleBuffer &expected = bundle.buffers[bundle.inputs[input]];
  if (host && host->dtype() == expected.dtype &&
      host->shape() == expected.shape)
    return Status::success();
  return Error("input " + quoted(expected.name) + " is " +
               (host ? formatTensorType(host->dtype(), host->shape())
                     : std::string("a null host tensor")) +
               " but the bundle expects " +
               formatTensorType(expected.dtype, expected.shape));
}

Status
StoragePlan::checkDeviceInput(unsigned input, const DeviceTensor &tensor,
                              Backend backend,
                              const std::vector<StoredPart> &parts) const {
  const BundleBuffer &expected = bundle.buffers[bundle.inputs[input]];
  if (tensor.backend() != backend)
    return Error("input " + quoted(expected.name) +
                 " is a device tensor of the " + backendName(tensor.backend()) +
                 " backend, not of " + backendName(backend));
  if (tensor.dtype() != expected.dtype || tensor.shape() != expected.shape)
    return Error("input " + quoted(expected.name) + " is " +
                 formatTensorType(tensor.dtype(), tensor.shape()) +
                 " but the bundle expects " +
                 formatTensorType(expected.dtype, expected.shape));
  std::vector<unsigned> expectedParts = partsOf(bundle.inputs[input]);
  bool samePieces = expectedParts.size() == parts.size();
  for (size_t p = 0; samePieces && p < parts.size(); ++p)
    samePieces =
        partOffset(expectedParts[p]) == parts[p].byteOffset &&
        bufferBytes(bundle.buffers[expectedParts[p]]) == parts[p].bytes;
  if (!samePieces)
    return Error("input " + quoted(expected.name) +
                 " is stored in other pieces than this bundle's");
  return Status::success();
}
