//===- Diagnostics.cpp - Error reporting of the frontend ------------------===//

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/Support/SourceMgr.h"

namespace tilec {

void Diagnostics::error(llvm::SMLoc loc, const llvm::Twine &message) {
  ++errorCount;
  sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, message);
}

void Diagnostics::note(llvm::SMLoc loc, const llvm::Twine &message) {
  sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Note, message);
}

} // namespace tilec
