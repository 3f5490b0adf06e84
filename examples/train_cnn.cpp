//===- train_cnn.cpp - Keras' MNIST CNN trained on Fashion-MNIST ---------===//
//
// Keras' mnist_cnn example, trained through the JIT from tilec's layer
// library: conv 32 3x3 relu, conv 64 3x3 relu, maxpool 2x2, dropout 0.25,
// flatten, dense 128 relu, dropout 0.5, dense 10, softmax cross-entropy;
// Adadelta (lr 1.0, rho 0.95, eps 1e-7). The training step (forward, loss,
// backward from `gradientSource`, the updates of every parameter) is one
// program compiled once; the parameters and the optimizer's state stay on
// the device between steps, and each step uploads only its batch and reads
// back only its loss. Every epoch prints its mean loss, its train and test
// accuracy and its seconds.
//
//   train_cnn [--data DIR] [--epochs N] [--batch N] [--train-limit N]
//             [--test-limit N] [--seed N] [--backend opencl|vulkan]
//             [--device SEL] [--save-step FILE]
//
// DIR holds the IDX files of Fashion-MNIST (or MNIST): train-images-idx3-
// ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte and t10k-labels-
// idx1-ubyte, each raw or gzipped (.gz). Batches are taken in a shuffled
// order (seeded); a last partial batch is left out, of training and of the
// evaluation alike. --save-step writes the training step's whole source to
// FILE, headed by the `tilec bench` command that times its kernels one by
// one on random inputs.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace tilec;

namespace {

const char *const kImports = R"(import "tilec/conv.tile";
import "tilec/dropout.tile";
import "tilec/layers.tile";
import "tilec/losses.tile";
import "tilec/optimizers.tile";
)";

// The loss of one batch, whose gradient the training step computes.
const char *const kLoss = R"(
function cnn_loss(Images, Labels, Seed, F1, B1, F2, B2, W3, B3, W4, B4)
    -> (Loss) {
  C1 = relu(conv2d(Images, F1, B1));
  C2 = relu(conv2d(C1, F2, B2));
  Flat = dropout(flatten(maxpool2d(C2)), Seed, 0.25);
  H = dropout(relu(dense(Flat, W3, B3)), Seed + 1, 0.5);
  Loss = sparse_categorical_crossentropy(dense(H, W4, B4), Labels);
}
)";

// The network at inference (no dropout): the logits of a batch.
const char *const kLogits = R"(
function cnn_logits(Images, F1, B1, F2, B2, W3, B3, W4, B4) -> (Logits) {
  C1 = relu(conv2d(Images, F1, B1));
  C2 = relu(conv2d(C1, F2, B2));
  H = relu(dense(flatten(maxpool2d(C2)), W3, B3));
  Logits = dense(H, W4, B4);
}
)";

constexpr int64_t kSide = 28, kClasses = 10;

/// A parameter tensor: its name in the Tile functions, its shape, and the
/// fan-in and fan-out of its Glorot-uniform initialisation (0 for a bias,
/// which starts at zero), as Keras initialises it.
struct Parameter {
  const char *name;
  Shape shape;
  int64_t fanIn, fanOut;
};

const std::vector<Parameter> kParameters = {
    {"F1", {3, 3, 1, 32}, 9, 288},    {"B1", {32}, 0, 0},
    {"F2", {3, 3, 32, 64}, 288, 576}, {"B2", {64}, 0, 0},
    {"W3", {9216, 128}, 9216, 128},   {"B3", {128}, 0, 0},
    {"W4", {128, kClasses}, 128, 10}, {"B4", {kClasses}, 0, 0},
};

struct Options {
  std::string data = "/usr/share/datasets/fashion-mnist";
  int epochs = 12;
  int64_t batch = 128, trainLimit = 0, testLimit = 0;
  uint32_t seed = 1;
  std::string saveStep;
  jit::ContextOptions context;
};

struct Dataset {
  int64_t count = 0;
  std::vector<float> images; // count x 28 x 28, scaled to [0, 1]
  std::vector<int32_t> labels;
};

/// The whole of `dir/name` or, failing that, of `dir/name.gz`.
std::vector<unsigned char> readFile(const std::string &dir,
                                    const std::string &name) {
  for (const std::string &path : {dir + "/" + name, dir + "/" + name + ".gz"}) {
    gzFile file = gzopen(path.c_str(), "rb");
    if (!file)
      continue;
    std::vector<unsigned char> bytes;
    unsigned char chunk[1 << 16];
    int read;
    while ((read = gzread(file, chunk, sizeof(chunk))) > 0)
      bytes.insert(bytes.end(), chunk, chunk + read);
    bool failed = read < 0;
    gzclose(file);
    if (failed)
      examples::fail("cannot read " + path);
    return bytes;
  }
  examples::fail("cannot open " + dir + "/" + name + " (or " + name +
                 ".gz): give the directory of the IDX files with --data");
}

uint32_t bigEndian(const std::vector<unsigned char> &bytes, size_t at) {
  return uint32_t(bytes[at]) << 24 | uint32_t(bytes[at + 1]) << 16 |
         uint32_t(bytes[at + 2]) << 8 | uint32_t(bytes[at + 3]);
}

/// The images and labels of one IDX pair (`prefix`-images-idx3-ubyte and
/// `prefix`-labels-idx1-ubyte), at most `limit` of them (0: all).
Dataset readDataset(const std::string &dir, const std::string &prefix,
                    int64_t limit) {
  std::string imagesName = prefix + "-images-idx3-ubyte";
  std::string labelsName = prefix + "-labels-idx1-ubyte";
  std::vector<unsigned char> images = readFile(dir, imagesName);
  std::vector<unsigned char> labels = readFile(dir, labelsName);
  if (images.size() < 16 || bigEndian(images, 0) != 0x803 ||
      bigEndian(images, 8) != kSide || bigEndian(images, 12) != kSide)
    examples::fail(imagesName + ": not an IDX file of 28x28 images");
  if (labels.size() < 8 || bigEndian(labels, 0) != 0x801)
    examples::fail(labelsName + ": not an IDX file of labels");
  int64_t count = bigEndian(images, 4);
  if (bigEndian(labels, 4) != count ||
      images.size() != size_t(16 + count * kSide * kSide) ||
      labels.size() != size_t(8 + count))
    examples::fail(prefix + ": the image and label files do not match");
  Dataset dataset;
  dataset.count = limit ? std::min(limit, count) : count;
  dataset.images.resize(dataset.count * kSide * kSide);
  for (size_t i = 0; i < dataset.images.size(); ++i)
    dataset.images[i] = images[16 + i] / 255.0f;
  for (int64_t i = 0; i < dataset.count; ++i) {
    if (labels[8 + i] >= kClasses)
      examples::fail(labelsName + ": a label beyond 9");
    dataset.labels.push_back(labels[8 + i]);
  }
  return dataset;
}

/// The images and labels of the examples `order[first, first + batch)`.
std::pair<HostTensor, HostTensor> makeBatch(const Dataset &dataset,
                                            const std::vector<int64_t> &order,
                                            int64_t first, int64_t batch) {
  std::vector<float> images(batch * kSide * kSide);
  std::vector<int32_t> labels(batch);
  for (int64_t i = 0; i < batch; ++i) {
    int64_t example = order[first + i];
    std::copy_n(&dataset.images[example * kSide * kSide], kSide * kSide,
                &images[i * kSide * kSide]);
    labels[i] = dataset.labels[example];
  }
  return {
      examples::valueOrExit(HostTensor::from({batch, kSide, kSide, 1}, images)),
      examples::valueOrExit(HostTensor::from({batch}, labels))};
}

/// `name` followed by every parameter's name with `prefix`.
std::string parameterList(const std::string &prefix) {
  std::string list;
  for (const Parameter &parameter : kParameters)
    list += (list.empty() ? "" : ", ") + prefix + parameter.name;
  return list;
}

/// The training step's source: the loss, its gradient program and
/// train_step, whose inputs are the batch, the dropout seed, the parameters
/// and the Adadelta state (AG* and AD*, each like its parameter), and whose
/// outputs are the new parameters, the new state, then the loss.
std::string trainStepSource(const std::string &gradient) {
  std::string params = parameterList("");
  std::string text =
      std::string(kImports) + kLoss + "\n" + gradient +
      "\nfunction train_step(Images, Labels, Seed, " + params + ", " +
      parameterList("AG") + ", " + parameterList("AD") + ")\n    -> (" +
      parameterList("New") + ", " + parameterList("NewAG") + ", " +
      parameterList("NewAD") + ", Loss) {\n  (" + parameterList("G") +
      ") = cnn_loss_grad(Images, Labels, Seed, " + params + ");\n";
  for (const Parameter &parameter : kParameters) {
    std::string p = parameter.name;
    text += "  (New" + p + ", NewAG" + p + ", NewAD" + p + ") = adadelta(" + p +
            ", G" + p + ", AG" + p + ", AD" + p + ", 1.0, 0.95, 0.0000001);\n";
  }
  return text + "  Loss = cnn_loss(Images, Labels, Seed, " + params + ");\n}\n";
}

/// Writes the step's source to `path`, after a comment with the `tilec bench`
/// command that times its kernels on random inputs of the step's shapes.
void saveStep(const std::string &path, const std::string &source,
              const jit::CompileOptions &options) {
  std::string command = "// tilec bench " + path + " --entry " + options.entry;
  for (const jit::InputBinding &input : options.inputs) {
    command += " --arg " + input.name + "=" + dtypeName(input.dtype) + "[";
    for (size_t d = 0; d < input.shape.size(); ++d)
      command += (d ? "," : "") + std::to_string(input.shape[d]);
    command += "]";
  }
  FILE *file = std::fopen(path.c_str(), "w");
  if (!file ||
      std::fprintf(file, "%s\n%s", command.c_str(), source.c_str()) < 0 ||
      std::fclose(file) != 0)
    examples::fail("cannot write " + path);
}

std::vector<jit::InputBinding> parameterBindings() {
  std::vector<jit::InputBinding> bindings;
  for (const Parameter &parameter : kParameters)
    bindings.push_back({parameter.name, DType::F32, parameter.shape});
  return bindings;
}

/// The percentage of the examples of `dataset` (its full batches) that the
/// network classifies right.
double accuracy(const jit::CompiledProgram &logits, const Dataset &dataset,
                int64_t batch,
                const std::vector<std::shared_ptr<DeviceTensor>> &state) {
  std::vector<int64_t> order(dataset.count);
  std::iota(order.begin(), order.end(), 0);
  int64_t right = 0, seen = 0;
  for (int64_t first = 0; first + batch <= dataset.count; first += batch) {
    auto [images, labels] = makeBatch(dataset, order, first, batch);
    std::vector<RunInput> inputs = {&images};
    for (size_t i = 0; i < kParameters.size(); ++i)
      inputs.push_back(state[i]);
    auto outputs = examples::valueOrExit(logits.runOnDevice(inputs));
    HostTensor values = examples::valueOrExit(outputs[0]->read());
    Span<const float> scores = examples::valueOrExit(values.view<float>());
    Span<const int32_t> truth = examples::valueOrExit(labels.view<int32_t>());
    for (int64_t i = 0; i < batch; ++i) {
      const float *row = &scores[i * kClasses];
      right += std::max_element(row, row + kClasses) - row == truth[i];
    }
    seen += batch;
  }
  return seen ? 100.0 * right / seen : 0;
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc)
      examples::fail("option " + flag + " needs a value");
    std::string value = argv[++i];
    auto number = [&] {
      char *end;
      long long parsed = std::strtoll(value.c_str(), &end, 10);
      if (*end || parsed < 0 || value.empty())
        examples::fail(flag + " takes a non-negative integer, not '" + value +
                       "'");
      return parsed;
    };
    if (flag == "--data")
      options.data = value;
    else if (flag == "--epochs")
      options.epochs = int(number());
    else if (flag == "--batch")
      options.batch = number();
    else if (flag == "--train-limit")
      options.trainLimit = number();
    else if (flag == "--test-limit")
      options.testLimit = number();
    else if (flag == "--seed")
      options.seed = uint32_t(number());
    else if (flag == "--device")
      options.context.device = value;
    else if (flag == "--save-step")
      options.saveStep = value;
    else if (flag == "--backend" && (value == "opencl" || value == "vulkan"))
      options.context.backend =
          value == "opencl" ? Backend::OpenCL : Backend::Vulkan;
    else
      examples::fail("unknown option or value: " + flag + " " + value);
  }
  if (options.batch == 0)
    examples::fail("--batch must be at least 1");
  return options;
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  Dataset train = readDataset(options.data, "train", options.trainLimit);
  Dataset test = readDataset(options.data, "t10k", options.testLimit);
  const int64_t batch = options.batch;
  if (train.count < batch)
    examples::fail("fewer training images than one batch");

  jit::Context context =
      examples::valueOrExit(jit::Context::create(options.context));
  std::printf("device: %s\n", context.deviceProfile().name.c_str());

  // The training step, compiled once for the batch size.
  jit::CompileOptions lossOptions{
      "cnn_loss",
      {{"Images", DType::F32, {batch, kSide, kSide, 1}},
       {"Labels", DType::I32, {batch}},
       {"Seed", DType::U32, {}}}};
  for (const jit::InputBinding &binding : parameterBindings())
    lossOptions.inputs.push_back(binding);
  std::vector<std::string> wrt;
  for (const Parameter &parameter : kParameters)
    wrt.push_back(parameter.name);
  std::string gradient = examples::valueOrExit(jit::gradientSource(
      std::string(kImports) + kLoss, wrt, lossOptions, "cnn_loss.tile"));
  jit::CompileOptions stepOptions = lossOptions;
  stepOptions.entry = "train_step";
  for (const char *prefix : {"AG", "AD"})
    for (const Parameter &parameter : kParameters)
      stepOptions.inputs.push_back(
          {prefix + std::string(parameter.name), DType::F32, parameter.shape});
  std::string stepSource = trainStepSource(gradient);
  if (!options.saveStep.empty())
    saveStep(options.saveStep, stepSource, stepOptions);
  jit::CompiledProgram step = examples::valueOrExit(
      context.compile(stepSource, stepOptions, "train_step.tile"));
  jit::CompileOptions logitsOptions{
      "cnn_logits", {{"Images", DType::F32, {batch, kSide, kSide, 1}}}};
  for (const jit::InputBinding &binding : parameterBindings())
    logitsOptions.inputs.push_back(binding);
  jit::CompiledProgram logits = examples::valueOrExit(context.compile(
      std::string(kImports) + kLogits, logitsOptions, "cnn_logits.tile"));

  // The initial parameters (Glorot uniform, biases 0) and Adadelta state
  // (0), uploaded by the first step; from then on on the device.
  std::mt19937 rng(options.seed);
  std::vector<HostTensor> initial;
  for (int copy = 0; copy < 3; ++copy)
    for (const Parameter &parameter : kParameters) {
      HostTensor tensor(DType::F32, parameter.shape);
      Span<float> values = examples::valueOrExit(tensor.span<float>());
      std::fill(values.begin(), values.end(), 0.0f);
      if (copy == 0 && parameter.fanIn) {
        float limit = std::sqrt(6.0f / (parameter.fanIn + parameter.fanOut));
        std::uniform_real_distribution<float> uniform(-limit, limit);
        for (float &value : values)
          value = uniform(rng);
      }
      initial.push_back(std::move(tensor));
    }
  std::vector<std::shared_ptr<DeviceTensor>> state;

  std::vector<int64_t> order(train.count);
  std::iota(order.begin(), order.end(), 0);
  const int64_t steps = train.count / batch;
  uint32_t seed = options.seed * 1000003u;
  for (int epoch = 1; epoch <= options.epochs; ++epoch) {
    auto start = std::chrono::steady_clock::now();
    std::shuffle(order.begin(), order.end(), rng);
    double lossSum = 0;
    for (int64_t s = 0; s < steps; ++s) {
      auto [images, labels] = makeBatch(train, order, s * batch, batch);
      HostTensor dropoutSeed =
          examples::valueOrExit(HostTensor::from<uint32_t>({}, {seed}));
      seed += 2; // each step's two dropout layers take seed and seed + 1
      std::vector<RunInput> inputs = {&images, &labels, &dropoutSeed};
      for (size_t i = 0; i < initial.size(); ++i)
        if (state.empty())
          inputs.push_back(&initial[i]);
        else
          inputs.push_back(state[i]);
      std::vector<std::shared_ptr<DeviceTensor>> outputs =
          examples::valueOrExit(step.runOnDevice(inputs));
      HostTensor loss = examples::valueOrExit(outputs.back()->read());
      lossSum += examples::valueOrExit(loss.view<float>())[0];
      outputs.pop_back();
      state = std::move(outputs);
      int done = int(40 * (s + 1) / steps);
      std::fprintf(stderr, "\repoch %d [%.*s%*s] %lld/%lld", epoch, done,
                   "########################################", 40 - done, "",
                   static_cast<long long>(s + 1),
                   static_cast<long long>(steps));
    }
    std::fprintf(stderr, "\n");
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("epoch %d: loss %.4f, train accuracy %.2f%%, test accuracy "
                "%.2f%%, %.2f s\n",
                epoch, lossSum / steps, accuracy(logits, train, batch, state),
                accuracy(logits, test, batch, state), seconds);
  }
  return 0;
}
