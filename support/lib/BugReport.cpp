//===- BugReport.cpp - What a crash of a tool asks of its user ------------===//

#include "tilec/Support/BugReport.h"

#include "llvm/Support/PrettyStackTrace.h"

void tilec::setBugReportMessage() {
  llvm::setBugReportMsg(
      "PLEASE report this crash of tilec, a bug, to the tilec project with "
      "the command line and its input files (the .tile program, bundle or "
      ".npy inputs); the stack dump below helps.\n");
}
