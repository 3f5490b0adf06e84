//===- Gradient.cpp - The reverse sweep and the accumulation of cotangents ===//
//
// The gradient program is the forward program (its statements that the
// backward pass reads) followed by the backward statements, appended while
// walking the forward statements from the last to the first. When the sweep
// reaches a statement, every statement that reads its output has been
// differentiated, so the contributions to the output's cotangent are all
// known: they are summed into one tensor, and the statement's rule sends the
// cotangent on to its operands.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

#include "tilec/Autodiff/Gradient.h"
#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace llvm;

namespace tilec {
namespace autodiff {

/// The name of the cotangent of `name`: the language reserves lower-case
/// names for index variables, so `dW` is spelled `DW`.
static std::string cotangentName(StringRef name) { return "D" + name.str(); }

GradientBuilder::GradientBuilder(const Program &forward, Diagnostics &diags)
    : forward(forward), diags(diags) {
  gradient.name = forward.name.empty() ? "" : forward.name + "_grad";
  gradient.loc = forward.loc;
  gradient.tensors = forward.tensors;
  for (TensorDecl &decl : gradient.tensors)
    decl.isOutput = false;
  gradient.inputs = forward.inputs;
  gradient.dims = forward.dims;
  for (const Statement &statement : forward.statements)
    gradient.statements.push_back(cloneStatement(statement));
  for (const TensorDecl &decl : forward.tensors)
    names.insert(decl.name);
}

std::string GradientBuilder::freshName(StringRef base) {
  std::string name = base.str();
  for (unsigned suffix = 2; names.count(name); ++suffix)
    name = (base + "_" + Twine(suffix)).str();
  names.insert(name);
  return name;
}

unsigned GradientBuilder::addTensor(StringRef base, DType dtype, Shape shape) {
  TensorDecl decl;
  decl.name = freshName(base);
  decl.dtype = dtype;
  decl.shape = std::move(shape);
  decl.loc = forward.loc;
  gradient.tensors.push_back(std::move(decl));
  return gradient.tensors.size() - 1;
}

unsigned GradientBuilder::emitElementwise(StringRef base, ExprPtr value,
                                          SMLoc loc) {
  unsigned tensor = addTensor(base, value->dtype, value->shape);
  Statement statement;
  statement.output = tensor;
  statement.loc = loc;
  statement.op = Elementwise{std::move(value)};
  gradient.statements.push_back(std::move(statement));
  return tensor;
}

unsigned GradientBuilder::emitContraction(StringRef base, DType dtype,
                                          Shape shape, Contraction contraction,
                                          SMLoc loc) {
  unsigned tensor = addTensor(base, dtype, std::move(shape));
  Statement statement;
  statement.output = tensor;
  statement.loc = loc;
  statement.op = std::move(contraction);
  gradient.statements.push_back(std::move(statement));
  return tensor;
}

unsigned GradientBuilder::emitReshape(StringRef base, unsigned input,
                                      Shape shape, SMLoc loc) {
  unsigned tensor =
      addTensor(base, gradient.tensors[input].dtype, std::move(shape));
  Statement statement;
  statement.output = tensor;
  statement.loc = loc;
  statement.op = Reshape{input};
  gradient.statements.push_back(std::move(statement));
  return tensor;
}

ExprPtr GradientBuilder::share(ExprPtr &value, SMLoc loc) {
  if (value->kind != Expr::Kind::Tensor && value->kind != Expr::Kind::Constant)
    value = ref(emitElementwise("G", std::move(value), loc));
  return cloneExpr(*value);
}

bool GradientBuilder::isVaried(const Expr &expr) const {
  if (expr.kind == Expr::Kind::Tensor)
    return varied[expr.tensor];
  if (expr.kind == Expr::Kind::Index)
    return false; // Coordinates do not depend on the values.
  for (const std::unique_ptr<Expr> &operand : expr.operands)
    if (isVaried(*operand))
      return true;
  return false;
}

void GradientBuilder::contribute(unsigned tensor, ExprPtr contribution,
                                 SMLoc loc) {
  if (!varied[tensor])
    return;
  const TensorDecl &decl = gradient.tensors[tensor];
  Shape shape = decl.shape;
  contribution = castTo(std::move(contribution), decl.dtype);
  contributions[tensor].push_back(resize(std::move(contribution), shape, loc));
}

bool GradientBuilder::checkWrt(ArrayRef<std::string> wrt,
                               std::vector<unsigned> &inputs) {
  for (const std::string &name : wrt) {
    auto input = llvm::find_if(forward.inputs, [&](unsigned tensor) {
      return forward.tensors[tensor].name == name;
    });
    if (input == forward.inputs.end()) {
      std::string list;
      for (unsigned tensor : forward.inputs)
        list += (list.empty() ? "" : ", ") + forward.tensors[tensor].name;
      diags.error(forward.loc, "cannot differentiate with respect to '" + name +
                                   "': it is not an input of the function "
                                   "(inputs: " +
                                   list + ")");
      return false;
    }
    const TensorDecl &decl = forward.tensors[*input];
    if (!isFloat(decl.dtype)) {
      diags.error(decl.loc, "cannot differentiate with respect to '" + name +
                                "': it is " + dtypeName(decl.dtype) +
                                ", and only float inputs have gradients");
      return false;
    }
    if (llvm::is_contained(inputs, *input)) {
      diags.error(decl.loc, "'" + name + "' is named twice in --wrt");
      return false;
    }
    inputs.push_back(*input);
  }
  // The interface names must be free: the gradient program cannot rename
  // what its caller binds and reads.
  std::vector<unsigned> named = inputs;
  for (unsigned output : forward.outputs)
    if (isFloat(forward.tensors[output].dtype) &&
        !forward.tensors[output].shape.empty())
      named.push_back(output);
  for (unsigned tensor : named) {
    std::string name = cotangentName(forward.tensors[tensor].name);
    for (const TensorDecl &decl : forward.tensors)
      if (decl.name == name) {
        diags.error(decl.loc, "the gradient program names the cotangent of '" +
                                  forward.tensors[tensor].name + "' '" + name +
                                  "', which this function already uses");
        return false;
      }
    names.insert(name);
  }
  return true;
}

void GradientBuilder::findVariedTensors(ArrayRef<unsigned> wrtInputs) {
  varied.assign(forward.tensors.size(), false);
  for (unsigned input : wrtInputs)
    varied[input] = true;
  for (const Statement &statement : forward.statements) {
    if (!isFloat(forward.tensors[statement.output].dtype))
      continue;
    bool reads = false;
    if (const auto *contraction = std::get_if<Contraction>(&statement.op)) {
      for (const Access &access : contraction->operands)
        reads |= varied[access.tensor];
      if (contraction->defaultTensor)
        reads |= varied[*contraction->defaultTensor];
    } else if (const auto *elementwise =
                   std::get_if<Elementwise>(&statement.op)) {
      reads = isVaried(*elementwise->value);
    } else if (const auto *reshape = std::get_if<Reshape>(&statement.op)) {
      reads = varied[reshape->input];
    }
    varied[statement.output] = reads;
  }
}

void GradientBuilder::declareCotangentInputs() {
  for (unsigned output : forward.outputs) {
    TensorDecl decl = forward.tensors[output];
    if (!isFloat(decl.dtype))
      continue; // Integers and bools carry no gradient.
    if (decl.shape.empty()) {
      // A scalar output (a loss) is differentiated with a cotangent of 1.
      contributions[output].push_back(
          castTo(floatConstant(1.0, DType::F32), decl.dtype));
      continue;
    }
    decl.name = cotangentName(decl.name);
    decl.isInput = true;
    decl.isOutput = false;
    gradient.tensors.push_back(decl);
    unsigned cotangent = gradient.tensors.size() - 1;
    gradient.inputs.push_back(cotangent);
    contributions[output].push_back(ref(cotangent));
  }
}

/// Zeros of `tensor`'s dtype and shape, for a cotangent that nothing
/// contributes to (the literal alone would be a scalar).
static ExprPtr zerosLike(const Program &program, unsigned tensor) {
  const TensorDecl &decl = program.tensors[tensor];
  auto zero = std::make_unique<Expr>();
  zero->kind = Expr::Kind::Constant;
  zero->dtype = DType::I32;
  zero->constant = int64_t(0);
  if (decl.shape.empty())
    return castTo(std::move(zero), decl.dtype);
  auto coordinate = std::make_unique<Expr>();
  coordinate->kind = Expr::Kind::Index;
  coordinate->dtype = DType::I32;
  coordinate->shape = decl.shape;
  coordinate->tensor = tensor;
  return castTo(binary(BinaryOp::Mul, std::move(coordinate), std::move(zero)),
                decl.dtype);
}

unsigned GradientBuilder::finishCotangent(unsigned tensor, StringRef name) {
  std::vector<ExprPtr> parts = std::move(contributions[tensor]);
  contributions.erase(tensor);
  std::string base = cotangentName(gradient.tensors[tensor].name);
  SMLoc loc = gradient.tensors[tensor].loc;
  if (parts.size() == 1 && parts.front()->kind == Expr::Kind::Tensor) {
    unsigned single = parts.front()->tensor;
    if (name.empty())
      return single;
    // A temporary of the backward pass becomes the named result itself,
    // unless it already is another result (A and B of `A + B`).
    TensorDecl &decl = gradient.tensors[single];
    if (single >= forward.tensors.size() && !decl.isInput && !decl.isOutput) {
      names.erase(decl.name);
      decl.name = name.str();
      return single;
    }
  }
  ExprPtr sum =
      parts.empty() ? zerosLike(gradient, tensor) : std::move(parts.front());
  for (size_t i = 1; i < parts.size(); ++i)
    sum = binary(BinaryOp::Add, std::move(sum), std::move(parts[i]));
  if (!name.empty()) {
    names.erase(name);
    base = name.str();
  }
  return emitElementwise(base, std::move(sum), loc);
}

bool GradientBuilder::differentiateStatement(const Statement &statement,
                                             unsigned cotangent) {
  if (std::holds_alternative<Contraction>(statement.op))
    return differentiateContraction(statement, cotangent);
  if (std::holds_alternative<Elementwise>(statement.op))
    return differentiateElementwise(statement, cotangent);
  if (const auto *reshape = std::get_if<Reshape>(&statement.op)) {
    // The same elements in C order: reshape the cotangent back.
    unsigned input = reshape->input;
    unsigned back =
        emitReshape(cotangentName(gradient.tensors[input].name), cotangent,
                    gradient.tensors[input].shape, statement.loc);
    contribute(input, ref(back), statement.loc);
  }
  // shape() is an integer tensor: never varied.
  return true;
}

/// Every tensor that `statement` reads.
static void markReads(const Statement &statement, std::vector<bool> &live) {
  std::function<void(const Expr &)> markExpr = [&](const Expr &expr) {
    if (expr.kind == Expr::Kind::Tensor || expr.kind == Expr::Kind::Index)
      live[expr.tensor] = true;
    for (const std::unique_ptr<Expr> &operand : expr.operands)
      markExpr(*operand);
  };
  if (const auto *contraction = std::get_if<Contraction>(&statement.op)) {
    for (const Access &access : contraction->operands)
      live[access.tensor] = true;
    if (contraction->defaultTensor)
      live[*contraction->defaultTensor] = true;
  } else if (const auto *elementwise =
                 std::get_if<Elementwise>(&statement.op)) {
    markExpr(*elementwise->value);
  } else if (const auto *reshape = std::get_if<Reshape>(&statement.op)) {
    live[reshape->input] = true;
  } else {
    live[std::get<ShapeOf>(statement.op).input] = true;
  }
}

void GradientBuilder::removeDeadStatements() {
  std::vector<bool> live(gradient.tensors.size(), false);
  for (unsigned output : gradient.outputs)
    live[output] = true;
  std::vector<Statement> kept;
  for (auto it = gradient.statements.rbegin(); it != gradient.statements.rend();
       ++it) {
    if (!live[it->output])
      continue;
    markReads(*it, live);
    kept.push_back(std::move(*it));
  }
  gradient.statements.assign(std::make_move_iterator(kept.rbegin()),
                             std::make_move_iterator(kept.rend()));
}

bool GradientBuilder::run(ArrayRef<std::string> wrt) {
  std::vector<unsigned> wrtInputs;
  if (!checkWrt(wrt, wrtInputs))
    return false;
  findVariedTensors(wrtInputs);
  declareCotangentInputs();
  for (auto it = forward.statements.rbegin(); it != forward.statements.rend();
       ++it) {
    auto found = contributions.find(it->output);
    if (found == contributions.end())
      continue;
    if (!varied[it->output] || found->second.empty()) {
      contributions.erase(found);
      continue;
    }
    if (!differentiateStatement(*it, finishCotangent(it->output, "")))
      return false;
  }
  for (unsigned input : wrtInputs) {
    unsigned result =
        finishCotangent(input, cotangentName(forward.tensors[input].name));
    gradient.tensors[result].isOutput = true;
    gradient.outputs.push_back(result);
  }
  removeDeadStatements();
  return true;
}

} // namespace autodiff

std::optional<Program> differentiate(const Program &program,
                                     ArrayRef<std::string> wrt,
                                     SourceMgr &sourceMgr) {
  Diagnostics diags(sourceMgr);
  autodiff::GradientBuilder builder(program, diags);
  if (!builder.run(wrt))
    return std::nullopt;
  const Program &gradient = builder.getGradient();
  std::string source;
  raw_string_ostream os(source);
  printProgram(gradient, os);
  std::string bufferName =
      (program.name.empty() ? "function" : program.name) + ".grad.tile";
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(source, bufferName), SMLoc());
  std::unique_ptr<ast::Module> module = parseModule(sourceMgr, bufferId);
  if (!module)
    return std::nullopt;
  const ast::Function *function = selectFunction(*module, "", sourceMgr);
  if (!function)
    return std::nullopt;
  std::vector<ArgBinding> bindings;
  for (unsigned input : gradient.inputs) {
    const TensorDecl &decl = gradient.tensors[input];
    bindings.push_back({decl.name, decl.dtype, decl.shape});
  }
  return specialize(*function, bindings, sourceMgr);
}

} // namespace tilec
