//===- jit_consumer.cpp - An application of the JIT ----------------------===//
//
// Compiles a matrix-vector product with the installed JIT for the default
// device, runs it, and prints the result and where the program came from.
//
//===----------------------------------------------------------------------===//

#include "tilec/tilec.h"

#include <cstdio>

using namespace tilec;

int main() {
  jit::Expected<jit::Context> context = jit::Context::create();
  if (!context) {
    std::fprintf(stderr, "%s\n", context.error().describe().c_str());
    return 1;
  }
  jit::CompileOptions options;
  options.inputs = {{"A", DType::F32, {2, 3}}, {"X", DType::F32, {3}}};
  jit::Expected<jit::CompiledProgram> program =
      context->compile("function matvec(A[M, N], X[N]) -> (Y) {\n"
                       "  Y[i : M] = +(A[i, j] * X[j]);\n"
                       "}\n",
                       options, "matvec.tile");
  if (!program) {
    std::fprintf(stderr, "%s\n", program.error().describe().c_str());
    return 1;
  }
  HostTensor a(DType::F32, {2, 3}), x(DType::F32, {3});
  for (int64_t i = 0; i < 6; ++i)
    a.setDouble(i, static_cast<double>(i + 1));
  for (int64_t i = 0; i < 3; ++i)
    x.setDouble(i, 1.0 / static_cast<double>(i + 1));
  jit::Expected<std::vector<HostTensor>> outputs = program->run({a, x});
  if (!outputs) {
    std::fprintf(stderr, "%s\n", outputs.error().describe().c_str());
    return 1;
  }
  const HostTensor &y = (*outputs)[0];
  std::printf("%s on %s: Y = %g %g\n", program->function().c_str(),
              context->deviceProfile().name.c_str(), y.getDouble(0),
              y.getDouble(1));
  return 0;
}
