//===- ContextState.h - What a Context handle refers to ---------*- C++ -*-===//
//
// Internal to the JIT library.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_CONTEXTSTATE_H
#define TILEC_JIT_LIB_CONTEXTSTATE_H

#include "CacheKey.h"
#include "DiskCache.h"
#include "ProgramState.h"
#include "WorkQueue.h"

#include "tilec/JIT/Context.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace tilec::jit {

/// The most threads that compileAsync's compiles run on at once (each
/// compile is single-threaded).
constexpr unsigned kMaxCompileThreads = 4;

struct Context::State {
  std::shared_ptr<DeviceSession> session;
  std::optional<DiskCache> disk;
  /// Guards `memory` and `stats`.
  std::mutex mutex;
  /// Compiled programs by their key's text (exact, so never a collision).
  std::unordered_map<std::string, std::shared_ptr<ProgramCore>> memory;
  CacheStats stats;
  /// Where compileAsync queues its compiles.
  WorkQueue compiles{kMaxCompileThreads};

  /// Adds `count` to the statistic `field`.
  void record(uint64_t CacheStats::*field, uint64_t count = 1) {
    std::lock_guard<std::mutex> guard(mutex);
    stats.*field += count;
  }

  /// The program of `key` from the disk cache, or null; a rejected entry
  /// (undecodable, or refused by the device) is deleted.
  std::shared_ptr<ProgramCore> loadFromDisk(const CacheKey &key,
                                            const std::string &name);
  /// Compiles and prepares from scratch; stores the result on disk.
  Expected<std::shared_ptr<ProgramCore>>
  compileAfresh(const CacheKey &key, const std::string &text,
                const std::string &sourceName, const CompileOptions &options);
  /// Prepares `bundle` on the device, under the device's lock.
  Expected<PreparedBundle> prepare(const Bundle &bundle,
                                   const std::vector<unsigned char> *binary,
                                   const std::string &name) {
    std::lock_guard<std::mutex> guard(session->queueLock());
    return session->prepare(bundle, binary, name);
  }
};

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_CONTEXTSTATE_H
