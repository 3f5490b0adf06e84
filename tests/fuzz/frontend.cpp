//===- frontend.cpp - libFuzzer target: the compiler, source to kernels ---===//
//
// Any bytes as Tile source: compileSource (lexing, parsing, sema, the tile
// dialect, lowering, OpenCL C and SPIR-V for a fixed GPU profile) compiles
// it or reports errors, and never crashes, aborts or reports an internal
// error. An MLIR verifier's text (`'tile.x' op ...`) reaching the caller is
// an internal error too. Parameters are bound to small shapes chosen from a
// hash of the input, so that one input takes milliseconds; the input's size
// is bounded for the same reason.
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/CompileSource.h"

#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace tilec;

namespace {

/// Sources larger than this are skipped: they only make inputs slower.
constexpr size_t kMaxSourceBytes = 4096;

/// A discrete GPU, as the scheduler sees one (values of an NVIDIA H200).
DeviceProfile makeGpuProfile() {
  DeviceProfile profile;
  profile.name = "fuzz-gpu";
  profile.type = DeviceType::GPU;
  profile.maxWorkGroupSize = 1024;
  profile.maxWorkItemSizes = {1024, 1024, 64};
  profile.localMemBytes = 48 * 1024;
  profile.computeUnits = 132;
  profile.subgroupSize = 32;
  profile.maxAllocBytes = uint64_t(35) << 30;
  profile.globalMemBytes = uint64_t(140) << 30;
  profile.supportsFp64 = true;
  profile.supportsFp16 = true;
  profile.maxWorkGroupCount = {65535, 65535, 65535};
  return profile;
}

/// The extent of dimension `dim` of every parameter: one of a few small
/// families (all equal, all one, all different), chosen by `hash`.
int64_t chooseExtent(uint64_t hash, unsigned dim) {
  static const int64_t distinct[] = {2, 3, 5, 4, 6, 7, 8, 9};
  switch (hash % 4) {
  case 0:
    return 4;
  case 1:
    return 1;
  case 2:
    return distinct[dim % 8];
  default:
    return 7;
  }
}

/// The entry to compile: one of the source's functions, chosen by `hash`
/// (empty, the only function, where none is found).
std::string chooseEntry(llvm::StringRef source, uint64_t hash) {
  static const llvm::Regex definition(
      "function[ \t\n]+([A-Za-z_][A-Za-z0-9_]*)");
  std::vector<std::string> names;
  llvm::SmallVector<llvm::StringRef, 2> match;
  while (definition.match(source, &match)) {
    names.push_back(match[1].str());
    source =
        source.drop_front(match[0].data() + match[0].size() - source.data());
  }
  return names.empty() ? std::string() : names[hash % names.size()];
}

uint64_t hashBytes(const uint8_t *data, size_t size) {
  uint64_t hash = 14695981039346656037ull; // FNV-1a
  for (size_t i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 1099511628211ull;
  return hash;
}

/// Aborts, so that libFuzzer saves the input, on a diagnostic that only a
/// bug in tilec can produce.
void checkDiagnostic(const llvm::SMDiagnostic &diag, void *) {
  static const llvm::Regex verifierText("'[a-z_]+\\.[a-z_.]+' op ");
  llvm::StringRef message = diag.getMessage();
  if (!message.contains("internal error") && !verifierText.match(message))
    return;
  diag.print("fuzz-frontend", llvm::errs());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxSourceBytes)
    return 0;
  static const DeviceProfile profile = makeGpuProfile();
  uint64_t hash = hashBytes(data, size);
  DType dtype = (hash >> 8) % 4 == 0 ? DType::I32 : DType::F32;
  auto bind = [&](const ast::Function &entry) {
    std::vector<ArgBinding> bindings;
    for (const ParamInfo &param : getParams(entry)) {
      Shape shape;
      for (unsigned dim = 0; dim < param.rank.value_or(2); ++dim)
        shape.push_back(chooseExtent(hash, dim));
      bindings.push_back({param.name, dtype, shape});
    }
    return std::optional<std::vector<ArgBinding>>(std::move(bindings));
  };
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler(checkDiagnostic);
  CompileTargets targets{/*openCL=*/true, /*spirv=*/true, /*msl=*/false};
  (void)compileSource(
      llvm::MemoryBuffer::getMemBufferCopy(source, "fuzz.tile"),
      chooseEntry(source, hash >> 16), bind,
      [&](const Program &) { return std::optional<DeviceProfile>(profile); },
      targets, sourceMgr);
  return 0;
}
