//===- ProgramToTile.h - Emit the `tile` dialect from a program -*- C++ -*-===//

#ifndef TILEC_CONVERSION_PROGRAMTOTILE_H
#define TILEC_CONVERSION_PROGRAMTOTILE_H

#include "tilec/Sema/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

/// Builds a module holding one func.func named after the program whose body
/// is `tile` dialect ops, one per statement, each located at its statement in
/// the .tile source. The module verifies.
mlir::OwningOpRef<mlir::ModuleOp> emitTileModule(mlir::MLIRContext &context,
                                                 const Program &program,
                                                 llvm::SourceMgr &sourceMgr);

} // namespace tilec

#endif // TILEC_CONVERSION_PROGRAMTOTILE_H
