//===- NumpyFormat.h - Tensors printed as NumPy prints them -*- C++ -*-===//
//
// `--print` of tilec and tile-run: a tensor's values as `print(array)` shows
// them with NumPy's default options (a line width of 75, 8 digits of
// precision at most, each value in the fewest digits that read back as the
// same value of its dtype, columns aligned, scientific notation when the
// magnitudes call for it, and with more than 1000 elements only the first
// and last 3 of each dimension, around `...`). A user can compare it with
// NumPy's output character for character.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_COMMON_NUMPYFORMAT_H
#define TILEC_TOOLS_COMMON_NUMPYFORMAT_H

#include "tilec/Runtime/HostTensor.h"

#include <string>

namespace tilec {

/// What `print(array)` prints for the tensor (a 0-d tensor as NumPy prints
/// the scalar), without a final newline.
std::string formatLikeNumpy(const HostTensor &tensor);

} // namespace tilec

#endif // TILEC_TOOLS_COMMON_NUMPYFORMAT_H
