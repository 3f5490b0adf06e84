//===- FiniteDifferences.cpp - Gradients checked numerically --------------===//

#include "FiniteDifferences.h"

#include "tilec/Autodiff/Gradient.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"
#include "tilec/Interpreter/Interpreter.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

namespace tilec::testing {

static void collectDiagnostics(llvm::SourceMgr &sourceMgr,
                               std::string &diagnostics) {
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diagnostic, void *context) {
        llvm::raw_string_ostream os(*static_cast<std::string *>(context));
        diagnostic.print("", os, /*ShowColors=*/false);
      },
      &diagnostics);
}

Compiled compileSource(const std::string &source,
                       const std::vector<InputType> &inputs) {
  Compiled compiled;
  compiled.sourceMgr = std::make_unique<llvm::SourceMgr>();
  collectDiagnostics(*compiled.sourceMgr, compiled.diagnostics);
  unsigned bufferId = compiled.sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  std::unique_ptr<ast::Module> module =
      parseModule(*compiled.sourceMgr, bufferId);
  if (!module)
    return compiled;
  const ast::Function *function =
      selectFunction(*module, "", *compiled.sourceMgr);
  if (!function)
    return compiled;
  std::vector<ArgBinding> bindings;
  for (const InputType &input : inputs)
    bindings.push_back({input.name, input.dtype, input.shape});
  compiled.program = specialize(*function, bindings, *compiled.sourceMgr);
  return compiled;
}

std::string gradientSource(const std::string &source,
                           const std::vector<InputType> &inputs,
                           const std::vector<std::string> &wrt,
                           std::string &diagnostics) {
  Compiled forward = compileSource(source, inputs);
  if (!forward.program) {
    diagnostics = forward.diagnostics;
    return "";
  }
  std::optional<Program> gradient =
      differentiate(*forward.program, wrt, *forward.sourceMgr);
  diagnostics = forward.diagnostics;
  if (!gradient)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  printProgram(*gradient, os);
  return text;
}

namespace {

/// Random values in +-[0.5, 1.5] for floats (never 0, so that products,
/// quotients and logarithms stay away from their singularities), 1..3 for
/// integers.
HostTensor randomTensor(DType dtype, const Shape &shape, std::mt19937 &rng) {
  HostTensor tensor(dtype, shape);
  std::uniform_real_distribution<double> magnitude(0.5, 1.5);
  std::uniform_int_distribution<int> coin(0, 1);
  std::uniform_int_distribution<int> small(1, 3);
  for (int64_t i = 0; i < tensor.numElements(); ++i) {
    if (isFloat(dtype))
      tensor.setDouble(i, (coin(rng) ? 1 : -1) * magnitude(rng));
    else
      tensor.setInt(i, small(rng));
  }
  return tensor;
}

/// sum over the float outputs of <cotangent, output> (a scalar output's
/// cotangent is 1): the function whose gradient the gradient program is.
double weightedLoss(const Program &forward, llvm::SourceMgr &sourceMgr,
                    const std::vector<HostTensor> &inputs,
                    const std::vector<const HostTensor *> &cotangents) {
  std::optional<std::vector<HostTensor>> outputs =
      interpret(forward, inputs, sourceMgr);
  EXPECT_TRUE(outputs);
  if (!outputs)
    return NAN;
  double loss = 0;
  for (size_t i = 0; i < outputs->size(); ++i) {
    const HostTensor &output = (*outputs)[i];
    if (!isFloat(output.dtype()))
      continue;
    for (int64_t e = 0; e < output.numElements(); ++e)
      loss += output.getDouble(e) *
              (cotangents[i] ? cotangents[i]->getDouble(e) : 1.0);
  }
  return loss;
}

} // namespace

void expectGradientsMatch(const std::string &source,
                          const std::vector<InputType> &inputs,
                          const std::vector<std::string> &wrt,
                          double tolerance) {
  Compiled forward = compileSource(source, inputs);
  ASSERT_TRUE(forward.program) << forward.diagnostics;
  // The gradient program as a user gets it: printed, then compiled again.
  std::string diagnostics;
  std::string text = gradientSource(source, inputs, wrt, diagnostics);
  ASSERT_FALSE(text.empty()) << diagnostics;
  std::vector<InputType> gradientInputs = inputs;
  std::vector<std::string> cotangentOf;
  for (unsigned output : forward.program->outputs) {
    const TensorDecl &decl = forward.program->tensors[output];
    if (isFloat(decl.dtype) && !decl.shape.empty()) {
      gradientInputs.push_back({"D" + decl.name, decl.dtype, decl.shape});
      cotangentOf.push_back(decl.name);
    }
  }
  Compiled gradient = compileSource(text, gradientInputs);
  ASSERT_TRUE(gradient.program) << gradient.diagnostics << "\n" << text;

  std::mt19937 rng(20261125);
  std::vector<HostTensor> values;
  for (const InputType &input : gradientInputs)
    values.push_back(randomTensor(input.dtype, input.shape, rng));
  std::vector<HostTensor> forwardValues(values.begin(),
                                        values.begin() + inputs.size());
  std::vector<const HostTensor *> cotangents;
  for (unsigned output : forward.program->outputs) {
    const std::string &name = forward.program->tensors[output].name;
    auto found = std::find(cotangentOf.begin(), cotangentOf.end(), name);
    cotangents.push_back(
        found == cotangentOf.end()
            ? nullptr
            : &values[inputs.size() + (found - cotangentOf.begin())]);
  }

  std::optional<std::vector<HostTensor>> gradients =
      interpret(*gradient.program, values, *gradient.sourceMgr);
  ASSERT_TRUE(gradients) << gradient.diagnostics << "\n" << text;
  ASSERT_EQ(gradients->size(), wrt.size());
  for (size_t w = 0; w < wrt.size(); ++w) {
    size_t input = 0;
    while (inputs[input].name != wrt[w])
      ++input;
    const HostTensor &computed = (*gradients)[w];
    ASSERT_EQ(computed.shape(), inputs[input].shape) << wrt[w];
    for (int64_t e = 0; e < computed.numElements(); ++e) {
      double x = forwardValues[input].getDouble(e);
      double h = 1e-6 * std::max(1.0, std::fabs(x));
      std::vector<HostTensor> plus = forwardValues, minus = forwardValues;
      plus[input].setDouble(e, x + h);
      minus[input].setDouble(e, x - h);
      double difference = (weightedLoss(*forward.program, *forward.sourceMgr,
                                        plus, cotangents) -
                           weightedLoss(*forward.program, *forward.sourceMgr,
                                        minus, cotangents)) /
                          (2 * h);
      EXPECT_NEAR(computed.getDouble(e), difference,
                  tolerance * (1 + std::fabs(difference)))
          << "d/d" << wrt[w] << " element " << e << " of\n"
          << text;
    }
  }
}

} // namespace tilec::testing
