//===- ErrorTest.cpp - Every failure of the JIT comes back as a value -----===//

#include "JITFixture.h"

#include "tilec/Runtime/Plural.h"

#include <fstream>
#include <unistd.h>

namespace tilec::jit::testing {
namespace {

using ErrorTest = JITFixture;

/// The diagnostics of a failed compile whose error is of kind Compile.
std::vector<Diagnostic> compileDiagnostics(const Expected<CompiledProgram> &r) {
  EXPECT_FALSE(r);
  if (r)
    return {};
  EXPECT_EQ(r.error().kind(), ErrorKind::Compile) << r.error().describe();
  return r.error().diagnostics();
}

TEST_F(ErrorTest, SyntaxErrorCarriesItsLocationAndRenderedText) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> result =
      context->compile("function f(A) -> (B) {\n  B = A + ;\n}\n",
                       {"", {{"A", DType::F32, {4}}}}, "bad.tile");
  std::vector<Diagnostic> diagnostics = compileDiagnostics(result);
  ASSERT_FALSE(diagnostics.empty());
  const Diagnostic &first = diagnostics.front();
  EXPECT_EQ(first.severity, Diagnostic::Severity::Error);
  EXPECT_EQ(first.file, "bad.tile");
  EXPECT_EQ(first.line, 2u);
  EXPECT_EQ(first.column, 11u);
  EXPECT_FALSE(first.message.empty());
  // The rendered form: location, severity, message, the line and a caret.
  EXPECT_EQ(first.rendered.rfind("bad.tile:2:11: error: " + first.message, 0),
            0u)
      << first.rendered;
  EXPECT_NE(first.rendered.find("  B = A + ;\n          ^"), std::string::npos)
      << first.rendered;
  EXPECT_NE(result.error().message().find("bad.tile:2:11"), std::string::npos);
  EXPECT_NE(result.error().describe().find(first.rendered), std::string::npos);
}

TEST_F(ErrorTest, DescribeSaysEachDiagnosticOnce) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> result =
      context->compile("function f(A) -> (B) {\n  C = A + ;\n  B = A * ;\n}\n",
                       {"", {{"A", DType::F32, {4}}}}, "two.tile");
  ASSERT_FALSE(result);
  const Error &error = result.error();
  ASSERT_GE(error.diagnostics().size(), 2u);
  EXPECT_EQ(error.message(),
            "compiling 'two.tile' failed: two.tile:2:11: error: " +
                error.diagnostics()[0].message);
  // The message, then the first error's source line and caret (its first
  // line is the message's end), then the second error whole.
  EXPECT_EQ(error.describe(), error.message() + "\n  C = A + ;\n          ^\n" +
                                  error.diagnostics()[1].rendered)
      << error.describe();

  // An error without diagnostics is its message.
  Error plain(ErrorKind::InvalidArgument, "bad");
  EXPECT_EQ(plain.describe(), "bad");
  // An error that wraps a compile error says the wrapped diagnostic once.
  Error wrapped(error.kind(), "while loading: " + error.message(),
                error.diagnostics());
  EXPECT_EQ(wrapped.describe(), "while loading: " + error.describe());
}

TEST_F(ErrorTest, CountsArePluralOnlyWhenNotOne) {
  EXPECT_EQ(pluralize(0, "input"), "0 inputs");
  EXPECT_EQ(pluralize(1, "input"), "1 input");
  EXPECT_EQ(pluralize(2, "input"), "2 inputs");
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> scale =
      context->compile(kScale, {"", {{"X", DType::F32, {2}}}});
  ASSERT_TRUE(scale) << scale.error().describe();
  HostTensor x(DType::F32, {2});
  Expected<std::vector<HostTensor>> two = scale->run({x, x});
  ASSERT_FALSE(two);
  EXPECT_EQ(two.error().message(), "'scale' takes 1 input, not 2");
  Expected<DeviceOutputs> none = scale->runOnDevice({});
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message(), "'scale' takes 1 input, not 0");
}

TEST_F(ErrorTest, EveryIndependentErrorIsReported) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> result =
      context->compile("function f(A) -> (B) {\n  C = A + ;\n  B = A * ;\n}\n",
                       {"", {{"A", DType::F32, {4}}}}, "two.tile");
  std::vector<Diagnostic> diagnostics = compileDiagnostics(result);
  ASSERT_GE(diagnostics.size(), 2u);
  EXPECT_EQ(diagnostics[0].line, 2u);
  EXPECT_EQ(diagnostics[1].line, 3u);
}

TEST_F(ErrorTest, UnboundParameterIsACompileError) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> result =
      context->compile(kMatmul, {"", {{"A", DType::F32, {2, 3}}}}, "mm.tile");
  std::vector<Diagnostic> diagnostics = compileDiagnostics(result);
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics[0].message.find("'B' is not bound"), std::string::npos)
      << diagnostics[0].message;
  EXPECT_EQ(diagnostics[0].file, "mm.tile");
  EXPECT_EQ(diagnostics[0].line, 1u);
}

TEST_F(ErrorTest, BindingOfNoParameterAndMismatchedShapesAreCompileErrors) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  CompileOptions extra = matmulOptions(2, 3, 4);
  extra.inputs.push_back({"Z", DType::F32, {1}});
  EXPECT_FALSE(compileDiagnostics(context->compile(kMatmul, extra)).empty());
  // K is 3 in A and 5 in B.
  CompileOptions mismatched = {
      "", {{"A", DType::F32, {2, 3}}, {"B", DType::F32, {5, 4}}}};
  EXPECT_FALSE(
      compileDiagnostics(context->compile(kMatmul, mismatched)).empty());
}

TEST_F(ErrorTest, MissingEntryIsACompileError) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  CompileOptions compileOptions = matmulOptions(2, 2, 2);
  compileOptions.entry = "no_such_function";
  std::vector<Diagnostic> diagnostics =
      compileDiagnostics(context->compile(kMatmul, compileOptions));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics[0].message.find("matmul"), std::string::npos)
      << "the error lists the functions there are: " << diagnostics[0].message;
}

TEST_F(ErrorTest, FailedCompilesAreNotCached) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  for (int attempt = 0; attempt < 2; ++attempt)
    EXPECT_FALSE(context->compile("function f(A) -> (B) { B = ; }",
                                  {"", {{"A", DType::F32, {4}}}}));
  EXPECT_EQ(context->cacheStats().misses, 2u);
  EXPECT_TRUE(entryFiles().empty());
}

TEST_F(ErrorTest, WrongInputsAtRunAreInvalidArguments) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> program =
      context->compile(kMatmul, matmulOptions(2, 3, 4));
  ASSERT_TRUE(program) << program.error().describe();
  HostTensor a(DType::F32, {2, 3}), b(DType::F32, {3, 4});

  Expected<std::vector<HostTensor>> tooFew = program->run({a});
  ASSERT_FALSE(tooFew);
  EXPECT_EQ(tooFew.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(tooFew.error().message().find("takes 2 inputs, not 1"),
            std::string::npos)
      << tooFew.error().message();

  Expected<std::vector<HostTensor>> wrongDType =
      program->run({a, HostTensor(DType::I32, {3, 4})});
  ASSERT_FALSE(wrongDType);
  EXPECT_EQ(wrongDType.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(wrongDType.error().message().find("input 'B' is i32[3, 4]"),
            std::string::npos)
      << wrongDType.error().message();

  Expected<std::vector<std::shared_ptr<DeviceTensor>>> wrongShape =
      program->runOnDevice({&a, &a});
  ASSERT_FALSE(wrongShape);
  EXPECT_EQ(wrongShape.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(wrongShape.error().message().find("input 'B' is f32[2, 3]"),
            std::string::npos)
      << wrongShape.error().message();

  Expected<std::vector<std::shared_ptr<DeviceTensor>>> nullTensor =
      program->runOnDevice({&a, std::shared_ptr<const DeviceTensor>()});
  ASSERT_FALSE(nullTensor);
  EXPECT_EQ(nullTensor.error().kind(), ErrorKind::InvalidArgument);

  // The program still runs after the refusals.
  EXPECT_TRUE(program->run({a, b}));
}

TEST_F(ErrorTest, DeviceTensorOfAnotherContextIsAnInvalidArgument) {
  std::optional<Context> first, second;
  ASSERT_TRUE(open(options(), first));
  ASSERT_TRUE(open(options(), second));
  Expected<CompiledProgram> scaleOnFirst =
      first->compile(kScale, {"", {{"X", DType::F32, {8}}}});
  Expected<CompiledProgram> scaleOnSecond =
      second->compile(kScale, {"", {{"X", DType::F32, {8}}}});
  ASSERT_TRUE(scaleOnFirst && scaleOnSecond);
  HostTensor x = makeTensor({8}, [](int64_t i) { return double(i); });
  auto made = scaleOnFirst->runOnDevice({&x});
  ASSERT_TRUE(made) << made.error().describe();
  auto refused = scaleOnSecond->runOnDevice({(*made)[0]});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::InvalidArgument);
  EXPECT_NE(refused.error().message().find("another context"),
            std::string::npos)
      << refused.error().message();
}

TEST_F(ErrorTest, NoSuchDeviceOrBackend) {
  ContextOptions byName = options();
  byName.device = "no device is called this";
  Expected<Context> named = Context::create(byName);
  ASSERT_FALSE(named);
  EXPECT_EQ(named.error().kind(), ErrorKind::NoDevice);

  ContextOptions byIndex = options();
  byIndex.device = "999";
  Expected<Context> indexed = Context::create(byIndex);
  ASSERT_FALSE(indexed);
  EXPECT_EQ(indexed.error().kind(), ErrorKind::NoDevice);

  ContextOptions vulkan = options();
  vulkan.backend = Backend::Vulkan;
  vulkan.device = "no device is called this";
  Expected<Context> onVulkan = Context::create(vulkan);
  ASSERT_FALSE(onVulkan);
  EXPECT_EQ(onVulkan.error().kind(), ErrorKind::NoDevice);
}

TEST_F(ErrorTest, BadProfileOverridesAreInvalidArguments) {
  ContextOptions badJson = options();
  badJson.profileOverrides = "{\"max_alloc_bytes\": ";
  Expected<Context> context = Context::create(badJson);
  ASSERT_FALSE(context);
  EXPECT_EQ(context.error().kind(), ErrorKind::InvalidArgument);

  ContextOptions missingFile = options();
  missingFile.profilePath = cacheDir + "/no-such-profile.json";
  Expected<Context> noProfile = Context::create(missingFile);
  ASSERT_FALSE(noProfile);
  EXPECT_EQ(noProfile.error().kind(), ErrorKind::InvalidArgument);
}

// The names the Python package maps to its exceptions (errors.py).
TEST(ErrorKindTest, EveryKindHasItsName) {
  EXPECT_STREQ(errorKindName(ErrorKind::InvalidArgument), "invalid argument");
  EXPECT_STREQ(errorKindName(ErrorKind::Compile), "compile");
  EXPECT_STREQ(errorKindName(ErrorKind::NoDevice), "no device");
  EXPECT_STREQ(errorKindName(ErrorKind::Device), "device");
  EXPECT_STREQ(errorKindName(ErrorKind::Cache), "cache");
  EXPECT_STREQ(errorKindName(ErrorKind::File), "file");
  EXPECT_STREQ(errorKindName(ErrorKind::Internal), "internal");
}

TEST_F(ErrorTest, UnreadableSourceFileIsAFileError) {
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> result =
      context->compileFile(cacheDir + "/missing.tile", {});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::File);
}

TEST_F(ErrorTest, DirectoryAsSourceFileIsAFileErrorNotAnException) {
  // libstdc++'s stream throws std::ios_base::failure reading a directory.
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  Expected<CompiledProgram> result = context->compileFile(cacheDir, {});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind(), ErrorKind::File);
}

TEST_F(ErrorTest, SourceFileDiagnosticsNameThePath) {
  std::string path = cacheDir + "/broken.tile";
  std::ofstream(path) << "function f(A) -> (B) {\n  B = A + ;\n}\n";
  std::optional<Context> context;
  ASSERT_TRUE(open(options(), context));
  std::vector<Diagnostic> diagnostics = compileDiagnostics(
      context->compileFile(path, {"", {{"A", DType::F32, {4}}}}));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_EQ(diagnostics[0].file, path);
}

TEST_F(ErrorTest, UnusableCacheDirectoryIsACacheError) {
  // A regular file where the directory should be, and a path below it.
  std::string file = cacheDir + "/a-file";
  std::ofstream(file) << "not a directory";
  for (const std::string &directory : {file, file + "/below"}) {
    ContextOptions contextOptions = options();
    contextOptions.cache.directory = directory;
    Expected<Context> context = Context::create(contextOptions);
    ASSERT_FALSE(context) << directory;
    EXPECT_EQ(context.error().kind(), ErrorKind::Cache);
    EXPECT_NE(context.error().message().find(directory), std::string::npos);
  }
  // The same directory through the environment.
  ASSERT_EQ(setenv("TILEC_CACHE_DIR", file.c_str(), 1), 0);
  ContextOptions fromEnvironment = options();
  fromEnvironment.cache.directory.clear();
  Expected<Context> context = Context::create(fromEnvironment);
  unsetenv("TILEC_CACHE_DIR");
  ASSERT_FALSE(context);
  EXPECT_EQ(context.error().kind(), ErrorKind::Cache);
  EXPECT_NE(context.error().message().find("TILEC_CACHE_DIR"),
            std::string::npos);
}

TEST_F(ErrorTest, UnwritableCacheDirectoryIsACacheError) {
  if (geteuid() == 0)
    GTEST_SKIP() << "permissions do not bind root";
  std::string directory = cacheDir + "/read-only";
  std::filesystem::create_directory(directory);
  std::filesystem::permissions(directory,
                               std::filesystem::perms::owner_read |
                                   std::filesystem::perms::owner_exec);
  ContextOptions contextOptions = options();
  contextOptions.cache.directory = directory;
  Expected<Context> context = Context::create(contextOptions);
  std::filesystem::permissions(directory, std::filesystem::perms::owner_all);
  ASSERT_FALSE(context);
  EXPECT_EQ(context.error().kind(), ErrorKind::Cache);
}

TEST_F(ErrorTest, ProgramTooLargeForTheDeviceIsACompileError) {
  // A device that pretends to have 4 bytes of memory: even streamed one
  // element at a time, X and its result do not fit.
  ContextOptions tiny = options();
  tiny.profileOverrides = R"({"max_alloc_bytes": 64, "global_mem_bytes": 4})";
  std::optional<Context> context;
  ASSERT_TRUE(open(tiny, context));
  std::vector<Diagnostic> diagnostics = compileDiagnostics(
      context->compile(kScale, {"", {{"X", DType::F32, {1024}}}}, "big.tile"));
  ASSERT_FALSE(diagnostics.empty());
  EXPECT_NE(diagnostics[0].message.find("more than the memory of device"),
            std::string::npos)
      << diagnostics[0].message;
  EXPECT_EQ(diagnostics[0].file, "big.tile");
}

} // namespace
} // namespace tilec::jit::testing
