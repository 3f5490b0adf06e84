//===- Context.h - A device to compile for, with its cache -----*- C++ -*-===//
//
// The JIT's entry point. A Context opens one device of one backend and
// compiles Tile programs for it: from text or a file, one function (the
// entry) specialised to a dtype and shape for every parameter. Compiled
// programs are cached in the context's memory and in a directory on disk
// shared by every process, keyed on the program text, its name, the entry,
// the bindings, the compiler's version, the backend and the device's
// fingerprint and profile; a disk hit skips both the MLIR compile and the
// driver's build (docs/jit.md, "The kernel cache").
//
// A Context is a shared handle: copies refer to the same device and cache.
// Every member is thread-safe: many threads may compile and run at once
// (compiles run in parallel; the device's queue is used under a lock).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_CONTEXT_H
#define TILEC_JIT_CONTEXT_H

#include "tilec/JIT/CompiledProgram.h"
#include "tilec/JIT/Error.h"
#include "tilec/JIT/Function.h"
#include "tilec/JIT/Future.h"
#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tilec::jit {

/// The disk half of the kernel cache. The memory half (per context) is
/// always on.
struct CacheOptions {
  /// Whether compiled programs are stored on and loaded from disk.
  bool diskEnabled = true;
  /// The cache's directory; empty means $TILEC_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tilec, else ~/.cache/tilec. A directory named here or
  /// in TILEC_CACHE_DIR that cannot be created or written makes
  /// Context::create fail (ErrorKind::Cache); when the default one cannot,
  /// the context runs without the disk cache (CacheStats::directory is then
  /// empty).
  std::string directory;
  /// The most bytes the directory's entries may take together; after each
  /// store, the least recently used entries are deleted until they fit.
  uint64_t maxDiskBytes = uint64_t(512) << 20;
};

struct ContextOptions {
  /// The API the programs run through: OpenCL (bundles carry OpenCL C) or
  /// Vulkan (bundles carry SPIR-V).
  Backend backend = Backend::OpenCL;
  /// Which device: "" picks the default (the first GPU, else the first CPU,
  /// else the first device), a decimal number picks by index (as `tilec
  /// devices` lists them), anything else picks the first device whose name
  /// contains it, ignoring case: the `--device` of the tools.
  std::string device;
  /// A JSON device profile file (as `tilec devices --json` writes) whose
  /// fields override what the driver reports; empty for none.
  std::string profilePath;
  /// A JSON object of profile fields, applied after profilePath: to pretend
  /// to be a smaller device, or another driver version (which changes the
  /// device fingerprint and so every cache key).
  std::string profileOverrides;
  CacheOptions cache;
};

/// A parameter bound to a dtype and a shape.
struct InputBinding {
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
};

struct CompileOptions {
  /// The function to compile; empty picks the source's only function.
  std::string entry;
  /// One per parameter of the entry, in any order; each parameter must be
  /// bound exactly once.
  std::vector<InputBinding> inputs;
};

/// What the kernel cache has done since the context was created.
struct CacheStats {
  /// The disk cache's directory; empty when the disk cache is off.
  std::string directory;
  uint64_t memoryHits = 0;
  uint64_t diskHits = 0;
  /// Compiles that found nothing cached.
  uint64_t misses = 0;
  /// Disk entries found corrupt, truncated or of another key or format, and
  /// deleted (each then compiled afresh).
  uint64_t rejectedEntries = 0;
  /// Entries stored on disk, and stores that failed (a full disk, say; the
  /// compile itself still succeeds).
  uint64_t stores = 0;
  uint64_t storeFailures = 0;
  /// Entries deleted to keep the directory within CacheOptions::maxDiskBytes.
  uint64_t evictions = 0;
};

/// A device a Context may open.
struct DeviceInfo {
  /// What ContextOptions::device takes to pick exactly this device.
  unsigned index = 0;
  std::string platform;
  /// The profile the driver reports (name, vendor, driver version, limits).
  DeviceProfile profile;
  /// Whether "" picks it.
  bool isDefault = false;
};

/// The devices of `backend` on this machine; none is an empty list.
Expected<std::vector<DeviceInfo>>
listDevices(Backend backend = Backend::OpenCL);

class Context {
public:
  /// Opens the device that `options` choose and prepares the kernel cache.
  /// Fails with ErrorKind::NoDevice (no such backend or device),
  /// ErrorKind::InvalidArgument (a bad profile file or overrides),
  /// ErrorKind::Device (the device cannot be opened) or ErrorKind::Cache.
  static Expected<Context> create(const ContextOptions &options = {});

  Backend backend() const;
  /// The device's profile, with the options' overrides applied: what
  /// programs are compiled for.
  const DeviceProfile &deviceProfile() const;

  /// Compiles function `options.entry` of Tile source `text`, specialised to
  /// `options.inputs`, for the context's device, or takes it from the
  /// cache. `sourceName` names the source in diagnostics and kernels'
  /// locations. A wrong program or binding fails with ErrorKind::Compile and
  /// every diagnostic.
  Expected<CompiledProgram>
  compile(const std::string &text, const CompileOptions &options,
          const std::string &sourceName = "<string>") const;
  /// compile() of the file at `path` (named by its path); an unreadable
  /// file fails with ErrorKind::File.
  Expected<CompiledProgram> compileFile(const std::string &path,
                                        const CompileOptions &options) const;
  /// compile() queued on the context's compile threads (a few, shared by
  /// every compileAsync of the context); the call returns at once.
  Future<CompiledProgram>
  compileAsync(std::string text, CompileOptions options,
               std::string sourceName = "<string>") const;

  /// Function `entry` (empty: the only one) of Tile source `text`, generic
  /// over its inputs' dtypes and shapes: each call specialises it to its
  /// inputs through compile(). Only parses here: a syntax error or a missing
  /// entry fails with ErrorKind::Compile and every diagnostic; type and
  /// shape errors come with the call that has the types.
  Expected<Function> load(const std::string &text,
                          const std::string &entry = "",
                          const std::string &sourceName = "<string>") const;
  /// load() of the file at `path` (named by its path); an unreadable file
  /// fails with ErrorKind::File.
  Expected<Function> loadFile(const std::string &path,
                              const std::string &entry = "") const;

  CacheStats cacheStats() const;
  /// Forgets the programs in memory (programs still held elsewhere stay
  /// valid); the disk cache is untouched.
  void clearMemoryCache() const;

  /// The implementation's state; created by create() only.
  struct State;
  explicit Context(std::shared_ptr<State> state) : state(std::move(state)) {}

private:
  /// A Function queues its asynchronous runs on the device's run queue.
  friend class Function;
  std::shared_ptr<State> state;
};

} // namespace tilec::jit

#endif // TILEC_JIT_CONTEXT_H
