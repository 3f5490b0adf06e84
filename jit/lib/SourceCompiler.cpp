//===- SourceCompiler.cpp - Tile text to a bundle, diagnostics kept -------===//

#include "SourceCompiler.h"

#include "tilec/Autodiff/Gradient.h"
#include "tilec/JIT/Gradient.h"

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

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

std::string readImports(const std::string &text,
                        const std::string &sourceName) {
  // Only a source that says `import` can read another file.
  if (text.find("import") == std::string::npos)
    return std::string();
  std::vector<Diagnostic> diagnostics;
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler(collectDiagnostic, &diagnostics);
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  if (!parseModule(sourceMgr, bufferId))
    return std::string();
  std::string imports;
  for (unsigned id = 1; id <= sourceMgr.getNumBuffers(); ++id) {
    if (id == bufferId)
      continue;
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
    imports += buffer->getBufferIdentifier().str() + "\n" +
               buffer->getBuffer().str();
  }
  return imports;
}

Expected<FunctionSignature> readSignature(const std::string &text,
                                          const std::string &entry,
                                          const std::string &sourceName) {
  std::vector<Diagnostic> diagnostics;
  llvm::SourceMgr sourceMgr;
  sourceMgr.setDiagHandler(collectDiagnostic, &diagnostics);
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  std::unique_ptr<ast::Module> module = parseModule(sourceMgr, bufferId);
  const ast::Function *function =
      module ? selectFunction(*module, entry, sourceMgr) : nullptr;
  if (!function) {
    std::string message = summarize(diagnostics, sourceName);
    return Error(ErrorKind::Compile, std::move(message),
                 std::move(diagnostics));
  }
  FunctionSignature signature;
  signature.name = function->name;
  for (const ParamInfo &param : getParams(*function))
    signature.parameters.push_back({param.name, param.rank});
  for (const ast::Result &result : function->results)
    signature.results.push_back(result.name);
  return signature;
}

namespace {

/// One source on its way through the front end: its buffer, and every
/// diagnostic reported about it, kept for the error.
struct SourceSession {
  SourceSession(const std::string &text, const std::string &sourceName)
      : sourceName(sourceName) {
    sourceMgr.setDiagHandler(collectDiagnostic, &diagnostics);
    bufferId = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, sourceName),
        llvm::SMLoc());
  }

  /// Parses the source, selects `options.entry` and specialises it to
  /// `options.inputs`; nullopt after reporting why not.
  std::optional<Program> specializeEntry(const CompileOptions &options) {
    std::unique_ptr<ast::Module> module = parseModule(sourceMgr, bufferId);
    if (!module)
      return std::nullopt;
    const ast::Function *function =
        selectFunction(*module, options.entry, sourceMgr);
    if (!function)
      return std::nullopt;
    std::vector<ArgBinding> bindings;
    for (const InputBinding &input : options.inputs)
      bindings.push_back({input.name, input.dtype, input.shape});
    return specialize(*function, bindings, sourceMgr);
  }

  /// The compile error that carries every diagnostic reported.
  Error error() {
    std::string message = summarize(diagnostics, sourceName);
    return Error(ErrorKind::Compile, std::move(message),
                 std::move(diagnostics));
  }

  std::string sourceName;
  std::vector<Diagnostic> diagnostics;
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = 0;
};

} // namespace

Expected<Bundle> compileSource(const std::string &text,
                               const std::string &sourceName,
                               const CompileOptions &options,
                               const DeviceProfile &profile,
                               const CompileTargets &targets) {
  SourceSession session(text, sourceName);
  std::optional<Program> program = session.specializeEntry(options);
  if (!program)
    return session.error();
  std::optional<Bundle> bundle =
      compileProgram(*program, profile, session.sourceMgr, targets);
  if (!bundle)
    return session.error();
  return std::move(*bundle);
}

/// Like compileSource up to the specialised program, which is then
/// differentiated and printed instead of compiled.
Expected<std::string> gradientSource(const std::string &text,
                                     const std::vector<std::string> &wrt,
                                     const CompileOptions &options,
                                     const std::string &sourceName) {
  SourceSession session(text, sourceName);
  std::optional<Program> program = session.specializeEntry(options);
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
}

} // namespace tilec::jit
