//===- StoragePlan.h - How a bundle's buffers map onto storage --*- C++ -*-===//
//
// Internal to the runtime: what every backend's executor decides the same
// way about a bundle's buffers, so that OpenCL and Vulkan agree on it:
// which buffers own an allocation (not aliases, not tensors stored as
// pieces), the parts a tensor is moved in, which storage is poisoned before
// a run, the footprint on the device and, for a bundle that does not fit it
// whole, when each buffer is resident (Residency.h), which storage a
// device-resident run allocates afresh, and the checks of runOnDevice's
// inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_STORAGEPLAN_H
#define TILEC_RUNTIME_LIB_STORAGEPLAN_H

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/Residency.h"

#include <string>
#include <vector>

namespace tilec {

/// The bytes of `buffer`'s elements (the bundle parser has checked that
/// this does not overflow).
uint64_t bufferBytes(const BundleBuffer &buffer);

/// Where one part of a device tensor lies: what runOnDevice checks a device
/// tensor's storage against.
struct StoredPart {
  uint64_t byteOffset = 0;
  uint64_t bytes = 0;
};

/// When each buffer of a streamed run is on the device. Step s <
/// launches.size() is launch s; the last step is the end of the run.
struct Residency {
  /// Per bundle buffer; 0 bytes for those that own no storage.
  std::vector<LiveRange> ranges;
  /// Per step, the buffers owning storage that are allocated just before
  /// it and released just after it.
  std::vector<std::vector<unsigned>> allocated, released;
  uint64_t peakBytes = 0;
};

class StoragePlan {
public:
  explicit StoragePlan(const Bundle &bundle);

  /// Whether bundle buffer `index` has storage of its own: not an alias,
  /// not a tensor stored as pieces, and used: an input that no launch reads
  /// and no output is gets none (nor is it uploaded), so that a program
  /// that ignores a large input runs where that input would not fit.
  bool ownsStorage(unsigned index) const;
  /// The buffer whose storage bundle buffer `index` uses: its alias target,
  /// or itself.
  unsigned storageOwner(unsigned index) const;
  /// The parts of bundle buffer `index` (itself, or its pieces in order),
  /// which owns storage or is stored as pieces.
  std::vector<unsigned> partsOf(unsigned index) const;
  /// The byte offset of bundle buffer `index` within the tensor it is a
  /// piece of; 0 for a whole tensor.
  uint64_t partOffset(unsigned index) const;
  /// Whether the storage of bundle buffer `index`, which owns storage, is
  /// filled before each run: an output's or temporary's (or a piece of
  /// one), unless empty.
  bool isFilled(unsigned index) const;
  /// The byte it is filled with: 0 for a zeroed temporary, whose kernels
  /// need it zeroed (BundleBuffer::zeroed); else 0xFF, a poison that shows
  /// elements no kernel wrote.
  uint8_t fillByte(unsigned index) const;
  /// The buffers that a device-resident run allocates afresh, so that
  /// earlier runs' outputs stay valid: the parts of every output's storage
  /// owner, unless that is an input given as a device tensor (whose
  /// storage the user owns). `fromHost` says, per input, whether it is
  /// given as a host tensor, which is then uploaded into the fresh storage.
  std::vector<unsigned> freshParts(const std::vector<bool> &fromHost) const;

  /// The bytes of all buffers that own storage.
  uint64_t totalBytes() const;
  /// Whether all buffers that own storage fit the profile's global memory
  /// at once: then a run allocates them once and never streams.
  bool fitsWhole(const DeviceProfile &profile) const;
  /// The residency of a streamed run. A device-resident run (runOnDevice)
  /// keeps its inputs and outputs on the device throughout.
  Residency planResidency(bool deviceResident) const;
  /// Fails when the bundle fits the profile's global memory neither whole
  /// nor streamed (the peak of planResidency(deviceResident)).
  Status checkFootprint(const DeviceProfile &profile,
                        bool deviceResident) const;
  /// The parts whose storage holds output `output`'s bytes (its storage
  /// owner's parts).
  std::vector<unsigned> outputParts(unsigned output) const;
  /// "kernel 'k0' (mm.tile:3:3)", for messages.
  std::string describeKernel(unsigned kernel) const;
  /// The checks of runOnDevice: the number of inputs; a host input is
  /// non-null and of the input's dtype and shape.
  Status checkInputCount(size_t count) const;
  Status checkHostInput(unsigned input, const HostTensor *host) const;
  /// A device tensor of backend `backend` given for input `input`: of that
  /// backend, of the input's dtype and shape, stored in `parts` exactly as
  /// the bundle stores the input.
  Status checkDeviceInput(unsigned input, const DeviceTensor &tensor,
                          Backend backend,
                          const std::vector<StoredPart> &parts) const;

private:
  const Bundle &bundle;
  /// The pieces of each bundle buffer, in order (empty: not split).
  std::vector<std::vector<unsigned>> pieces;
  /// Per bundle buffer: whether a launch reads or writes its storage, or
  /// an output is it.
  std::vector<bool> used;
};

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_STORAGEPLAN_H
