//===- Diagnostics.cpp - Error reporting of the frontend ------------------===//
//
// llvm::SourceMgr omits the caret of a diagnostic whose source line holds a
// non-ASCII byte (it cannot tell how wide such characters are displayed).
// Every diagnostic of the frontend shows its caret, so such a line is shown
// with each non-ASCII byte as '?': one column per byte, which keeps the caret
// under the byte the `line:col` names.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace tilec {

static bool isNonASCII(char c) { return static_cast<unsigned char>(c) >= 0x80; }

static void print(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                  llvm::SourceMgr::DiagKind kind, const llvm::Twine &message) {
  llvm::SMDiagnostic diagnostic = sourceMgr.GetMessage(loc, kind, message);
  llvm::StringRef line = diagnostic.getLineContents();
  if (llvm::any_of(line, isNonASCII)) {
    std::string shown = line.str();
    std::replace_if(shown.begin(), shown.end(), isNonASCII, '?');
    diagnostic = llvm::SMDiagnostic(
        sourceMgr, diagnostic.getLoc(), diagnostic.getFilename(),
        diagnostic.getLineNo(), diagnostic.getColumnNo(), kind,
        diagnostic.getMessage(), shown, diagnostic.getRanges());
  }
  sourceMgr.PrintMessage(llvm::errs(), diagnostic);
}

void Diagnostics::flushCallNotes() {
  for (const CallSite &site : pendingCallNotes)
    print(sourceMgr, site.loc, llvm::SourceMgr::DK_Note,
          "in the call to '" + site.callee + "'");
  pendingCallNotes.clear();
}

void Diagnostics::error(llvm::SMLoc loc, const llvm::Twine &message) {
  flushCallNotes();
  ++errorCount;
  print(sourceMgr, loc, llvm::SourceMgr::DK_Error, message);
  pendingCallNotes.assign(callSites.rbegin(), callSites.rend());
}

void Diagnostics::note(llvm::SMLoc loc, const llvm::Twine &message) {
  print(sourceMgr, loc, llvm::SourceMgr::DK_Note, message);
}

} // namespace tilec
