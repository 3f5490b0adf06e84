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

/// The bytes of the regular file at `path`, or nullopt with `error` set to
/// "<path>: cannot open: <reason>" or "<path>: cannot read: <reason>". A
/// directory, FIFO or device is refused without reading (or blocking). With
/// `magic`, a file that does not start with it is refused as "<path>: not
/// <kind> (bad magic)" before the rest is read.
std::optional<std::string> readWholeFile(const std::string &path,
                                         std::string &error,
                                         std::string_view magic = {},
                                         std::string_view kind = {});

/// Writes `contents` to a fresh temporary file next to `path`, then renames
/// it over `path`, so that a failure leaves nothing half-written. On failure
/// returns false and sets `error` to "<path>: cannot write: <reason>".
bool writeFileAtomically(const std::string &path, std::string_view contents,
                         std::string &error);

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_FILEIO_H
