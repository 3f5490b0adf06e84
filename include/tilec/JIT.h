//===- JIT.h - The embeddable Tile compiler: everything ---------*- C++ -*-===//
//
// Compile Tile programs at run time and run them on a device:
//
//   auto context = tilec::jit::Context::create();
//   auto f = context->load(text);                  // any input shapes
//   auto a = HostTensor::from<float>({2}, {1, 2});
//   auto outputs = (*f)(*a);
//
// Context.h opens the device and owns the kernel cache; Function.h and
// CompiledProgram.h run programs; Future.h is their asynchronous results;
// Error.h is how everything fails. docs/jit.md has a complete
// example.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_JIT_H
#define TILEC_JIT_H

#include "tilec/JIT/CompiledProgram.h"
#include "tilec/JIT/Context.h"
#include "tilec/JIT/Error.h"
#include "tilec/JIT/Function.h"
#include "tilec/JIT/Future.h"
#include "tilec/JIT/Gradient.h"
#include "tilec/JIT/Signature.h"
#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/DeviceProfile.h"
#include "tilec/Runtime/Executor.h"
#include "tilec/Runtime/HostTensor.h"

namespace tilec::jit {
// The runtime's types that the JIT takes and returns, so that
// `using namespace tilec::jit;` alone names everything an application
// uses. (With `using namespace tilec;` as well, Error, Status and Expected
// would be ambiguous: the runtime has its own, which DeviceTensor::read
// returns.)
using tilec::Backend;
using tilec::BFloat16;
using tilec::DeviceProfile;
using tilec::DeviceTensor;
using tilec::DType;
using tilec::Half;
using tilec::HostTensor;
using tilec::RunInput;
using tilec::Shape;
using tilec::Span;
} // namespace tilec::jit

#endif // TILEC_JIT_H
