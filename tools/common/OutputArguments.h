//===- OutputArguments.h - Printing and writing outputs -----*- C++ -*-===//
//
// `--print`, `--checksum`, `--output NAME=FILE.npy` and `--output-dir DIR`
// of tilec run and tile-run, shared so that both tools print and write the
// same for the same results.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_COMMON_OUTPUTARGUMENTS_H
#define TILEC_TOOLS_COMMON_OUTPUTARGUMENTS_H

#include "tilec/Runtime/HostTensor.h"
#include "tilec/Runtime/Status.h"

#include <string>
#include <vector>

namespace tilec {

struct OutputArguments {
  /// `--print`: each output's values, as NumPy prints them.
  bool print = false;
  /// `--checksum`: each output's checksum line; also what is printed when
  /// neither is asked for.
  bool checksum = false;
  /// `--output NAME=FILE.npy`, in command-line order.
  std::vector<std::string> files;
  /// `--output-dir DIR`: every output to DIR/<name>.npy.
  std::string directory;
};

/// Checks that every `--output` is NAME=FILE and names one of `outputs`,
/// once; before the run, so that a typo costs no run.
Status checkOutputArguments(const OutputArguments &arguments,
                            const std::vector<std::string> &outputs);

/// What is printed for the output `name`: its checksum line
/// ("C: f32[2, 3], checksum 21 (sum of elements)") or, with --print alone,
/// "C: f32[2, 3]", then with --print its values. Ends with a newline.
std::string describeOutput(const OutputArguments &arguments,
                           const std::string &name, const HostTensor &tensor);

/// Writes the `--output` files and the `--output-dir` files of the outputs
/// (names[i] is tensors[i]'s), each atomically.
Status writeOutputFiles(const OutputArguments &arguments,
                        const std::vector<std::string> &names,
                        const std::vector<HostTensor> &tensors);

} // namespace tilec

#endif // TILEC_TOOLS_COMMON_OUTPUTARGUMENTS_H
