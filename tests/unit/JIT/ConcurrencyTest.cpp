//===- ConcurrencyTest.cpp - Many threads compile and run at once ---------===//

#include "JITFixture.h"

#include <atomic>
#include <thread>

namespace tilec::jit::testing {
namespace {

using ConcurrencyTest = JITFixture;

/// Compiles matmul of `size`^3 in `context` and runs it `runs` times on
/// inputs seeded by `seed`, checking every product; failures go to
/// `failures` (gtest's assertions are thread-safe, but say less).
void compileAndRun(const Context &context, int64_t size, int seed, int runs,
                   std::atomic<int> &failures) {
  Expected<CompiledProgram> program =
      context.compile(kMatmul, matmulOptions(size, size, size));
  if (!program) {
    ADD_FAILURE() << program.error().describe();
    ++failures;
    return;
  }
  for (int run = 0; run < runs; ++run) {
    HostTensor a = makeTensor(
        {size, size}, [&](int64_t i) { return patternValue(i, seed + run); });
    HostTensor b = makeTensor({size, size}, [&](int64_t i) {
      return patternValue(i, 2 * seed + run);
    });
    Expected<std::vector<HostTensor>> outputs = program->run({a, b});
    if (!outputs) {
      ADD_FAILURE() << outputs.error().describe();
      ++failures;
      return;
    }
    if (!((*outputs)[0] == hostMatmul(a, b))) {
      ADD_FAILURE() << "wrong product of size " << size << ", seed " << seed;
      ++failures;
    }
  }
}

TEST_F(ConcurrencyTest,
       EightThreadsCompileAndRunDifferentAndIdenticalPrograms) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  // Threads 2i and 2i+1 compile the same program: four distinct ones.
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      compileAndRun(*context, 5 + t / 2, t, /*runs=*/4, failures);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  CacheStats stats = context->cacheStats();
  // Every compile was counted once, however the races went.
  EXPECT_EQ(stats.misses + stats.memoryHits + stats.diskHits, 8u);
  EXPECT_GE(stats.misses, 4u);
  EXPECT_EQ(entryFiles().size(), 4u);

  // Afterwards every program is in memory.
  for (int size = 5; size < 9; ++size) {
    Expected<CompiledProgram> program =
        context->compile(kMatmul, matmulOptions(size, size, size));
    ASSERT_TRUE(program);
    EXPECT_EQ(program->origin(), ProgramOrigin::MemoryCache);
  }
}

TEST_F(ConcurrencyTest, ContextsOfSeveralThreadsShareTheDiskCache) {
  // Each thread its own context (as separate processes would), all on one
  // cache directory, compiling the same two programs.
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      Expected<Context> context = Context::create(options());
      if (!context) {
        ADD_FAILURE() << context.error().describe();
        ++failures;
        return;
      }
      compileAndRun(*context, 9 + t % 2, t, /*runs=*/2, failures);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(entryFiles().size(), 2u);
}

TEST_F(ConcurrencyTest, AsynchronousCompilesAndRuns) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  std::vector<Future<CompiledProgram>> compiles;
  for (int64_t size = 3; size < 7; ++size)
    compiles.push_back(
        context->compileAsync(kMatmul, matmulOptions(size, size, size)));
  std::vector<CompiledProgram> programs;
  for (Future<CompiledProgram> &compile : compiles) {
    compile.wait();
    EXPECT_TRUE(compile.ready());
    Expected<CompiledProgram> program = compile.get();
    ASSERT_TRUE(program) << program.error().describe();
    EXPECT_FALSE(compile.valid());
    programs.push_back(*program);
  }

  std::vector<Future<std::vector<HostTensor>>> runs;
  std::vector<HostTensor> expected;
  for (size_t p = 0; p < programs.size(); ++p) {
    int64_t size = programs[p].inputs()[0].shape[0];
    HostTensor a =
        makeTensor({size, size}, [&](int64_t i) { return patternValue(i, p); });
    HostTensor b = makeTensor(
        {size, size}, [&](int64_t i) { return patternValue(i, p + 5); });
    expected.push_back(hostMatmul(a, b));
    runs.push_back(programs[p].runAsync({a, b}));
  }
  for (size_t p = 0; p < runs.size(); ++p) {
    EXPECT_TRUE(runs[p].waitFor(std::chrono::seconds(60)));
    Expected<std::vector<HostTensor>> outputs = runs[p].get();
    ASSERT_TRUE(outputs) << outputs.error().describe();
    expectSameTensor((*outputs)[0], expected[p]);
  }

  // A failing compile in the background fails in its future.
  Future<CompiledProgram> broken =
      context->compileAsync("function f(A) -> (B) { B = ; }", {});
  Expected<CompiledProgram> result = broken.get();
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::Compile);
}

} // namespace
} // namespace tilec::jit::testing
