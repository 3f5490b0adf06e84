//===- tile-difftest-worker.cpp - The difftest's in-process runner --------===//
//
// `difftest.py --in-process` runs each program on the devices through this
// worker instead of a `tilec run` per backend. A GPU driver's context costs
// far more than a random program's compile and run: on an H100, `tilec run`
// spent about 0.3 s of system time opening the device, and 16 processes at
// once ran no faster than 4 (176 programs a minute). A worker opens each
// backend's device once, through the JIT (no disk cache), and then takes
// one request per line on stdin:
//
//   {"program": "P.tile", "inputs": {"A": "A.npy", ...}, "output_dir": "D"}
//
// It compiles the program's only function for the inputs' dtypes and
// shapes, runs it on every backend and writes each output to
// D/<backend>/<name>.npy, then answers one line on stdout:
//
//   {"opencl": {"kind": null, "text": ""}, "vulkan": {"kind": "refused", ...}}
//
// where kind is what `tilec run` would have shown: null for a run, "refused"
// for an error (its message in text), "crash" for a compiler crash that the
// JIT recovered from. The driver treats a worker that dies or stops
// answering as that program's crash or hang and runs it again through
// `tilec run`, whose exit status decides.
//
// Usage: tile-difftest-worker [--profile FILE] BACKEND...   (opencl, vulkan)
// where FILE is a device profile over each device's, as `tilec run
// --profile` takes it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Npy.h"
#include "tilec/tilec.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::jit;
using nlohmann::json;

namespace {

/// One backend's device, opened once.
struct Target {
  std::string name;
  std::optional<Context> context;
  /// Why the device could not be opened: every program is refused with it.
  std::string openError;
};

/// A result line's entry: kind null (ran), "refused" or "crash".
json outcome(const char *kind, const std::string &text) {
  return {{"kind", kind ? json(kind) : json(nullptr)}, {"text", text}};
}

json outcomeOf(const Error &error) {
  return outcome(error.kind() == ErrorKind::Internal ? "crash" : "refused",
                 error.describe());
}

/// Compiles and runs the program on `target`, writing its outputs to
/// `outputDir`.
json runOn(Target &target, const std::string &path,
           const std::vector<InputBinding> &bindings,
           const std::vector<std::pair<std::string, HostTensor>> &data,
           const std::filesystem::path &outputDir) {
  if (!target.context)
    return outcome("refused", target.openError);
  CompileOptions options;
  options.inputs = bindings;
  Expected<CompiledProgram> program =
      target.context->compileFile(path, options);
  // Each program is new: its compiled form would only fill the memory cache.
  target.context->clearMemoryCache();
  if (!program)
    return outcomeOf(program.error());
  std::vector<HostTensor> inputs;
  for (const TensorInfo &input : program->inputs())
    for (const auto &[name, tensor] : data)
      if (name == input.name)
        inputs.push_back(tensor);
  Expected<std::vector<HostTensor>> outputs = program->run(inputs);
  if (!outputs)
    return outcomeOf(outputs.error());
  std::error_code ec;
  std::filesystem::create_directories(outputDir, ec);
  for (size_t i = 0; i < outputs->size(); ++i) {
    std::string error;
    std::string file =
        (outputDir / (program->outputs()[i].name + ".npy")).string();
    if (!writeNpy(file, (*outputs)[i], error))
      return outcome("refused", error);
  }
  return outcome(nullptr, "");
}

/// Answers one request line.
json answer(std::vector<Target> &targets, const std::string &line) {
  json request = json::parse(line);
  std::string path = request.at("program").get<std::string>();
  std::filesystem::path outputDir = request.at("output_dir").get<std::string>();
  std::vector<InputBinding> bindings;
  std::vector<std::pair<std::string, HostTensor>> data;
  json reply = json::object();
  for (const auto &[name, file] : request.at("inputs").items()) {
    std::string error;
    std::optional<HostTensor> tensor = readNpy(file.get<std::string>(), error);
    if (!tensor) {
      for (Target &target : targets)
        reply[target.name] = outcome("refused", error);
      return reply;
    }
    bindings.push_back({name, tensor->dtype(), tensor->shape()});
    data.emplace_back(name, std::move(*tensor));
  }
  for (Target &target : targets)
    reply[target.name] =
        runOn(target, path, bindings, data, outputDir / target.name);
  return reply;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<Target> targets;
  std::string profilePath;
  int first = 1;
  if (argc > 2 && std::string(argv[1]) == "--profile") {
    profilePath = argv[2];
    first = 3;
  }
  for (int i = first; i < argc; ++i) {
    std::optional<Backend> backend = parseBackend(argv[i]);
    if (!backend) {
      std::fprintf(stderr, "tile-difftest-worker: unknown backend '%s'\n",
                   argv[i]);
      return 2;
    }
    Target target{argv[i], std::nullopt, ""};
    ContextOptions options;
    options.backend = *backend;
    options.cache.diskEnabled = false;
    options.profilePath = profilePath;
    Expected<Context> context = Context::create(options);
    if (context)
      target.context = std::move(*context);
    else
      target.openError = context.error().describe();
    targets.push_back(std::move(target));
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    json reply;
    try {
      reply = answer(targets, line);
    } catch (const json::exception &e) {
      reply = {{"error", std::string("bad request: ") + e.what()}};
    }
    std::cout << reply.dump() << std::endl;
  }
  return 0;
}
