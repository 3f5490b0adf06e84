//===- SourceCompiler.cpp - Tile text to a bundle, diagnostics kept -------===//

#include "SourceCompiler.h"

#include "tilec/Autodiff/Gradient.h"
#include "tilec/Compiler/CompileSource.h"
#include "tilec/JIT/Gradient.h"
#include "tilec/Support/CrashRecovery.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec::jit {

static Diagnostic::Severity getSeverity(llvm::SourceMgr::DiagKind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    return Diagnostic::Severity::Error;
  case llvm::SourceMgr::DK_Warning:
    return Diagnostic::Severity::Warning;
  case llvm::SourceMgr::DK_Note:
    return Diagnostic::Severity::Note;
  case llvm::SourceMgr::DK_Remark:
    return Diagnostic::Severity::Remark;
  }
  return Diagnostic::Severity::Error;
}

/// The SourceMgr's handler: records `reported` into the vector of
/// Diagnostics at `context` instead of printing it.
static void collectDiagnostic(const llvm::SMDiagnostic &reported,
                              void *context) {
  Diagnostic diagnostic;
  diagnostic.severity = getSeverity(reported.getKind());
  diagnostic.message = reported.getMessage().str();
  // A message without a location has line -1 (or 0) and no file.
  if (reported.getLineNo() > 0) {
    diagnostic.file = reported.getFilename().str();
    diagnostic.line = reported.getLineNo();
    diagnostic.column = reported.getColumnNo() + 1;
  }
  llvm::raw_string_ostream rendered(diagnostic.rendered);
  reported.print(/*ProgName=*/nullptr, rendered, /*ShowColors=*/false);
  rendered.flush();
  static_cast<std::vector<Diagnostic> *>(context)->push_back(
      std::move(diagnostic));
}

/// The first error's first rendered line after what failed, for
/// Error::message(): what a caller that shows one line shows
/// ("compiling 'f.tile' failed: f.tile:2:11: error: ..."). Error::describe
/// prints that diagnostic's source line and caret after it, not the line
/// again.
static std::string summarize(const std::vector<Diagnostic> &diagnostics,
                             const std::string &sourceName) {
  std::string failed = "compiling '" + sourceName + "' failed";
  for (const Diagnostic &diagnostic : diagnostics)
    if (diagnostic.severity == Diagnostic::Severity::Error)
      return failed + ": " +
             diagnostic.rendered.substr(0, diagnostic.rendered.find('\n'));
  return failed;
}

namespace {

/// One source on its way through the compiler's front end
/// (tilec/Compiler/CompileSource.h), with every diagnostic reported about
/// it kept for the error instead of printed.
struct SourceSession {
  SourceSession(const std::string &text, const std::string &sourceName)
      : text(text), sourceName(sourceName) {
    sourceMgr.setDiagHandler(collectDiagnostic, &diagnostics);
  }

  /// The source's text under its name, for the front end to add to
  /// `sourceMgr`.
  std::unique_ptr<llvm::MemoryBuffer> source() const {
    return llvm::MemoryBuffer::getMemBufferCopy(text, sourceName);
  }

  /// The compile error that carries every diagnostic reported.
  Error error() {
    std::string message = summarize(diagnostics, sourceName);
    return Error(ErrorKind::Compile, std::move(message),
                 std::move(diagnostics));
  }

  const std::string &text;
  std::string sourceName;
  std::vector<Diagnostic> diagnostics;
  llvm::SourceMgr sourceMgr;
};

} // namespace

/// Runs `use` of the compiler on `sourceName`. A crash inside it (a signal,
/// LLVM's fatal error, an uncaught exception) is an ErrorKind::Internal
/// error instead of the end of the application's process.
template <typename T>
static Expected<T> recoverCrashes(const std::string &sourceName,
                                  llvm::function_ref<Expected<T>()> use) {
  std::optional<Expected<T>> result;
  if (std::optional<std::string> crash =
          runRecoveringCrashes([&] { result.emplace(use()); }))
    return Error(ErrorKind::Internal,
                 "the compiler crashed on '" + sourceName + "' (" + *crash +
                     "): a bug of tilec, please report it with the source "
                     "and its bindings; the process goes on");
  return std::move(*result);
}

std::string readImports(const std::string &text,
                        const std::string &sourceName) {
  // Only a source that says `import` can read another file.
  if (text.find("import") == std::string::npos)
    return std::string();
  // Parsing alone reads the imports: no entry is selected, since a source's
  // imports are the same whichever of its functions is compiled. A crash
  // here leaves the imports empty; the compile then meets it again and
  // reports it.
  Expected<std::string> imports =
      recoverCrashes<std::string>(sourceName, [&]() -> Expected<std::string> {
        SourceSession session(text, sourceName);
        llvm::SourceMgr &sourceMgr = session.sourceMgr;
        unsigned bufferId = sourceMgr.AddNewSourceBuffer(session.source(), {});
        if (!parseModule(sourceMgr, bufferId))
          return std::string();
        std::string files;
        for (unsigned id = 1; id <= sourceMgr.getNumBuffers(); ++id) {
          if (id == bufferId)
            continue;
          const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
          files += buffer->getBufferIdentifier().str() + "\n" +
                   buffer->getBuffer().str();
        }
        return files;
      });
  return imports ? std::move(*imports) : std::string();
}

/// `options.inputs` as the front end's bindings.
static std::vector<ArgBinding> getBindings(const CompileOptions &options) {
  std::vector<ArgBinding> bindings;
  for (const InputBinding &input : options.inputs)
    bindings.push_back({input.name, input.dtype, input.shape});
  return bindings;
}

Expected<FunctionSignature> readSignature(const std::string &text,
                                          const std::string &entry,
                                          const std::string &sourceName) {
  return recoverCrashes<FunctionSignature>(
      sourceName, [&]() -> Expected<FunctionSignature> {
        SourceSession session(text, sourceName);
        std::optional<ParsedEntry> parsed =
            parseEntry(session.source(), entry, session.sourceMgr);
        if (!parsed)
          return session.error();
        const ast::Function &function = *parsed->function;
        FunctionSignature signature;
        signature.name = function.name;
        for (const ParamInfo &param : getParams(function))
          signature.parameters.push_back({param.name, param.rank});
        for (const ast::Result &result : function.results)
          signature.results.push_back(result.name);
        return signature;
      });
}

Expected<Bundle> compileBundle(const std::string &text,
                               const std::string &sourceName,
                               const CompileOptions &options,
                               const DeviceProfile &profile,
                               const CompileTargets &targets) {
  return recoverCrashes<Bundle>(sourceName, [&]() -> Expected<Bundle> {
    SourceSession session(text, sourceName);
    std::optional<Bundle> bundle =
        compileSource(session.source(), options.entry, getBindings(options),
                      profile, targets, session.sourceMgr);
    if (!bundle)
      return session.error();
    return std::move(*bundle);
  });
}

/// The front half of compileBundle: the specialised program is then
/// differentiated and printed instead of compiled.
Expected<std::string> gradientSource(const std::string &text,
                                     const std::vector<std::string> &wrt,
                                     const CompileOptions &options,
                                     const std::string &sourceName) {
  return recoverCrashes<std::string>(
      sourceName, [&]() -> Expected<std::string> {
        SourceSession session(text, sourceName);
        std::optional<Program> program =
            specializeSource(session.source(), options.entry,
                             getBindings(options), session.sourceMgr);
        if (!program)
          return session.error();
        std::optional<Program> gradient =
            differentiate(*program, wrt, session.sourceMgr);
        if (!gradient)
          return session.error();
        std::string source;
        llvm::raw_string_ostream os(source);
        printProgram(*gradient, os);
        return os.str();
      });
}

} // namespace tilec::jit
