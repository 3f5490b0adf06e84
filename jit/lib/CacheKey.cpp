//===- CacheKey.cpp - What identifies a compiled program ------------------===//

#include "CacheKey.h"

#include <dlfcn.h>
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <vector>

namespace tilec::jit {

/// Appends `name`, the length of `value`, a newline, `value` and a
/// newline: fields can hold anything, newlines included, without making two
/// keys alike.
static void appendField(std::string &key, const char *name,
                        const std::string &value) {
  key += name;
  key += ' ';
  key += std::to_string(value.size());
  key += '\n';
  key += value;
  key += '\n';
}

static std::string describeBinding(const InputBinding &input) {
  std::string text = input.name + ':' + dtypeName(input.dtype) + '[';
  for (size_t i = 0; i < input.shape.size(); ++i)
    text += (i ? "," : "") + std::to_string(input.shape[i]);
  return text + ']';
}

/// The XXH3 hash of this library's file in hex, computed once: every build
/// of the compiler has its own, so a rebuilt compiler under the same version
/// never trusts entries of an earlier build. Empty when the file cannot be
/// read; the version alone then tells builds apart.
static const std::string &compilerBuildId() {
  static const std::string id = [] {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void *>(&makeCacheKey), &info) ||
        !info.dli_fname)
      return std::string();
    // Hashed in chunks: the library holds LLVM and MLIR (a hundred MiB),
    // which the first compile of a process would otherwise hold in memory
    // at once.
    std::ifstream file(info.dli_fname, std::ios::binary);
    std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t *)> state(
        XXH3_createState(), XXH3_freeState);
    if (!state || XXH3_64bits_reset(state.get()) != XXH_OK)
      return std::string();
    std::vector<char> chunk(1 << 16);
    while (file.read(chunk.data(), chunk.size()) || file.gcount() > 0)
      XXH3_64bits_update(state.get(), chunk.data(), size_t(file.gcount()));
    if (!file.eof())
      return std::string();
    char hex[17];
    std::snprintf(
        hex, sizeof(hex), "%016llx",
        static_cast<unsigned long long>(XXH3_64bits_digest(state.get())));
    return std::string(hex);
  }();
  return id;
}

CacheKey makeCacheKey(const std::string &text, const std::string &imports,
                      const std::string &sourceName,
                      const CompileOptions &options, Backend backend,
                      const DeviceProfile &profile,
                      const CompileTargets &targets) {
  std::vector<std::string> bindings;
  for (const InputBinding &input : options.inputs)
    bindings.push_back(describeBinding(input));
  std::sort(bindings.begin(), bindings.end());

  CacheKey key;
  appendField(key.text, "compiler", "tilec " TILEC_VERSION);
  appendField(key.text, "compiler-build", compilerBuildId());
  appendField(key.text, "bundle-format", std::to_string(kBundleFormatVersion));
  appendField(key.text, "backend", backendName(backend));
  std::string targetNames = std::string(targets.openCL ? "opencl " : "") +
                            (targets.spirv ? "spirv " : "") +
                            (targets.msl ? "msl " : "");
  appendField(key.text, "targets", targetNames);
  appendField(key.text, "device", deviceFingerprint(profile));
  appendField(key.text, "profile", profileToJson(profile));
  appendField(key.text, "source-name", sourceName);
  appendField(key.text, "entry", options.entry);
  for (const std::string &binding : bindings)
    appendField(key.text, "input", binding);
  appendField(key.text, "source", text);
  appendField(key.text, "imports", imports);

  XXH128_hash_t hash = XXH3_128bits(key.text.data(), key.text.size());
  char hex[33];
  std::snprintf(hex, sizeof(hex), "%016llx%016llx",
                static_cast<unsigned long long>(hash.high64),
                static_cast<unsigned long long>(hash.low64));
  key.hash = hex;
  return key;
}

} // namespace tilec::jit
