//===- InputArgument.h - An input's data on the command line -*- C++ -*-===//
//
// `--input` of tilec and tile-run, in the spelling iree-run-module's users
// know: `NAME=2x3xf32=1,2,3,4,5,6` gives the values inline (one value fills
// the whole tensor), `NAME=f32=0.5` a scalar, and `NAME=@FILE.npy` a NumPy
// file. Shared by both tools, so it depends on the runtime only.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_COMMON_INPUTARGUMENT_H
#define TILEC_TOOLS_COMMON_INPUTARGUMENT_H

#include "tilec/Runtime/HostTensor.h"
#include "tilec/Runtime/Status.h"

#include <optional>
#include <string>
#include <string_view>

namespace tilec {

/// What one `--input NAME=...` gives: a file to read, or the data itself.
struct InputArgument {
  std::string name;
  /// `NAME=@FILE.npy`: the file to read.
  std::string npyPath;
  /// Inline values: the tensor they make.
  std::optional<HostTensor> tensor;
};

/// Parses "SHAPExDTYPE" ("2x3xf32"; "f32" for a scalar, "0x4xi8" for an
/// empty tensor). Returns false and sets `error` to what is wrong.
bool parseTensorType(std::string_view text, DType &dtype, Shape &shape,
                     std::string &error);

/// Parses `NAME=SHAPExDTYPE=VALUES`, `NAME=DTYPE=VALUE` or `NAME=@FILE.npy`.
/// VALUES are separated by commas or spaces (brackets are ignored, so
/// NumPy's nested lists read too); there are as many as the tensor has
/// elements, or one that fills it. An error (a malformed argument, a value
/// that is not of the dtype or out of its range, a count that does not
/// match) names the input and says what is wrong.
Expected<InputArgument> parseInputArgument(std::string_view text);

/// `--in NAME=FILE.npy`, the older spelling of `--input NAME=@FILE.npy`.
Expected<InputArgument> parseInputFileArgument(std::string_view text);

} // namespace tilec

#endif // TILEC_TOOLS_COMMON_INPUTARGUMENT_H
