//===- FileIO.h - Whole-file reads and atomic writes ------------*- C++ -*-===//
//
// Internal to the runtime: the file handling that the .npy and bundle
// readers and writers share.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_FILEIO_H
#define TILEC_RUNTIME_LIB_FILEIO_H

#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// The bytes of the file at `path`, or nullopt with `error` set to
/// "<path>: cannot read: <reason>".
std::optional<std::string> readWholeFile(const std::string &path,
                                         std::string &error);

/// Writes `contents` to a fresh temporary file next to `path`, then renames
/// it over `path`, so that a failure leaves nothing half-written. On failure
/// returns false and sets `error` to "<path>: cannot write: <reason>".
bool writeFileAtomically(const std::string &path, std::string_view contents,
                         std::string &error);

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_FILEIO_H
