//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes NumPy's .npy format (versions 1.0, 2.0 and 3.0),
// little-endian, C order, every Tile dtype, 0-d arrays included. bf16, which
// NumPy lacks, is stored as the two-byte void type `|V2` holding bfloat16 bit
// patterns (what ml_dtypes writes). Fortran order, object arrays, big-endian
// data, unknown dtypes and truncated or corrupt files are refused with an
// error naming the file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_NPY_H
#define TILEC_RUNTIME_NPY_H

#include "tilec/Runtime/HostTensor.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tilec {

/// Parses the .npy image in [data, data + size); `name` is used in errors.
std::optional<HostTensor> parseNpy(const uint8_t *data, size_t size,
                                   const std::string &name,
                                   std::string &error);
/// Reads a .npy file. On failure returns nullopt and sets `error` to a
/// message that starts with the path.
std::optional<HostTensor> readNpy(const std::string &path, std::string &error);
/// Serialises `tensor` as a version 1.0 .npy image (2.0 if the header needs).
std::string serializeNpy(const HostTensor &tensor);
/// Writes `tensor` to `path` atomically (a temporary file, then a rename), so
/// a failed write leaves nothing half-written. Sets `error` on failure.
bool writeNpy(const std::string &path, const HostTensor &tensor,
              std::string &error);

} // namespace tilec

#endif // TILEC_RUNTIME_NPY_H
