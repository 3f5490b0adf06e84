//===- CompileSource.h - From Tile source text to a bundle ------*- C++ -*-===//
//
// The compiler front to back in one call, and the front half it is built
// from: parse a source (and the files it imports), select the entry
// function, bind its parameters and specialise it; then compileProgram
// (Pipeline.h), the back half. Every caller (the JIT, every `tilec`
// subcommand) goes through these, so there is one place that parses,
// selects, binds and specialises.
//
// Every error is reported through the caller's llvm::SourceMgr as
// `file:line:col: error: ...` (a caller that must not print, the JIT,
// installs a handler there); nullopt says one was.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_COMPILESOURCE_H
#define TILEC_COMPILER_COMPILESOURCE_H

#include "tilec/Compiler/Pipeline.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <vector>

namespace tilec {

/// A source parsed and its entry function selected: what a caller reads (the
/// parameters, getParams) before binding it. The SourceMgr that parsed it
/// owns the text every location points into.
struct ParsedEntry {
  std::unique_ptr<ast::Module> module;
  const ast::Function *function = nullptr;
};

/// Adds `source` (its text, and its name: the path that diagnostics and
/// kernels' locations show, and that imports are read relative to) to
/// `sourceMgr`, parses it and the files it imports, and selects function
/// `entry` (empty: the source's only function).
std::optional<ParsedEntry>
parseEntry(std::unique_ptr<llvm::MemoryBuffer> source, llvm::StringRef entry,
           llvm::SourceMgr &sourceMgr);

/// Binds the entry's parameters once the entry is known: a tool binds what
/// its command line names, and checks those names against the parameters.
/// Returns nullopt after reporting why it cannot bind, which stops the
/// compile.
using BindEntry = llvm::function_ref<std::optional<std::vector<ArgBinding>>(
    const ast::Function &entry)>;

/// The front half: parseEntry, then binds the entry's parameters with
/// `bind` and specialises it (Sema checks that each parameter is bound
/// exactly once).
std::optional<Program>
specializeSource(std::unique_ptr<llvm::MemoryBuffer> source,
                 llvm::StringRef entry, BindEntry bind,
                 llvm::SourceMgr &sourceMgr);
/// The front half with the bindings known beforehand.
std::optional<Program>
specializeSource(std::unique_ptr<llvm::MemoryBuffer> source,
                 llvm::StringRef entry, llvm::ArrayRef<ArgBinding> bindings,
                 llvm::SourceMgr &sourceMgr);

/// Chooses the profile to compile `program` for, once the program is known
/// to be valid: a tool opens its device only then, so that a wrong program
/// is reported on a machine without one. Returns nullopt after reporting
/// why it cannot, which stops the compile.
using ChooseProfile =
    llvm::function_ref<std::optional<DeviceProfile>(const Program &program)>;

/// A source compiled: its specialised program (for a caller that also
/// interprets it, or prints it) and the program's bundle.
struct CompiledSource {
  Program program;
  Bundle bundle;
};

/// Front to back: specializeSource, then compileProgram for the profile
/// `chooseProfile` returns, printing the code of `targets`.
std::optional<CompiledSource>
compileSource(std::unique_ptr<llvm::MemoryBuffer> source, llvm::StringRef entry,
              BindEntry bind, ChooseProfile chooseProfile,
              const CompileTargets &targets, llvm::SourceMgr &sourceMgr,
              const PipelineHooks &hooks = {});
/// Front to back with the bindings and the profile known beforehand.
std::optional<Bundle>
compileSource(std::unique_ptr<llvm::MemoryBuffer> source, llvm::StringRef entry,
              llvm::ArrayRef<ArgBinding> bindings, const DeviceProfile &profile,
              const CompileTargets &targets, llvm::SourceMgr &sourceMgr);

} // namespace tilec

#endif // TILEC_COMPILER_COMPILESOURCE_H
