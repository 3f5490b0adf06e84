//===- SourceCompiler.h - Tile text to a bundle, for the JIT ----*- C++ -*-===//
//
// Internal to the JIT library: the compiler's front-to-back entry
// (tilec/Compiler/CompileSource.h) on one source, with every diagnostic
// collected into the error instead of printed.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_LIB_SOURCECOMPILER_H
#define TILEC_JIT_LIB_SOURCECOMPILER_H

#include "tilec/Compiler/Pipeline.h"
#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"
#include "tilec/JIT/Signature.h"
#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/DeviceProfile.h"

#include <string>

namespace tilec::jit {

/// Compiles function `options.entry` of `text` (named `sourceName`),
/// specialised to `options.inputs`, for `profile`. Fails with
/// ErrorKind::Compile and every diagnostic reported, or with
/// ErrorKind::Internal where the compiler crashed (it runs under crash
/// recovery, as every entry of this file does: the application goes on).
Expected<Bundle> compileBundle(const std::string &text,
                               const std::string &sourceName,
                               const CompileOptions &options,
                               const DeviceProfile &profile,
                               const CompileTargets &targets);

/// The files `text` (named `sourceName`) imports, directly or not, each as
/// its path, a newline and its contents: what a cache key must cover besides
/// `text`, since an imported file may change while `text` stays the same.
/// Empty when `text` imports nothing or does not parse (compiling it then
/// reports the error).
std::string readImports(const std::string &text, const std::string &sourceName);

} // namespace tilec::jit

#endif // TILEC_JIT_LIB_SOURCECOMPILER_H
