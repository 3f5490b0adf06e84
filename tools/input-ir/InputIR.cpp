//===- InputIR.cpp - The .mlir input of tile-opt and tile-translate -------===//

#include "InputIR.h"

#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/ParseUtilities.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void tilec::tools::insertInputDialects(DialectRegistry &registry) {
  registry.insert<tilec::tile::TileDialect, arith::ArithDialect,
                  func::FuncDialect, gpu::GPUDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, spirv::SPIRVDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
}

/// Prints `loc` as FILE:LINE:COL. A chunk of a split input is named
/// `within split at FILE:N offset ` (mlir::splitAndProcessBuffer), its lines
/// counted from line N of FILE: the location is given in FILE.
static void printFileLocation(llvm::raw_ostream &os, FileLineColLoc loc) {
  llvm::StringRef name = loc.getFilename().getValue();
  unsigned line = loc.getLine();
  unsigned splitLine = 0;
  llvm::StringRef split = name;
  if (split.consume_front("within split at ") &&
      split.consume_back(" offset ")) {
    auto [file, number] = split.rsplit(':');
    if (!number.getAsInteger(10, splitLine) && splitLine > 0) {
      name = file;
      line += splitLine - 1;
    }
  }
  os << name << ":" << line << ":" << loc.getColumn() << ": ";
}

/// Prints one message, and the source line with a caret under its column
/// where `loc` is in `sourceMgr`'s buffer.
static void printMessage(llvm::StringRef tool, llvm::StringRef kind,
                         Location loc, const std::string &message,
                         llvm::SourceMgr &sourceMgr) {
  llvm::raw_ostream &os = llvm::errs();
  os << tool << ": " << kind << ": ";
  auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
  if (fileLoc)
    printFileLocation(os, fileLoc);
  os << message << "\n";
  if (!fileLoc || sourceMgr.getNumBuffers() == 0)
    return;
  unsigned buffer = sourceMgr.getMainFileID();
  if (sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier() !=
      fileLoc.getFilename().getValue())
    return;
  llvm::SMLoc at = sourceMgr.FindLocForLineAndColumn(buffer, fileLoc.getLine(),
                                                     fileLoc.getColumn());
  if (!at.isValid())
    return;
  llvm::SMDiagnostic line =
      sourceMgr.GetMessage(at, llvm::SourceMgr::DK_Error, "");
  os << line.getLineContents() << "\n"
     << std::string(line.getColumnNo(), ' ') << "^\n";
}

void tilec::tools::printToolDiagnostic(llvm::StringRef tool, Diagnostic &diag,
                                       llvm::SourceMgr &sourceMgr) {
  llvm::StringRef kind = "error";
  if (diag.getSeverity() == DiagnosticSeverity::Warning)
    kind = "warning";
  else if (diag.getSeverity() != DiagnosticSeverity::Error)
    kind = "note";
  printMessage(tool, kind, diag.getLocation(), diag.str(), sourceMgr);
  for (Diagnostic &note : diag.getNotes())
    printMessage(tool, "note", note.getLocation(), note.str(), sourceMgr);
}

LogicalResult tilec::tools::checkInputIR(llvm::StringRef tool,
                                         const llvm::MemoryBuffer &input,
                                         const DialectRegistry &registry,
                                         const InputIROptions &options) {
  auto checkChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                        llvm::raw_ostream &) -> LogicalResult {
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    MLIRContext context(registry, MLIRContext::Threading::DISABLED);
    context.allowUnregisteredDialects(options.allowUnregisteredDialects);
    // The operation's generic form is MLIR's view, not the user's file.
    context.printOpOnDiagnostic(false);
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      printToolDiagnostic(tool, diag, *sourceMgr);
      return success();
    });
    ParserConfig config(&context, /*verifyAfterParse=*/true);
    OwningOpRef<Operation *> op =
        parseSourceFileForTool(sourceMgr, config, options.insertImplicitModule);
    return success(static_cast<bool>(op));
  };
  // Every chunk is checked, so that each error is reported.
  return splitAndProcessBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getBuffer(),
                                       input.getBufferIdentifier()),
      checkChunk, llvm::nulls(), options.splitMarker);
}
