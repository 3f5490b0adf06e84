//===- InputIR.h - The .mlir input of tile-opt and tile-translate *- C++
//-*-===//
//
// tile-opt and tile-translate take hand-written IR. IR that does not parse or
// verify is the user's error, reported in the tools' message style
// (`tile-opt: error: FILE:LINE:COL: message`, the source line and a caret),
// never as MLIR's diagnostic dump of the operation.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_INPUTIR_INPUTIR_H
#define TILEC_TOOLS_INPUTIR_INPUTIR_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace tilec::tools {

/// The dialects of the `tile` IR and of the kernel IR: what the tools parse.
void insertInputDialects(mlir::DialectRegistry &registry);

/// Prints `diag` and its notes as `tool: error: FILE:LINE:COL: message`
/// (`note` for notes), each followed by its line of `sourceMgr`'s buffer
/// and a caret where the location is in it.
void printToolDiagnostic(llvm::StringRef tool, mlir::Diagnostic &diag,
                         llvm::SourceMgr &sourceMgr);

/// How the tool reads its input.
struct InputIROptions {
  /// The marker that splits the input into independent chunks; none when
  /// empty.
  llvm::StringRef splitMarker;
  bool allowUnregisteredDialects = false;
  bool insertImplicitModule = true;
};

/// Parses and verifies each chunk of `input` with the dialects of
/// `registry`, reporting every error with printToolDiagnostic. Fails if
/// any chunk does not parse or verify.
mlir::LogicalResult checkInputIR(llvm::StringRef tool,
                                 const llvm::MemoryBuffer &input,
                                 const mlir::DialectRegistry &registry,
                                 const InputIROptions &options);

} // namespace tilec::tools

#endif // TILEC_TOOLS_INPUTIR_INPUTIR_H
