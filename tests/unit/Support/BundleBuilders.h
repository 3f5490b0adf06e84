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

/// A tensor whose element i is `scale * i`.
inline HostTensor iota(DType dtype, const Shape &shape, double scale) {
  HostTensor tensor(dtype, shape);
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    tensor.setDouble(i, scale * static_cast<double>(i));
  return tensor;
}

} // namespace tilec::testing

#endif // TILEC_TESTS_UNIT_SUPPORT_BUNDLEBUILDERS_H
