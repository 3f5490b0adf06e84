//===- Frontend.h - From Tile source to a specialised program ---*- C++ -*-===//
//
// The frontend's public entry points: parse a buffer into an AST, pick a
// function, and specialise it to concrete input shapes and dtypes. Every
// error is reported through the llvm::SourceMgr as
// `file:line:col: error: message` with the source line and a caret (plus
// notes); a caller that must not print (the JIT) installs a diagnostic
// handler on the SourceMgr. Nothing here aborts on bad input.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_FRONTEND_H
#define TILEC_FRONTEND_FRONTEND_H

#include "tilec/Runtime/DType.h"
#include "tilec/Sema/Program.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace tilec {
namespace ast {
class Module;
class Function;
} // namespace ast

/// Parses every function of buffer `bufferId` of `sourceMgr` and of the files
/// it imports (read into `sourceMgr`, relative to the directory of the
/// buffer's identifier). Returns null
/// when any error was reported (the parser recovers at statement boundaries
/// so that independent errors are all reported in one run).
std::unique_ptr<ast::Module> parseModule(llvm::SourceMgr &sourceMgr,
                                         unsigned bufferId);

/// The function named `entry` (of the main file first, then of the imported
/// files), or the only function of the main file when `entry` is empty.
/// Reports an error (listing the available names) and returns null otherwise.
const ast::Function *selectFunction(const ast::Module &module,
                                    llvm::StringRef entry,
                                    llvm::SourceMgr &sourceMgr);

/// What a caller needs to know of a parameter before binding it.
struct ParamInfo {
  std::string name;
  llvm::SMLoc loc;
  /// The declared rank (0 for `X[]`); nullopt for a parameter written
  /// without brackets, whose rank comes from its binding.
  std::optional<unsigned> rank;
};
/// The tensor parameters: the inputs a caller binds (integer parameters take
/// their defaults).
std::vector<ParamInfo> getParams(const ast::Function &function);

/// A parameter bound to a concrete dtype and shape.
struct ArgBinding {
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
};

/// Binds every parameter (each must be bound exactly once), infers and checks
/// every tensor's shape and dtype, and normalises the function into a
/// Program. Returns nullopt when any error was reported.
std::optional<Program> specialize(const ast::Function &function,
                                  llvm::ArrayRef<ArgBinding> args,
                                  llvm::SourceMgr &sourceMgr);

/// Prints `program` as canonical Tile source that parses back to the same
/// program, with every tensor's dtype and shape in a comment on its
/// definition (`tilec compile --emit tile`).
void printProgram(const Program &program, llvm::raw_ostream &os);

} // namespace tilec

#endif // TILEC_FRONTEND_FRONTEND_H
