//===- CompiledProgram.cpp - A program compiled for one device ------------===//

#include "tilec/JIT/CompiledProgram.h"

#include "ProgramState.h"
#include "SessionTensor.h"

#include "tilec/Runtime/Plural.h"
#include "tilec/Runtime/TensorSummary.h"

namespace tilec::jit {

const char *programOriginName(ProgramOrigin origin) {
  switch (origin) {
  case ProgramOrigin::Compiled:
    return "compiled";
  case ProgramOrigin::MemoryCache:
    return "memory cache";
  case ProgramOrigin::DiskCache:
    return "disk cache";
  }
  return "compiled";
}

std::shared_ptr<ProgramCore>
makeProgramCore(std::shared_ptr<DeviceSession> session,
                std::unique_ptr<Executor> executor) {
  auto core = std::make_shared<ProgramCore>();
  const Bundle &bundle = executor->bundle();
  auto describe = [&](unsigned index) {
    const BundleBuffer &buffer = bundle.buffers[index];
    return TensorInfo{buffer.name, buffer.dtype, buffer.shape};
  };
  for (unsigned index : bundle.inputs)
    core->inputs.push_back(describe(index));
  for (unsigned index : bundle.outputs)
    core->outputs.push_back(describe(index));
  for (const BundleKernel &kernel : bundle.kernels)
    core->kernels.push_back(
        {kernel.name, kernel.sourceLocation, kernel.flops, kernel.bytes});
  core->session = std::move(session);
  core->executor = std::move(executor);
  return core;
}

const std::string &CompiledProgram::function() const {
  return bundle().function;
}
const std::vector<TensorInfo> &CompiledProgram::inputs() const {
  return state->core->inputs;
}
const std::vector<TensorInfo> &CompiledProgram::outputs() const {
  return state->core->outputs;
}
const std::vector<KernelDescription> &CompiledProgram::kernels() const {
  return state->core->kernels;
}
const std::string &CompiledProgram::schedule() const {
  return bundle().explanation;
}
const Bundle &CompiledProgram::bundle() const {
  return state->core->executor->bundle();
}
ProgramOrigin CompiledProgram::origin() const { return state->origin; }

/// Checks the number of inputs a run got against the program's.
static Status checkInputCount(const CompiledProgram &program, size_t given) {
  if (given == program.inputs().size())
    return Status::success();
  return Error(ErrorKind::InvalidArgument,
               "'" + program.function() + "' takes " +
                   pluralize(program.inputs().size(), "input") + ", not " +
                   std::to_string(given));
}

/// Checks that a run's input of `dtype` and `shape` fits `expected`.
static Status checkInputType(const TensorInfo &expected, DType dtype,
                             const Shape &shape) {
  if (dtype == expected.dtype && shape == expected.shape)
    return Status::success();
  return Error(ErrorKind::InvalidArgument,
               "input '" + expected.name + "' is " +
                   formatTensorType(dtype, shape) + " but the program takes " +
                   formatTensorType(expected.dtype, expected.shape));
}

namespace {
/// Sets an executor's progress for one run (under the device's lock, since
/// the executor is shared by every copy of the program) and clears it after.
class ProgressScope {
public:
  ProgressScope(Executor &executor, const RunProgress &progress)
      : executor(progress ? &executor : nullptr) {
    if (progress)
      executor.setProgress(progress);
  }
  ~ProgressScope() {
    if (executor)
      executor->setProgress(nullptr);
  }
  ProgressScope(const ProgressScope &) = delete;
  ProgressScope &operator=(const ProgressScope &) = delete;

private:
  Executor *executor;
};
} // namespace

Expected<std::vector<HostTensor>>
CompiledProgram::run(const std::vector<HostTensor> &inputs,
                     const RunProgress &progress) const {
  if (Status status = checkInputCount(*this, inputs.size()); !status)
    return status.error();
  for (size_t i = 0; i < inputs.size(); ++i)
    if (Status status = checkInputType(state->core->inputs[i],
                                       inputs[i].dtype(), inputs[i].shape());
        !status)
      return status.error();
  ProgramCore &core = *state->core;
  std::lock_guard<std::mutex> guard(core.session->queueLock());
  ProgressScope scope(*core.executor, progress);
  tilec::Expected<BundleRun> run = core.executor->run(inputs);
  if (!run)
    return run.error();
  return std::move(run->outputs);
}

/// `input` as the executor takes it: a device tensor that the JIT made on
/// `session`, unwrapped, or host data of the right dtype and shape.
static Expected<RunInput> bindInput(const RunInput &input,
                                    const TensorInfo &expected,
                                    const DeviceSession &session) {
  if (const auto *host = std::get_if<const HostTensor *>(&input)) {
    if (!*host)
      return Error(ErrorKind::InvalidArgument,
                   "input '" + expected.name + "' is a null host tensor");
    if (Status status =
            checkInputType(expected, (*host)->dtype(), (*host)->shape());
        !status)
      return status.error();
    return input;
  }
  const std::shared_ptr<const DeviceTensor> &tensor =
      std::get<std::shared_ptr<const DeviceTensor>>(input);
  const auto *ours = dynamic_cast<const SessionTensor *>(tensor.get());
  if (!ours)
    return Error(ErrorKind::InvalidArgument,
                 "input '" + expected.name +
                     "' is not a device tensor of a tilec::jit program (a "
                     "null one, or one made by an executor directly)");
  if (&ours->owner() != &session)
    return Error(ErrorKind::InvalidArgument,
                 "input '" + expected.name +
                     "' is a device tensor of another context's device");
  if (Status status =
          checkInputType(expected, tensor->dtype(), tensor->shape());
      !status)
    return status.error();
  return RunInput(std::shared_ptr<const DeviceTensor>(ours->unwrap()));
}

Expected<std::vector<std::shared_ptr<DeviceTensor>>>
CompiledProgram::runOnDevice(const std::vector<RunInput> &inputs,
                             const RunProgress &progress) const {
  if (Status status = checkInputCount(*this, inputs.size()); !status)
    return status.error();
  ProgramCore &core = *state->core;
  std::vector<RunInput> bound;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Expected<RunInput> input =
        bindInput(inputs[i], core.inputs[i], *core.session);
    if (!input)
      return input.error();
    bound.push_back(std::move(*input));
  }
  tilec::Expected<std::vector<std::shared_ptr<DeviceTensor>>> outputs = [&] {
    std::lock_guard<std::mutex> guard(core.session->queueLock());
    ProgressScope scope(*core.executor, progress);
    return core.executor->runOnDevice(bound);
  }();
  if (!outputs)
    return outputs.error();
  std::vector<std::shared_ptr<DeviceTensor>> wrapped;
  for (std::shared_ptr<DeviceTensor> &output : *outputs)
    wrapped.push_back(
        std::make_shared<SessionTensor>(core.session, std::move(output)));
  return wrapped;
}

Future<std::vector<HostTensor>>
CompiledProgram::runAsync(std::vector<HostTensor> inputs) const {
  return submitWork<std::vector<HostTensor>>(
      state->core->session->runQueue(),
      [program = *this, inputs = std::move(inputs)] {
        return program.run(inputs);
      });
}

Expected<std::shared_ptr<DeviceTensor>> PendingTensor::wait() const {
  if (!run)
    return Error(ErrorKind::InvalidArgument,
                 "a pending output of a future whose result was already "
                 "taken (call Future::output before Future::get)");
  const Expected<DeviceOutputs> &outputs = run->wait();
  if (!outputs)
    return outputs.error();
  if (index >= outputs->size())
    return Error(ErrorKind::InvalidArgument,
                 "a pending output " + std::to_string(index) +
                     " of a run that has " +
                     pluralize(outputs->size(), "output"));
  return (*outputs)[index];
}

Expected<std::vector<RunInput>>
borrowRunInputs(const std::vector<OwnedRunInput> &inputs,
                const std::string &function,
                const std::vector<std::string> &parameters) {
  std::vector<RunInput> borrowed;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const OwnedRunInput &input = inputs[i];
    if (const auto *host = std::get_if<HostTensor>(&input)) {
      borrowed.emplace_back(host);
    } else if (const auto *pending = std::get_if<PendingTensor>(&input)) {
      Expected<std::shared_ptr<DeviceTensor>> tensor = pending->wait();
      if (!tensor) {
        const Error &cause = tensor.error();
        return Error(
            cause.kind(),
            "input " +
                (i < parameters.size() ? "'" + parameters[i] + "'"
                                       : std::to_string(i)) +
                " of '" + function +
                "' is the output of a run that failed: " + cause.message(),
            cause.diagnostics(), cause.driverCode());
      }
      borrowed.emplace_back(std::move(*tensor));
    } else {
      borrowed.emplace_back(
          std::get<std::shared_ptr<const DeviceTensor>>(input));
    }
  }
  return borrowed;
}

Future<DeviceOutputs>
CompiledProgram::runOnDeviceAsync(std::vector<OwnedRunInput> inputs) const {
  return submitWork<DeviceOutputs>(
      state->core->session->runQueue(),
      [program = *this,
       inputs = std::move(inputs)]() -> Expected<DeviceOutputs> {
        std::vector<std::string> parameters;
        for (const TensorInfo &input : program.inputs())
          parameters.push_back(input.name);
        Expected<std::vector<RunInput>> borrowed =
            borrowRunInputs(inputs, program.function(), parameters);
        if (!borrowed)
          return borrowed.error();
        return program.runOnDevice(*borrowed);
      });
}

} // namespace tilec::jit
