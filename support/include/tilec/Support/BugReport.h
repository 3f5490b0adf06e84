//===- BugReport.h - What a crash of a tool asks of its user ---*- C++ -*-===//
//
// A crash of a tool that starts with llvm::InitLLVM (a signal, an abort,
// LLVM's fatal error) prints LLVM's request to report it on LLVM's tracker,
// then the stack. tilec's tools ask for a report to tilec instead, with what
// reproduces it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_BUGREPORT_H
#define TILEC_SUPPORT_BUGREPORT_H

namespace tilec {

/// Makes a crash of this process ask for a report to tilec. Call it after
/// llvm::InitLLVM, which installs the handler that prints it.
void setBugReportMessage();

} // namespace tilec

#endif // TILEC_SUPPORT_BUGREPORT_H
