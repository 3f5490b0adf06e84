//===- Driver.cpp - Shared pieces of the tilec subcommands ----------------===//

#include "Driver.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace tilec {

void reportError(const Twine &message) {
  WithColor::error(errs(), "tilec") << message << "\n";
}

std::optional<ArgBinding> parseArgSpec(StringRef spec, std::string &error) {
  auto fail = [&](const Twine &why) -> std::optional<ArgBinding> {
    error = ("invalid --arg '" + spec + "': " + why +
             " (expected NAME=DTYPE[d0,d1,...], e.g. A=f32[1024,512])")
                .str();
    return std::nullopt;
  };
  auto [name, type] = spec.split('=');
  if (name.empty() || type.empty())
    return fail("no '='");
  size_t open = type.find('[');
  if (open == StringRef::npos || !type.ends_with("]"))
    return fail("no [dims]");

  ArgBinding binding;
  binding.name = name.str();
  std::optional<DType> dtype = parseDType(type.take_front(open));
  if (!dtype)
    return fail("unknown dtype '" + type.take_front(open) + "'");
  binding.dtype = *dtype;

  StringRef dims = type.slice(open + 1, type.size() - 1).trim();
  if (dims.empty())
    return binding;
  SmallVector<StringRef> parts;
  dims.split(parts, ',');
  for (StringRef part : parts) {
    int64_t extent;
    if (part.trim().getAsInteger(10, extent) || extent < 0)
      return fail("'" + part.trim() + "' is not a non-negative integer");
    binding.shape.push_back(extent);
  }
  if (!numElements(binding.shape))
    return fail("the element count overflows");
  return binding;
}

std::unique_ptr<MemoryBuffer> readSourceFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (std::error_code ec = buffer.getError()) {
    reportError("cannot read '" + path + "': " + ec.message());
    return nullptr;
  }
  return std::move(*buffer);
}

std::string listParams(ArrayRef<ParamInfo> params) {
  std::string names;
  for (const ParamInfo &param : params)
    names += (names.empty() ? "" : ", ") + param.name;
  return names;
}

std::optional<StringMap<ArgBinding>>
parseArgBindings(ArrayRef<std::string> specs, const ast::Function &function) {
  std::vector<ParamInfo> params = getParams(function);
  StringMap<ArgBinding> bindings;
  for (const std::string &spec : specs) {
    std::string error;
    std::optional<ArgBinding> binding = parseArgSpec(spec, error);
    if (!binding) {
      reportError(error);
      return std::nullopt;
    }
    if (!llvm::any_of(params, [&](const ParamInfo &param) {
          return param.name == binding->name;
        })) {
      reportError("--arg names '" + binding->name +
                  "', which is not an input (inputs: " + listParams(params) +
                  ")");
      return std::nullopt;
    }
    if (bindings.count(binding->name)) {
      reportError("--arg binds '" + binding->name + "' twice");
      return std::nullopt;
    }
    bindings[binding->name] = std::move(*binding);
  }
  return bindings;
}

std::optional<std::vector<ArgBinding>>
bindParamsFromArgs(ArrayRef<std::string> specs, const ast::Function &function) {
  std::optional<StringMap<ArgBinding>> parsed =
      parseArgBindings(specs, function);
  if (!parsed)
    return std::nullopt;
  std::vector<ArgBinding> bindings;
  for (const ParamInfo &param : getParams(function)) {
    auto binding = parsed->find(param.name);
    if (binding == parsed->end()) {
      reportError("input '" + param.name + "' is not bound: pass --arg " +
                  param.name + "=DTYPE[dims]");
      return std::nullopt;
    }
    bindings.push_back(std::move(binding->second));
  }
  return bindings;
}

} // namespace tilec
