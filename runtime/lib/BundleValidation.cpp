//===- BundleValidation.cpp - What a bundle must be before it runs --------===//
//
// A bundle's file form is read by types alone (Bundle.cpp); what ties its
// parts together is checked here, before any buffer is allocated or kernel
// launched: the runtime trusts a bundle's intent (its kernels' code), never
// its consistency (docs/runtime.md, "Trust model").
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Bundle.h"

#include "CheckedArithmetic.h"
#include "tilec/Runtime/TensorSummary.h"

#include <limits>
#include <set>

using namespace tilec;

/// Checks the pieces of split tensors: `piece_of` exactly on pieces, naming
/// a whole tensor of the same dtype that is no alias, and the pieces of each
/// tensor, in buffer order, covering its bytes without gaps or overlaps.
/// Returns the first problem.
template <class BufferRef, class ByteSize>
static std::optional<std::string>
checkPieces(const Bundle &bundle, BufferRef bufferRef, ByteSize byteSize) {
  size_t numBuffers = bundle.buffers.size();
  // The end of the bytes covered so far, per tensor that has pieces.
  std::vector<std::optional<uint64_t>> covered(numBuffers);
  for (size_t i = 0; i < numBuffers; ++i) {
    const BundleBuffer &buffer = bundle.buffers[i];
    std::string where = "buffers[" + std::to_string(i) + "]";
    bool isPiece = buffer.kind == BundleBuffer::Kind::Piece;
    if (isPiece != buffer.pieceOf.has_value())
      return where + ": '" + buffer.name + "' " +
             (isPiece ? "is a piece without 'piece_of'"
                      : "has 'piece_of' but is not a piece");
    if (!isPiece)
      continue;
    if (buffer.aliasOf)
      return where + ": piece '" + buffer.name + "' cannot be an alias";
    unsigned whole = buffer.pieceOf->whole;
    if (whole >= numBuffers)
      return where + ".piece_of.buffer: " + std::to_string(whole) +
             " is out of range (the bundle has " + std::to_string(numBuffers) +
             " buffers)";
    const BundleBuffer &tensor = bundle.buffers[whole];
    if (tensor.kind == BundleBuffer::Kind::Piece || tensor.aliasOf)
      return where + ": '" + buffer.name + "' is a piece of " +
             bufferRef(whole) +
             ", which is not a whole tensor (a piece or an alias)";
    if (tensor.dtype != buffer.dtype)
      return where + ": piece '" + buffer.name + "' is " +
             dtypeName(buffer.dtype) + " but its tensor " + bufferRef(whole) +
             " is " + dtypeName(tensor.dtype);
    uint64_t expectedOffset = covered[whole].value_or(0);
    if (buffer.pieceOf->byteOffset != expectedOffset)
      return where + ": piece '" + buffer.name + "' starts at byte " +
             std::to_string(buffer.pieceOf->byteOffset) + " of " +
             bufferRef(whole) + ", but its pieces so far end at byte " +
             std::to_string(expectedOffset) +
             " (pieces cover their tensor in order, without gaps or "
             "overlaps)";
    covered[whole] = expectedOffset + *byteSize(buffer);
  }
  for (size_t i = 0; i < numBuffers; ++i) {
    if (!covered[i])
      continue;
    uint64_t bytes = *byteSize(bundle.buffers[i]);
    if (*covered[i] != bytes)
      return "buffers[" + std::to_string(i) + "]: the pieces of '" +
             bundle.buffers[i].name + "' cover " + std::to_string(*covered[i]) +
             " of its " + std::to_string(bytes) + " bytes";
    for (size_t b = 0; b < numBuffers; ++b)
      if (bundle.buffers[b].aliasOf == i)
        return "buffers[" + std::to_string(b) + "]: '" +
               bundle.buffers[b].name + "' is an alias of " + bufferRef(i) +
               ", which is stored as pieces";
  }
  for (size_t l = 0; l < bundle.launches.size(); ++l)
    for (size_t a = 0; a < bundle.launches[l].args.size(); ++a) {
      unsigned arg = bundle.launches[l].args[a];
      if (arg < numBuffers && covered[arg])
        return "launches[" + std::to_string(l) + "].args[" + std::to_string(a) +
               "]: " + bufferRef(arg) +
               " is stored as pieces; a launch takes its pieces";
    }
  return std::nullopt;
}

/// The buffer that owns `index`'s storage: an alias's target, else itself.
static unsigned storageOf(const Bundle &bundle, unsigned index) {
  return bundle.buffers[index].aliasOf.value_or(index);
}

/// Whether `index`'s storage holds (part of) an input: the host's data,
/// which no kernel may write.
static bool holdsInput(const Bundle &bundle, unsigned index) {
  const BundleBuffer &owner = bundle.buffers[storageOf(bundle, index)];
  const BundleBuffer &tensor =
      owner.pieceOf ? bundle.buffers[owner.pieceOf->whole] : owner;
  return tensor.kind == BundleBuffer::Kind::Input;
}

/// Checks one launch's sizes against its kernel's and that its work-items
/// can be counted.
static std::optional<std::string> checkGeometry(const BundleLaunch &launch,
                                                const BundleKernel &kernel,
                                                const std::string &where) {
  auto sizes = [](unsigned dims, const std::array<uint64_t, 3> &size) {
    std::string text;
    for (unsigned dim = 0; dim < dims && dim < 3; ++dim)
      text += (dim ? ", " : "") + std::to_string(size[dim]);
    return "[" + text + "]";
  };
  if (launch.dims != kernel.dims || launch.globalSize != kernel.globalSize)
    return where + ".global_size: " + sizes(launch.dims, launch.globalSize) +
           " is not the global size " + sizes(kernel.dims, kernel.globalSize) +
           " that kernel '" + kernel.name + "' was generated for";
  if (launch.localSize != kernel.localSize)
    return where + ".local_size: " + sizes(launch.dims, launch.localSize) +
           " is not the local size " + sizes(kernel.dims, kernel.localSize) +
           " that kernel '" + kernel.name + "' was generated for";
  if (launch.dims < 1 || launch.dims > 3)
    return where + ": a launch has 1 to 3 dimensions, not " +
           std::to_string(launch.dims);
  for (unsigned dim = 0; dim < launch.dims; ++dim)
    if (launch.localSize[dim] == 0 ||
        launch.globalSize[dim] % launch.localSize[dim] != 0)
      return where + ".global_size: " + sizes(launch.dims, launch.globalSize) +
             " is not a multiple of the local size " +
             sizes(launch.dims, launch.localSize);
  uint64_t workItems = 1;
  for (unsigned dim = 0; dim < launch.dims; ++dim)
    if (!checkedMultiply(workItems, launch.globalSize[dim], workItems))
      return where + ".global_size: " + sizes(launch.dims, launch.globalSize) +
             " has more than 2^64 work-items";
  return std::nullopt;
}

/// Checks every launch against its kernel, in order: geometry, and per
/// argument a buffer of the kernel's dtype and element count, not an input
/// where the kernel writes, not read before a launch wrote it (a zeroed
/// temporary is written before the first); then that every output is
/// written.
template <class BufferRef>
static std::optional<std::string> checkLaunches(const Bundle &bundle,
                                                BufferRef bufferRef) {
  size_t numBuffers = bundle.buffers.size();
  // Whether a launch so far writes each buffer's storage (by storageOf).
  std::vector<bool> written(numBuffers, false);
  for (size_t i = 0; i < numBuffers; ++i) {
    const BundleBuffer &buffer = bundle.buffers[i];
    if (!buffer.zeroed)
      continue;
    if (buffer.kind != BundleBuffer::Kind::Temporary || buffer.aliasOf)
      return "buffers[" + std::to_string(i) + "]: '" + buffer.name +
             "' is zeroed, which only a temporary with storage of its own "
             "can be";
    written[i] = true;
  }
  for (size_t l = 0; l < bundle.launches.size(); ++l) {
    const BundleLaunch &launch = bundle.launches[l];
    std::string where = "launches[" + std::to_string(l) + "]";
    if (launch.kernel >= bundle.kernels.size())
      return where + ".kernel: " + std::to_string(launch.kernel) +
             " is out of range (the bundle has " +
             std::to_string(bundle.kernels.size()) + " kernels)";
    const BundleKernel &kernel = bundle.kernels[launch.kernel];
    if (auto problem = checkGeometry(launch, kernel, where))
      return problem;
    if (launch.args.size() != kernel.params.size())
      return where + ".args: " + std::to_string(launch.args.size()) +
             " arguments, but kernel '" + kernel.name + "' takes " +
             std::to_string(kernel.params.size());
    for (size_t a = 0; a < launch.args.size(); ++a) {
      unsigned arg = launch.args[a];
      std::string at = where + ".args[" + std::to_string(a) + "]: ";
      if (arg >= numBuffers)
        return at + "buffer " + std::to_string(arg) +
               " is out of range (the bundle has " +
               std::to_string(numBuffers) + " buffers)";
      const KernelParam &param = kernel.params[a];
      const BundleBuffer &buffer = bundle.buffers[arg];
      std::optional<int64_t> elements = numElements(buffer.shape);
      if (buffer.dtype != param.dtype ||
          static_cast<uint64_t>(elements.value_or(-1)) != param.elements)
        return at + bufferRef(arg) + " is " +
               formatTensorType(buffer.dtype, buffer.shape) +
               ", but argument " + std::to_string(a) + " of kernel '" +
               kernel.name + "' is " + std::to_string(param.elements) +
               " elements of " + dtypeName(param.dtype);
      if (param.written && holdsInput(bundle, arg))
        return at + "kernel '" + kernel.name + "' writes argument " +
               std::to_string(a) + ", but " + bufferRef(arg) +
               " holds an input";
      if (param.written)
        for (size_t other = 0; other < launch.args.size(); ++other)
          if (other != a && launch.args[other] == arg)
            return at + "kernel '" + kernel.name + "' writes " +
                   bufferRef(arg) + ", which is also its argument " +
                   std::to_string(other);
      if (param.read && param.elements != 0 && !holdsInput(bundle, arg) &&
          !written[storageOf(bundle, arg)])
        return at + "kernel '" + kernel.name + "' reads " + bufferRef(arg) +
               " before any launch writes it";
    }
    for (size_t a = 0; a < launch.args.size(); ++a)
      if (kernel.params[a].written)
        written[storageOf(bundle, launch.args[a])] = true;
  }

  // An output is written whole, through its pieces, or is an input's
  // storage under a new shape (or has no elements to write).
  for (size_t i = 0; i < bundle.outputs.size(); ++i) {
    unsigned output = bundle.outputs[i];
    if (holdsInput(bundle, output) || written[storageOf(bundle, output)] ||
        numElements(bundle.buffers[output].shape) == 0)
      continue;
    bool hasPieces = false, piecesWritten = true;
    for (unsigned b = 0; b < numBuffers; ++b)
      if (bundle.buffers[b].pieceOf &&
          bundle.buffers[b].pieceOf->whole == storageOf(bundle, output)) {
        hasPieces = true;
        piecesWritten &= written[b];
      }
    if (!hasPieces || !piecesWritten)
      return "outputs[" + std::to_string(i) + "]: no launch writes " +
             bufferRef(output) +
             (bundle.launches.empty() ? " (the bundle has no launches)" : "");
  }
  return std::nullopt;
}

/// Checks everything validateBundle promises. Returns the first problem.
static std::optional<std::string> checkConsistency(const Bundle &bundle) {
  size_t numBuffers = bundle.buffers.size();
  auto bufferRef = [&](unsigned index) {
    return "buffer " + std::to_string(index) + " ('" +
           bundle.buffers[index].name + "')";
  };
  auto byteSize = [](const BundleBuffer &buffer) -> std::optional<uint64_t> {
    std::optional<int64_t> count = numElements(buffer.shape);
    if (!count ||
        static_cast<uint64_t>(*count) >
            std::numeric_limits<uint64_t>::max() / dtypeSize(buffer.dtype))
      return std::nullopt;
    return static_cast<uint64_t>(*count) * dtypeSize(buffer.dtype);
  };

  std::set<std::string> names;
  for (size_t i = 0; i < numBuffers; ++i) {
    const BundleBuffer &buffer = bundle.buffers[i];
    std::string where = "buffers[" + std::to_string(i) + "]";
    if (!names.insert(buffer.name).second)
      return where + ": a second buffer named '" + buffer.name + "'";
    std::optional<uint64_t> bytes = byteSize(buffer);
    if (!bytes)
      return where + ": the size of '" + buffer.name + "' overflows";
    if (!buffer.aliasOf)
      continue;
    unsigned target = *buffer.aliasOf;
    if (target >= numBuffers)
      return where + ".alias_of: " + std::to_string(target) +
             " is out of range (the bundle has " + std::to_string(numBuffers) +
             " buffers)";
    if (buffer.kind == BundleBuffer::Kind::Input)
      return where + ": input '" + buffer.name +
             "' cannot be an alias; inputs own their storage";
    if (target == i || bundle.buffers[target].aliasOf)
      return where + ": '" + buffer.name + "' is an alias of " +
             bufferRef(target) +
             ", which does not own its storage (aliases must name a buffer "
             "that does)";
    if (bundle.buffers[target].kind == BundleBuffer::Kind::Piece)
      return where + ": '" + buffer.name + "' is an alias of " +
             bufferRef(target) + ", a piece (aliases name a whole tensor)";
    if (byteSize(bundle.buffers[target]) != bytes)
      return where + ": '" + buffer.name + "' holds " + std::to_string(*bytes) +
             " bytes but its alias target " + bufferRef(target) + " holds " +
             std::to_string(byteSize(bundle.buffers[target]).value_or(0));
  }
  if (auto problem = checkPieces(bundle, bufferRef, byteSize))
    return problem;

  // `inputs` (`outputs`) lists every buffer of its kind exactly once.
  auto checkList = [&](const std::vector<unsigned> &list, const char *key,
                       BundleBuffer::Kind kind) -> std::optional<std::string> {
    std::set<unsigned> seen;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string where = std::string(key) + "[" + std::to_string(i) + "]";
      if (list[i] >= numBuffers)
        return where + ": buffer " + std::to_string(list[i]) +
               " is out of range (the bundle has " +
               std::to_string(numBuffers) + " buffers)";
      if (bundle.buffers[list[i]].kind != kind)
        return where + ": " + bufferRef(list[i]) + " is not an " +
               bufferKindName(kind);
      if (!seen.insert(list[i]).second)
        return where + ": " + bufferRef(list[i]) + " is listed twice";
    }
    for (unsigned b = 0; b < numBuffers; ++b)
      if (bundle.buffers[b].kind == kind && !seen.count(b))
        return std::string(key) + ": " + bufferRef(b) + " is an " +
               bufferKindName(kind) + " but is not listed";
    return std::nullopt;
  };
  if (auto problem =
          checkList(bundle.inputs, "inputs", BundleBuffer::Kind::Input))
    return problem;
  if (auto problem =
          checkList(bundle.outputs, "outputs", BundleBuffer::Kind::Output))
    return problem;

  // Compiled for SPIR-V or not: a module for every kernel, or for none.
  for (size_t k = 1; k < bundle.kernels.size(); ++k)
    if (bundle.kernels[k].spirv.empty() != bundle.kernels[0].spirv.empty())
      return "kernels[" + std::to_string(k) + "]: '" + bundle.kernels[k].name +
             "' has " +
             (bundle.kernels[k].spirv.empty() ? "no SPIR-V module" : "SPIR-V") +
             " but kernels[0] ('" + bundle.kernels[0].name + "') " +
             (bundle.kernels[0].spirv.empty() ? "has none" : "has one");

  if (auto problem = checkLaunches(bundle, bufferRef))
    return problem;
  return std::nullopt;
}

Status tilec::validateBundle(const Bundle &bundle) {
  if (std::optional<std::string> problem = checkConsistency(bundle))
    return Error("inconsistent bundle: " + *problem);
  return Status::success();
}
