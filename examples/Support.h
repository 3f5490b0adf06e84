//===- Support.h - What every example needs besides the JIT -----*- C++ -*-===//
//
// Leaving on a failure with its description (the compiler's diagnostics
// included): the few lines each example would otherwise repeat.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_SUPPORT_H
#define TILEC_EXAMPLES_SUPPORT_H

#include "tilec/tilec.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

namespace examples {

/// Prints what went wrong and leaves with status 1.
[[noreturn]] inline void fail(const std::string &description) {
  std::fprintf(stderr, "error: %s\n", description.c_str());
  std::exit(1);
}

/// The value of a JIT or runtime call's `result` (the runtime's Expected is
/// the JIT's: HostTensor::from and view, DeviceTensor::read), or leaves with
/// its failure described (with the compiler's diagnostics).
template <class T> T valueOrExit(tilec::jit::Expected<T> result) {
  if (!result)
    fail(result.error().describe());
  return std::move(*result);
}

} // namespace examples

#endif // TILEC_EXAMPLES_SUPPORT_H
