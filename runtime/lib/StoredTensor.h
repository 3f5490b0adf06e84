//===- StoredTensor.h - Device tensors of either backend --------*- C++ -*-===//
//
// Internal to the runtime: the DeviceTensor that each backend's
// runOnDevice returns (the storage of a tensor, or of its pieces in order),
// written once for both backends' device and buffer types, with the two
// steps of runOnDevice that concern it: binding an input to a device tensor
// and wrapping the outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_STOREDTENSOR_H
#define TILEC_RUNTIME_LIB_STOREDTENSOR_H

#include "StoragePlan.h"

#include "tilec/Runtime/Executor.h"

#include <memory>
#include <string>
#include <vector>

namespace tilec {

/// A tensor in the memory of a `DeviceT` of backend `kBackend`, whose
/// `read(const BufferT &, void *, bytes)` copies a buffer to the host.
template <Backend kBackend, class DeviceT, class BufferT>
class StoredTensor final : public DeviceTensor {
public:
  /// The storage of a run, one entry per bundle buffer (StoragePlan).
  using Storage = std::vector<std::shared_ptr<const BufferT>>;
  struct Part {
    std::shared_ptr<const BufferT> buffer;
    /// The part's first byte within the tensor's bytes.
    uint64_t byteOffset = 0;
  };

  StoredTensor(DeviceT &device, DType dtype, Shape shape,
               std::vector<Part> parts)
      : DeviceTensor(dtype, std::move(shape)), device(device),
        parts(std::move(parts)) {}

  Backend backend() const override { return kBackend; }
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

  /// Binds input `input` of `bundle` to `tensor` in `bound`: the tensor
  /// must be non-null, of this backend, on `device`, and of the input's
  /// dtype, shape and pieces. The error names the input.
  static Status bindInput(const StoragePlan &plan, const Bundle &bundle,
                          unsigned input,
                          const std::shared_ptr<const DeviceTensor> &tensor,
                          const DeviceT &device, Storage &bound) {
    const std::string &name = bundle.buffers[bundle.inputs[input]].name;
    if (!tensor)
      return Error("input '" + name + "' is a null device tensor");
    // Of this backend, the tensor is a StoredTensor; checkDeviceInput
    // refuses any other before its parts matter.
    const auto *stored = tensor->backend() == kBackend
                             ? static_cast<const StoredTensor *>(tensor.get())
                             : nullptr;
    std::vector<StoredPart> given;
    if (stored)
      for (const Part &part : stored->parts)
        given.push_back({part.byteOffset, part.buffer->size()});
    if (Status status = plan.checkDeviceInput(input, *tensor, kBackend, given);
        !status)
      return status;
    if (&stored->device != &device)
      return Error("input '" + name + "' is a tensor of another " +
                   backendName(kBackend) + " device");
    std::vector<unsigned> inputParts = plan.partsOf(bundle.inputs[input]);
    for (size_t p = 0; p < inputParts.size(); ++p)
      bound[inputParts[p]] = stored->parts[p].buffer;
    return Status::success();
  }

  /// The outputs of `bundle`, in order, as tensors over their storage in
  /// `bound`.
  static std::vector<std::shared_ptr<DeviceTensor>>
  wrapOutputs(const StoragePlan &plan, const Bundle &bundle, DeviceT &device,
              const Storage &bound) {
    std::vector<std::shared_ptr<DeviceTensor>> results;
    for (unsigned output : bundle.outputs) {
      std::vector<Part> parts;
      for (unsigned part : plan.partsOf(plan.storageOwner(output)))
        parts.push_back({bound[part], plan.partOffset(part)});
      const BundleBuffer &buffer = bundle.buffers[output];
      results.push_back(std::make_shared<StoredTensor>(
          device, buffer.dtype, buffer.shape, std::move(parts)));
    }
    return results;
  }

private:
  DeviceT &device;
  std::vector<Part> parts;
};

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_STOREDTENSOR_H
