//===- Context.cpp - A device to compile for, with its cache --------------===//

#include "tilec/JIT/Context.h"

#include "CacheKey.h"
#include "ContextState.h"
#include "SourceCompiler.h"

#include <cstdio>
#include <optional>

namespace tilec::jit {

std::shared_ptr<ProgramCore>
Context::State::loadFromDisk(const CacheKey &key, const std::string &name) {
  CacheEntry entry;
  switch (disk->load(key, entry)) {
  case DiskCache::LoadOutcome::Miss:
    return nullptr;
  case DiskCache::LoadOutcome::Rejected:
    record(&CacheStats::rejectedEntries);
    return nullptr;
  case DiskCache::LoadOutcome::Hit:
    break;
  }
  tilec::Expected<Bundle> bundle = parseBundle(entry.bundleJson, name);
  std::optional<Expected<PreparedBundle>> prepared;
  if (bundle)
    prepared.emplace(
        prepare(*bundle, entry.binary.empty() ? nullptr : &entry.binary, name));
  if (!prepared || !*prepared) {
    disk->remove(key);
    record(&CacheStats::rejectedEntries);
    return nullptr;
  }
  record(&CacheStats::diskHits);
  return makeProgramCore(session, std::move((*prepared)->executor));
}

Expected<std::shared_ptr<ProgramCore>>
Context::State::compileAfresh(const CacheKey &key, const std::string &text,
                              const std::string &sourceName,
                              const CompileOptions &options) {
  record(&CacheStats::misses);
  Expected<Bundle> bundle = compileBundle(
      text, sourceName, options, session->profile(), session->targets());
  if (!bundle)
    return bundle.error();
  Expected<PreparedBundle> prepared = prepare(*bundle, nullptr, sourceName);
  if (!prepared)
    return prepared.error();
  if (disk) {
    CacheEntry entry{serializeBundle(*bundle), std::move(prepared->binary)};
    DiskCache::StoreOutcome stored = disk->store(key, entry);
    record(stored.stored ? &CacheStats::stores : &CacheStats::storeFailures);
    record(&CacheStats::evictions, stored.evictions);
  }
  return makeProgramCore(session, std::move(prepared->executor));
}

Expected<Context> Context::create(const ContextOptions &options) {
  Expected<std::shared_ptr<DeviceSession>> session =
      DeviceSession::open(options);
  if (!session)
    return session.error();
  Expected<std::optional<DiskCache>> disk = DiskCache::open(options.cache);
  if (!disk)
    return disk.error();
  auto state = std::make_shared<State>();
  state->session = std::move(*session);
  state->disk = std::move(*disk);
  if (state->disk)
    state->stats.directory = state->disk->directory();
  return Context(std::move(state));
}

Backend Context::backend() const { return state->session->backend(); }

const DeviceProfile &Context::deviceProfile() const {
  return state->session->profile();
}

Expected<CompiledProgram>
Context::compile(const std::string &text, const CompileOptions &options,
                 const std::string &sourceName) const {
  DeviceSession &session = *state->session;
  CacheKey key = makeCacheKey(text, readImports(text, sourceName), sourceName,
                              options, session.backend(), session.profile(),
                              session.targets());
  auto handle = [](std::shared_ptr<ProgramCore> core, ProgramOrigin origin) {
    auto program = std::make_shared<CompiledProgram::State>();
    program->core = std::move(core);
    program->origin = origin;
    return CompiledProgram(std::move(program));
  };
  {
    std::lock_guard<std::mutex> guard(state->mutex);
    if (auto found = state->memory.find(key.text);
        found != state->memory.end()) {
      ++state->stats.memoryHits;
      return handle(found->second, ProgramOrigin::MemoryCache);
    }
  }

  // Threads compiling the same program at once each compile it; the first
  // to finish fills the memory cache, and the others' copies serve only
  // their own callers.
  ProgramOrigin origin = ProgramOrigin::DiskCache;
  std::shared_ptr<ProgramCore> core;
  if (state->disk)
    core = state->loadFromDisk(key, sourceName);
  if (!core) {
    origin = ProgramOrigin::Compiled;
    Expected<std::shared_ptr<ProgramCore>> compiled =
        state->compileAfresh(key, text, sourceName, options);
    if (!compiled)
      return compiled.error();
    core = std::move(*compiled);
  }
  std::lock_guard<std::mutex> guard(state->mutex);
  state->memory.emplace(std::move(key.text), core);
  return handle(std::move(core), origin);
}

/// The contents of the file at `path`.
static Expected<std::string> readSourceFile(const std::string &path) {
  // Not a std::ifstream: libstdc++ throws from a stream whose read fails
  // (a directory), and this library is built without exceptions, so that
  // would abort the application.
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return Error(ErrorKind::File, "cannot read '" + path + "'");
  std::string text;
  char chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
    text.append(chunk, got);
  bool failed = std::ferror(file);
  std::fclose(file);
  if (failed)
    return Error(ErrorKind::File, "cannot read '" + path + "'");
  return text;
}

Expected<CompiledProgram>
Context::compileFile(const std::string &path,
                     const CompileOptions &options) const {
  Expected<std::string> text = readSourceFile(path);
  if (!text)
    return text.error();
  return compile(*text, options, path);
}

Expected<Function> Context::loadFile(const std::string &path,
                                     const std::string &entry) const {
  Expected<std::string> text = readSourceFile(path);
  if (!text)
    return text.error();
  return load(*text, entry, path);
}

Future<CompiledProgram> Context::compileAsync(std::string text,
                                              CompileOptions options,
                                              std::string sourceName) const {
  return submitWork<CompiledProgram>(
      state->compiles,
      [context = *this, text = std::move(text), options = std::move(options),
       sourceName = std::move(sourceName)] {
        return context.compile(text, options, sourceName);
      });
}

CacheStats Context::cacheStats() const {
  std::lock_guard<std::mutex> guard(state->mutex);
  return state->stats;
}

void Context::clearMemoryCache() const {
  std::lock_guard<std::mutex> guard(state->mutex);
  state->memory.clear();
}

} // namespace tilec::jit
