//===- Diagnostics.h - Error reporting of the frontend ----------*- C++ -*-===//
//
// A thin layer over llvm::SourceMgr::PrintMessage that counts errors, so the
// parser and sema can keep going after an error (to report independent errors
// in one run) and still fail at the end.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_DIAGNOSTICS_H
#define TILEC_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace tilec {

class Diagnostics {
public:
  explicit Diagnostics(llvm::SourceMgr &sourceMgr) : sourceMgr(sourceMgr) {}

  /// `file:line:col: error: message` with the source line and a caret.
  void error(llvm::SMLoc loc, const llvm::Twine &message);
  /// A note attached to the previous error (a related location).
  void note(llvm::SMLoc loc, const llvm::Twine &message);

  /// While a call is being inlined, every error is followed by a note at the
  /// call (and at the calls that led to it, innermost first).
  void pushCallSite(llvm::SMLoc loc, llvm::StringRef callee) {
    callSites.push_back({loc, callee.str()});
  }
  void popCallSite() {
    flushCallNotes();
    callSites.pop_back();
  }

  unsigned getErrorCount() const { return errorCount; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  /// Prints the call notes of the last error, after the notes its reporter
  /// added.
  void flushCallNotes();

  llvm::SourceMgr &sourceMgr;
  unsigned errorCount = 0;
  struct CallSite {
    llvm::SMLoc loc;
    std::string callee;
  };
  std::vector<CallSite> callSites;
  /// The calls the last error's notes still have to name, innermost first.
  std::vector<CallSite> pendingCallNotes;
};

} // namespace tilec

#endif // TILEC_FRONTEND_DIAGNOSTICS_H
