//===- OutputArguments.cpp - What the tools print and write of outputs ----===//

#include "OutputArguments.h"

#include "NumpyFormat.h"

#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/TensorSummary.h"

#include <algorithm>
#include <filesystem>
#include <set>

using namespace tilec;

/// "C, D", for messages.
static std::string joinNames(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}

Status tilec::checkOutputArguments(const OutputArguments &arguments,
                                   const std::vector<std::string> &outputs) {
  std::set<std::string> seen;
  for (const std::string &spec : arguments.files) {
    size_t equals = spec.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == spec.size())
      return Error("invalid --output '" + spec +
                   "' (expected NAME=FILE.npy; --output-dir DIR writes every "
                   "output)");
    std::string name = spec.substr(0, equals);
    if (std::find(outputs.begin(), outputs.end(), name) == outputs.end())
      return Error("--output names '" + name +
                   "', which is not an output (outputs: " + joinNames(outputs) +
                   ")");
    if (!seen.insert(name).second)
      return Error("--output writes '" + name + "' twice");
  }
  return Status::success();
}

std::string tilec::describeOutput(const OutputArguments &arguments,
                                  const std::string &name,
                                  const HostTensor &tensor) {
  std::string text =
      arguments.checksum || !arguments.print
          ? formatOutputSummary(name, tensor)
          : name + ": " + formatTensorType(tensor.dtype(), tensor.shape());
  text += "\n";
  if (arguments.print)
    text += formatLikeNumpy(tensor) + "\n";
  return text;
}

Status tilec::writeOutputFiles(const OutputArguments &arguments,
                               const std::vector<std::string> &names,
                               const std::vector<HostTensor> &tensors) {
  std::string error;
  for (const std::string &spec : arguments.files) {
    size_t equals = spec.find('=');
    std::string name = spec.substr(0, equals);
    size_t index = std::find(names.begin(), names.end(), name) - names.begin();
    if (!writeNpy(spec.substr(equals + 1), tensors[index], error))
      return Error(error);
  }
  if (arguments.directory.empty())
    return Status::success();
  std::error_code ec;
  std::filesystem::create_directories(arguments.directory, ec);
  if (ec)
    return Error("--output-dir: cannot create '" + arguments.directory +
                 "': " + ec.message());
  for (size_t i = 0; i < names.size(); ++i) {
    std::filesystem::path path =
        std::filesystem::path(arguments.directory) / (names[i] + ".npy");
    if (!writeNpy(path.string(), tensors[i], error))
      return Error(error);
  }
  return Status::success();
}
