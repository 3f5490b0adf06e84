//===- BundleBuilders.h - Pieces of hand-written test bundles ---*- C++ -*-===//
//
// Shared by the executor tests of every backend, which run bundles written
// by hand so that the runtime is tested without the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_SUPPORT_BUNDLEBUILDERS_H
#define TILEC_TESTS_UNIT_SUPPORT_BUNDLEBUILDERS_H

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/HostTensor.h"

#include <cstdint>
#include <vector>

namespace tilec::testing {

/// A 1-D launch of `kernel` over `global` work-items in groups of `local`.
inline BundleLaunch launch1D(unsigned kernel, uint64_t global, uint64_t local,
                             std::vector<unsigned> args) {
  BundleLaunch launch;
  launch.kernel = kernel;
  launch.dims = 1;
  launch.globalSize = {global, 1, 1};
  launch.localSize = {local, 1, 1};
  launch.args = std::move(args);
  return launch;
}

/// Gives every kernel of `bundle` that has no signature yet the signature of
/// its first launch: that launch's geometry, and per argument the dtype and
/// element count of the buffer passed, written where the launch is the first
/// to touch that buffer's storage, read otherwise (hand-written kernels read
/// what earlier launches wrote and write the rest).
inline void signKernels(Bundle &bundle) {
  std::vector<bool> touched(bundle.buffers.size(), false);
  std::vector<bool> signedNow(bundle.kernels.size(), false);
  for (const BundleLaunch &launch : bundle.launches) {
    if (launch.kernel >= bundle.kernels.size())
      continue;
    BundleKernel &kernel = bundle.kernels[launch.kernel];
    bool sign = kernel.params.empty() && !signedNow[launch.kernel];
    if (sign) {
      signedNow[launch.kernel] = true;
      kernel.dims = launch.dims;
      kernel.globalSize = launch.globalSize;
      kernel.localSize = launch.localSize;
    }
    for (unsigned arg : launch.args) {
      if (arg >= bundle.buffers.size())
        continue;
      const BundleBuffer &buffer = bundle.buffers[arg];
      unsigned storage = buffer.aliasOf.value_or(arg);
      unsigned tensor = bundle.buffers[storage].pieceOf
                            ? bundle.buffers[storage].pieceOf->whole
                            : storage;
      bool written = bundle.buffers[tensor].kind != BundleBuffer::Kind::Input &&
                     !touched[storage];
      touched[storage] = true;
      if (sign)
        kernel.params.push_back(
            {buffer.dtype, uint64_t(numElements(buffer.shape).value_or(0)),
             written, !written});
    }
  }
}

/// A tensor whose element i is `scale * i`.
inline HostTensor iota(DType dtype, const Shape &shape, double scale) {
  HostTensor tensor(dtype, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.setDouble(i, scale * static_cast<double>(i));
  return tensor;
}

} // namespace tilec::testing

#endif // TILEC_TESTS_UNIT_SUPPORT_BUNDLEBUILDERS_H
