// A crash of a tool (here tile-opt's test-only pass that crashes on purpose,
// through LLVM's fatal error) asks for a report to tilec, with what
// reproduces it, then prints the stack; not LLVM's request to report it on
// LLVM's tracker. tilec and tile-translate set the same message.
// RUN: not --crash tile-opt --tile-test-crash %s 2>&1 | FileCheck %s
// CHECK: LLVM ERROR: tile-test-crash: a crash on purpose
// CHECK-NOT: llvm-project
// CHECK: PLEASE report this crash of tilec, a bug, to the tilec project with the command line and its input files (the .tile program, bundle or .npy inputs); the stack dump below helps.
// CHECK-NOT: llvm-project
// CHECK: Stack dump:
// CHECK-NOT: llvm-project

module {
}
