//===- JIT.h - The embeddable Tile compiler: everything ---------*- C++ -*-===//
//
// Compile Tile programs at run time and run them on a device:
//
//   auto context = tilec::jit::Context::create();
//   auto program = context->compile(text, {"", {{"A", DType::F32, {n}}}});
//   auto outputs = program->run({a});
//
// Context.h opens the device and owns the kernel cache; CompiledProgram.h
// runs programs; Error.h is how everything fails. docs/jit.md has a complete
// example.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_H
#define TILEC_JIT_H

#include "tilec/JIT/CompiledProgram.h"
#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"
#include "tilec/JIT/Future.h"

#endif // TILEC_JIT_H
