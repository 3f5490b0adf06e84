//===- CacheKey.h - What identifies a compiled program ----------*- C++ -*-===//
//
// Internal to the JIT library. A compiled program is identified by
// everything its bundle and driver binary depend on; the key's text holds
// all of it, unambiguously (each field with its length), and its XXH3
// 128-bit hash names the disk cache's file.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_CACHEKEY_H
#define TILEC_JIT_LIB_CACHEKEY_H

#include "tilec/Compiler/Pipeline.h"
#include "tilec/JIT/Context.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"

#include <string>

namespace tilec::jit {

struct CacheKey {
  /// Every field, for an exact comparison (the disk entry stores it).
  std::string text;
  /// The XXH3 128-bit hash of `text` in 32 lowercase hex digits.
  std::string hash;
};

/// The key of compiling `options` of `text`, named `sourceName`, with the
/// files it imports (`imports`: readImports), for a device of `backend` with
/// `profile` (whose fingerprint and every limit count), printing `targets`.
/// The bindings count whatever their order.
CacheKey makeCacheKey(const std::string &text, const std::string &imports,
                      const std::string &sourceName,
                      const CompileOptions &options, Backend backend,
                      const DeviceProfile &profile,
                      const CompileTargets &targets);

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_CACHEKEY_H
