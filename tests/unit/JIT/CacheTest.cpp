//===- CacheTest.cpp - The kernel cache: hits, invalidation, eviction -----===//

#include "JITFixture.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <thread>

namespace tilec::jit::testing {
namespace {

using CacheTest = JITFixture;

/// Compiles matmul of m x k by k x n in `context`, runs it on patterned
/// inputs and checks the product; returns where the program came from.
::testing::AssertionResult compileAndCheck(const Context &context,
                                           const std::string &text,
                                           const CompileOptions &options,
                                           ProgramOrigin &origin) {
  Expected<CompiledProgram> program = context.compile(text, options);
  if (!program)
    return ::testing::AssertionFailure() << program.error().describe();
  origin = program->origin();
  const Shape &aShape = options.inputs[0].shape;
  const Shape &bShape = options.inputs[1].shape;
  HostTensor a =
      makeTensor(aShape, [](int64_t i) { return patternValue(i, 1); });
  HostTensor b =
      makeTensor(bShape, [](int64_t i) { return patternValue(i, 2); });
  Expected<std::vector<HostTensor>> outputs = program->run({a, b});
  if (!outputs)
    return ::testing::AssertionFailure() << outputs.error().describe();
  HostTensor expected = hostMatmul(a, b);
  if (!((*outputs)[0] == expected))
    return ::testing::AssertionFailure() << "wrong product";
  return ::testing::AssertionSuccess();
}

TEST_F(CacheTest, MemoryThenDiskThenMemory) {
  std::optional<Context> first;
  ASSERT_TRUE(open(options(), first));
  EXPECT_EQ(first->cacheStats().directory, cacheDir);
  ProgramOrigin origin;
  ASSERT_TRUE(compileAndCheck(*first, kMatmul, matmulOptions(5, 7, 3), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  EXPECT_EQ(entryFiles().size(), 1u);
  ASSERT_TRUE(compileAndCheck(*first, kMatmul, matmulOptions(5, 7, 3), origin));
  EXPECT_EQ(origin, ProgramOrigin::MemoryCache);
  CacheStats stats = first->cacheStats();
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.memoryHits, 1u);
  EXPECT_EQ(stats.stores, 1u);

  // A new context, as a new process would be: the disk has it, and the
  // program runs from the stored bundle and driver binary.
  std::optional<Context> second;
  ASSERT_TRUE(open(options(), second));
  ASSERT_TRUE(
      compileAndCheck(*second, kMatmul, matmulOptions(5, 7, 3), origin));
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
  ASSERT_TRUE(
      compileAndCheck(*second, kMatmul, matmulOptions(5, 7, 3), origin));
  EXPECT_EQ(origin, ProgramOrigin::MemoryCache);
  stats = second->cacheStats();
  EXPECT_EQ(stats.diskHits, 1u);
  EXPECT_EQ(stats.misses, 0u);

  second->clearMemoryCache();
  ASSERT_TRUE(
      compileAndCheck(*second, kMatmul, matmulOptions(5, 7, 3), origin));
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
}

TEST_F(CacheTest, BindingOrderDoesNotMatter) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  ProgramOrigin origin;
  CompileOptions ordered = matmulOptions(2, 3, 4);
  ASSERT_TRUE(compileAndCheck(*context, kMatmul, ordered, origin));
  CompileOptions reversed = ordered;
  std::swap(reversed.inputs[0], reversed.inputs[1]);
  Expected<CompiledProgram> program = context->compile(kMatmul, reversed);
  ASSERT_TRUE(program);
  EXPECT_EQ(program->origin(), ProgramOrigin::MemoryCache);
}

TEST_F(CacheTest, ChangesOfTextShapesOrDeviceMissTheCache) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  ProgramOrigin origin;
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(4, 4, 4), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);

  // The same function, other text (a comment).
  std::string commented = std::string("// A comment.\n") + kMatmul;
  ASSERT_TRUE(
      compileAndCheck(*context, commented, matmulOptions(4, 4, 4), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  // Other shapes.
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(4, 4, 8), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  EXPECT_EQ(entryFiles().size(), 3u);

  // Another driver version: another device fingerprint, so another key,
  // though the disk holds the program for this device.
  ContextOptions newDriver = options();
  newDriver.profileOverrides = R"({"driver_version": "99.0-tilec-test"})";
  std::optional<Context> upgraded;
  ASSERT_TRUE(open(newDriver, upgraded));
  EXPECT_EQ(
      deviceFingerprint(upgraded->deviceProfile()).find("99.0-tilec-test") !=
          std::string::npos,
      true);
  ASSERT_TRUE(
      compileAndCheck(*upgraded, kMatmul, matmulOptions(4, 4, 4), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  EXPECT_EQ(entryFiles().size(), 4u);

  // And the original device still finds its own entry.
  std::optional<Context> original;
  ASSERT_TRUE(open(options(), original));
  ASSERT_TRUE(
      compileAndCheck(*original, kMatmul, matmulOptions(4, 4, 4), origin));
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
}

/// Rewrites the single entry file in `files` with `edit` applied to its
/// bytes.
void editEntry(const std::filesystem::path &file,
               const std::function<void(std::string &)> &edit) {
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in),
                 std::istreambuf_iterator<char>());
  }
  edit(bytes);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

/// A source whose text stays the same while a file it imports changes must
/// not be served the old kernels, from memory or from disk.
TEST_F(CacheTest, AChangedImportMissesTheCache) {
  std::string layers = cacheDir + "/layers.tile";
  std::string main = cacheDir + "/main.tile";
  auto write = [](const std::string &path, const std::string &text) {
    std::ofstream(path) << text;
  };
  write(main, "import \"layers.tile\";\n"
              "function f(X[N]) -> (Y) { Y = scale(X); }\n");
  write(layers, "function scale(X[N]) -> (Y) { Y = X * 2; }\n");
  CompileOptions scaleOptions;
  scaleOptions.inputs = {{"X", DType::F32, {3}}};
  HostTensor x = makeTensor({3}, [](int64_t i) { return double(i + 1); });
  auto runOnce = [&](const Context &context, ProgramOrigin &origin) {
    Expected<CompiledProgram> program = context.compileFile(main, scaleOptions);
    EXPECT_TRUE(program) << program.error().describe();
    origin = program->origin();
    Expected<std::vector<HostTensor>> outputs = program->run({x});
    EXPECT_TRUE(outputs) << outputs.error().describe();
    return (*outputs)[0].getDouble(2);
  };
  std::optional<Context> first;
  ASSERT_TRUE(open(options(), first));
  ProgramOrigin origin;
  EXPECT_EQ(runOnce(*first, origin), 6.0);
  EXPECT_EQ(origin, ProgramOrigin::Compiled);

  write(layers, "function scale(X[N]) -> (Y) { Y = X * 3; }\n");
  EXPECT_EQ(runOnce(*first, origin), 9.0);
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  std::optional<Context> second;
  ASSERT_TRUE(open(options(), second));
  EXPECT_EQ(runOnce(*second, origin), 9.0);
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
}

TEST_F(CacheTest, CorruptOrTruncatedEntriesAreDeletedAndRebuilt) {
  std::vector<std::function<void(std::string &)>> damages = {
      // A flipped byte in the payload.
      [](std::string &bytes) { bytes[bytes.size() / 2] ^= 0x5A; },
      // Truncated.
      [](std::string &bytes) { bytes.resize(bytes.size() - 100); },
      // A header only.
      [](std::string &bytes) { bytes.resize(20); },
      // Empty.
      [](std::string &bytes) { bytes.clear(); },
      // Another format version.
      [](std::string &bytes) { bytes[8] = 99; },
  };
  for (size_t d = 0; d < damages.size(); ++d) {
    SCOPED_TRACE("damage " + std::to_string(d));
    std::optional<Context> writer;
    ASSERT_TRUE(open(options(), writer));
    ProgramOrigin origin;
    ASSERT_TRUE(
        compileAndCheck(*writer, kMatmul, matmulOptions(3, 5, 2), origin));
    std::vector<std::filesystem::path> files = entryFiles();
    ASSERT_EQ(files.size(), 1u);
    editEntry(files[0], damages[d]);

    std::optional<Context> reader;
    ASSERT_TRUE(open(options(), reader));
    ASSERT_TRUE(
        compileAndCheck(*reader, kMatmul, matmulOptions(3, 5, 2), origin));
    EXPECT_EQ(origin, ProgramOrigin::Compiled);
    EXPECT_EQ(reader->cacheStats().rejectedEntries, 1u);
    EXPECT_EQ(reader->cacheStats().stores, 1u);

    // The rebuilt entry is whole again.
    std::optional<Context> third;
    ASSERT_TRUE(open(options(), third));
    ASSERT_TRUE(
        compileAndCheck(*third, kMatmul, matmulOptions(3, 5, 2), origin));
    EXPECT_EQ(origin, ProgramOrigin::DiskCache);
    std::filesystem::remove(entryFiles()[0]);
  }
}

TEST_F(CacheTest, EntriesThatAreNotRegularFilesAreReplaced) {
  // Whatever holds an entry's name, the application gets a fresh compile
  // and the entry is rewritten: no exception (a directory read through a
  // stream throws), no hang (opening a FIFO waits for a writer, reading
  // /dev/zero never ends).
  std::vector<std::pair<const char *, std::function<void(const std::string &)>>>
      replacements = {
          {"a directory",
           [](const std::string &path) {
             std::filesystem::create_directory(path);
             std::ofstream(path + "/inside") << "x";
           }},
          {"a FIFO",
           [](const std::string &path) {
             ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
           }},
          {"a link to /dev/zero",
           [](const std::string &path) {
             std::filesystem::create_symlink("/dev/zero", path);
           }},
          {"a link to /dev/urandom",
           [](const std::string &path) {
             std::filesystem::create_symlink("/dev/urandom", path);
           }},
          {"garbage",
           [](const std::string &path) {
             std::ofstream(path, std::ios::binary) << std::string(4096, '\xA5');
           }},
      };
  for (auto &[what, replace] : replacements) {
    SCOPED_TRACE(what);
    std::optional<Context> writer;
    ASSERT_TRUE(open(options(), writer));
    ProgramOrigin origin;
    ASSERT_TRUE(
        compileAndCheck(*writer, kMatmul, matmulOptions(3, 5, 2), origin));
    std::vector<std::filesystem::path> files = entryFiles();
    ASSERT_EQ(files.size(), 1u);
    std::filesystem::remove(files[0]);
    replace(files[0].string());

    std::optional<Context> reader;
    ASSERT_TRUE(open(options(), reader));
    ASSERT_TRUE(
        compileAndCheck(*reader, kMatmul, matmulOptions(3, 5, 2), origin));
    EXPECT_EQ(origin, ProgramOrigin::Compiled);
    EXPECT_EQ(reader->cacheStats().rejectedEntries, 1u);
    EXPECT_EQ(reader->cacheStats().stores, 1u);
    EXPECT_TRUE(std::filesystem::is_regular_file(
        std::filesystem::symlink_status(files[0])));

    std::optional<Context> third;
    ASSERT_TRUE(open(options(), third));
    ASSERT_TRUE(
        compileAndCheck(*third, kMatmul, matmulOptions(3, 5, 2), origin));
    EXPECT_EQ(origin, ProgramOrigin::DiskCache);
    std::filesystem::remove(files[0]);
  }
}

TEST_F(CacheTest, EntryOfAnotherKeyIsRejected) {
  std::optional<Context> writer;
  ASSERT_TRUE(open(options(), writer));
  ProgramOrigin origin;
  ASSERT_TRUE(
      compileAndCheck(*writer, kMatmul, matmulOptions(2, 2, 2), origin));
  ASSERT_TRUE(
      compileAndCheck(*writer, kMatmul, matmulOptions(3, 3, 3), origin));
  std::vector<std::filesystem::path> files = entryFiles();
  ASSERT_EQ(files.size(), 2u);
  // Each file now holds the other's (intact) entry: a hash collision, as
  // far as the reader can tell.
  std::filesystem::path swap = cacheDir + "/swap";
  std::filesystem::rename(files[0], swap);
  std::filesystem::rename(files[1], files[0]);
  std::filesystem::rename(swap, files[1]);

  std::optional<Context> reader;
  ASSERT_TRUE(open(options(), reader));
  ASSERT_TRUE(
      compileAndCheck(*reader, kMatmul, matmulOptions(2, 2, 2), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  ASSERT_TRUE(
      compileAndCheck(*reader, kMatmul, matmulOptions(3, 3, 3), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
  EXPECT_EQ(reader->cacheStats().rejectedEntries, 2u);
}

TEST_F(CacheTest, EvictsTheLeastRecentlyUsedUnderTheSizeBound) {
  // Measure the three entries in a directory of their own, then bound the
  // cache so that the first with either other fits, but not all three.
  std::vector<CompileOptions> programs = {
      matmulOptions(6, 6, 6), matmulOptions(7, 7, 7), matmulOptions(8, 8, 8)};
  std::vector<uint64_t> sizes;
  ContextOptions probeOptions = options();
  probeOptions.cache.directory = cacheDir + "/probe";
  for (const CompileOptions &program : programs) {
    std::optional<Context> probe;
    ASSERT_TRUE(open(probeOptions, probe));
    ASSERT_TRUE(probe->compile(kMatmul, program));
    uint64_t total = 0;
    for (const auto &entry :
         std::filesystem::directory_iterator(probeOptions.cache.directory))
      total += entry.file_size();
    sizes.push_back(total);
    std::filesystem::remove_all(probeOptions.cache.directory);
  }
  ContextOptions bounded = options();
  bounded.cache.maxDiskBytes = sizes[0] + std::max(sizes[1], sizes[2]);
  std::optional<Context> context;
  ASSERT_TRUE(open(bounded, context));
  auto pause = [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  };
  ProgramOrigin origin;
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(6, 6, 6), origin));
  pause();
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(7, 7, 7), origin));
  pause();
  // Use the first again, from the disk: it becomes the most recently used.
  std::optional<Context> user;
  ASSERT_TRUE(open(bounded, user));
  ASSERT_TRUE(compileAndCheck(*user, kMatmul, matmulOptions(6, 6, 6), origin));
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
  pause();
  // A third entry: the second, least recently used, goes.
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(8, 8, 8), origin));
  EXPECT_EQ(context->cacheStats().evictions, 1u);
  EXPECT_EQ(entryFiles().size(), 2u);

  std::optional<Context> checker;
  ASSERT_TRUE(open(bounded, checker));
  ASSERT_TRUE(
      compileAndCheck(*checker, kMatmul, matmulOptions(6, 6, 6), origin));
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
  ASSERT_TRUE(
      compileAndCheck(*checker, kMatmul, matmulOptions(8, 8, 8), origin));
  EXPECT_EQ(origin, ProgramOrigin::DiskCache);
  ASSERT_TRUE(
      compileAndCheck(*checker, kMatmul, matmulOptions(7, 7, 7), origin));
  EXPECT_EQ(origin, ProgramOrigin::Compiled);
}

TEST_F(CacheTest, DiskCacheCanBeDisabled) {
  ContextOptions memoryOnly = options();
  memoryOnly.cache.diskEnabled = false;
  std::optional<Context> context;
  ASSERT_TRUE(open(memoryOnly, context));
  EXPECT_TRUE(context->cacheStats().directory.empty());
  ProgramOrigin origin;
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(2, 3, 4), origin));
  ASSERT_TRUE(
      compileAndCheck(*context, kMatmul, matmulOptions(2, 3, 4), origin));
  EXPECT_EQ(origin, ProgramOrigin::MemoryCache);
  EXPECT_TRUE(entryFiles().empty());
}

TEST_F(CacheTest, DirectoryFromTheEnvironment) {
  std::string directory = cacheDir + "/from-env";
  ASSERT_EQ(setenv("TILEC_CACHE_DIR", directory.c_str(), 1), 0);
  ContextOptions fromEnvironment = options();
  fromEnvironment.cache.directory.clear();
  Expected<Context> context = Context::create(fromEnvironment);
  unsetenv("TILEC_CACHE_DIR");
  ASSERT_TRUE(context) << context.error().describe();
  EXPECT_EQ(context->cacheStats().directory, directory);
  EXPECT_TRUE(std::filesystem::is_directory(directory));
}

} // namespace
} // namespace tilec::jit::testing
