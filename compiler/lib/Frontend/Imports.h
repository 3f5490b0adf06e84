//===- Imports.h - Reading the files a Tile source imports ------*- C++ -*-===//
//
// Private to the Frontend library: parseModule's second step, which reads
// every file that the main file imports (directly or not) into the
// SourceMgr and links every function to the module, where calls are
// resolved.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_FRONTEND_IMPORTS_H
#define TILEC_LIB_FRONTEND_IMPORTS_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"

namespace tilec {

/// Parses the files `module` (buffer `bufferId`) imports into
/// `module.importedFunctions` and sets every function's `module`. Reports
/// unreadable files, import cycles and functions of one name in two files.
void resolveImports(ast::Module &module, unsigned bufferId, Diagnostics &diags);

} // namespace tilec

#endif // TILEC_LIB_FRONTEND_IMPORTS_H
