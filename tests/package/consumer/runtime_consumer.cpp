//===- runtime_consumer.cpp - An application of the runtime alone ---------===//
//
// runtime_consumer BUNDLE.json
//
// Runs a kernel bundle on the default OpenCL device with the installed
// runtime: input k holds (k + 1) * i at flat index i; every output is
// printed with its first elements.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Bundle.h"
#include "tilec/Runtime/Device.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

using namespace tilec;

static int fail(const std::string &message) {
  std::fprintf(stderr, "runtime_consumer: error: %s\n", message.c_str());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return fail("usage: runtime_consumer BUNDLE.json");
  Expected<Bundle> bundle = readBundle(argv[1]);
  if (!bundle)
    return fail(bundle.error().message());
  Expected<std::unique_ptr<Device>> device = Device::open(DeviceRequest());
  if (!device)
    return fail(device.error().message());
  Expected<std::unique_ptr<Executor>> executor =
      (*device)->prepare(std::move(*bundle), argv[1]);
  if (!executor)
    return fail(executor.error().message());

  const Bundle &program = (*executor)->bundle();
  std::vector<HostTensor> inputs;
  for (size_t k = 0; k < program.inputs.size(); ++k) {
    const BundleBuffer &buffer = program.buffers[program.inputs[k]];
    HostTensor tensor(buffer.dtype, buffer.shape);
    for (int64_t i = 0; i < tensor.numElements(); ++i)
      tensor.setDouble(i, static_cast<double>((k + 1) * i));
    inputs.push_back(std::move(tensor));
  }
  Expected<BundleRun> run = (*executor)->run(inputs);
  if (!run)
    return fail(run.error().message());
  for (size_t k = 0; k < program.outputs.size(); ++k) {
    const HostTensor &output = run->outputs[k];
    std::printf("%s: %s[", program.buffers[program.outputs[k]].name.c_str(),
                dtypeName(output.dtype()));
    for (size_t d = 0; d < output.shape().size(); ++d)
      std::printf("%s%lld", d ? ", " : "",
                  static_cast<long long>(output.shape()[d]));
    std::printf("]");
    for (int64_t i = 0; i < std::min<int64_t>(output.numElements(), 8); ++i)
      std::printf(" %g", output.getDouble(i));
    std::printf("\n");
  }
  return 0;
}
