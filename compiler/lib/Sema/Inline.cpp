//===- Inline.cpp - Calls of functions, inlined at specialisation ---------===//
//
// A call is specialised by a Specializer of its own for the callee, bound to
// the caller's argument tensors, which appends the callee's statements to the
// one Program: the Program has no call node, and the interpreter and the
// lowering see plain statements (docs/language.md, section 8). Errors in
// the callee's body carry a note at every call that led there.
//
//===----------------------------------------------------------------------===//

#include "Specializer.h"
#include "tilec/Sema/Builtins.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace tilec {
namespace sema {

/// The functions of section 4 other than the math builtins of Builtins.h.
static bool isLanguageFunction(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases("as_float", "as_int", "as_uint", "as_bool", "as_bf16", true)
      .Cases(kSelectName, "index", "reshape", "shape", true)
      .Default(false);
}

bool Specializer::isFunctionCall(const ast::Expr &expr) {
  return expr.kind == ast::Expr::Kind::Call && !lookupBuiltin(expr.name) &&
         !isLanguageFunction(expr.name);
}

/// `Layer2_` for the second call of `layer`: an upper-case initial, so that
/// the names it starts are tensor names when the program is printed.
static std::string makeCallPrefix(llvm::StringRef callee, unsigned count) {
  std::string prefix = callee.str();
  if (llvm::isAlpha(prefix.front()))
    prefix.front() = llvm::toUpper(prefix.front());
  else
    prefix.insert(0, "F");
  return prefix + std::to_string(count) + "_";
}

const ast::Function *Specializer::resolveCallee(const ast::Expr &call) {
  std::vector<const ast::Function *> found;
  if (function.module)
    found = function.module->findFunctions(call.name);
  if (found.empty()) {
    diags.error(call.loc, "unknown function '" + call.name + "'");
    return nullptr;
  }
  if (found.size() > 1) {
    diags.error(call.loc, "call of '" + call.name +
                              "' is ambiguous: " + llvm::Twine(found.size()) +
                              " functions have that name");
    for (const ast::Function *candidate : found)
      diags.note(candidate->loc, "'" + call.name + "' is defined here");
    return nullptr;
  }
  return found.front();
}

std::optional<std::vector<unsigned>>
Specializer::inlineCall(const ast::Expr &call,
                        llvm::ArrayRef<std::string> resultNames) {
  const ast::Function *callee = resolveCallee(call);
  if (!callee)
    return std::nullopt;
  unsigned depth = 0;
  for (const Specializer *scope = this; scope; scope = scope->caller) {
    if (&scope->function == callee) {
      diags.error(call.loc, "recursive call of '" + call.name +
                                "': a function cannot call itself, directly "
                                "or through other functions");
      return std::nullopt;
    }
    ++depth;
  }
  if (depth > kMaxCallDepth) {
    diags.error(call.loc,
                "calls nest more than " + llvm::Twine(kMaxCallDepth) + " deep");
    return std::nullopt;
  }
  size_t required = llvm::count_if(callee->params, [](const ast::Param &param) {
    return !param.defaultValue;
  });
  size_t given = call.operands.size();
  if (given < required || given > callee->params.size()) {
    std::string takes = required == callee->params.size()
                            ? std::to_string(required)
                            : std::to_string(required) + " to " +
                                  std::to_string(callee->params.size());
    diags.error(call.loc, "'" + call.name + "' takes " + takes +
                              " arguments but " + llvm::Twine(given) +
                              " were given");
    diags.note(callee->loc, "'" + call.name + "' is defined here");
    return std::nullopt;
  }
  size_t wanted = resultNames.empty() ? 1 : resultNames.size();
  if (callee->results.size() != wanted) {
    if (resultNames.empty())
      diags.error(call.loc, "'" + call.name + "' returns " +
                                llvm::Twine(callee->results.size()) +
                                " results: call it in a statement "
                                "'(A, B, ...) = " +
                                call.name + "(...);'");
    else
      diags.error(call.loc, "'" + call.name + "' returns " +
                                llvm::Twine(callee->results.size()) +
                                " results but " + llvm::Twine(wanted) +
                                " names are given");
    diags.note(callee->loc, "'" + call.name + "' is defined here");
    return std::nullopt;
  }
  if (program.statements.size() > kMaxStatements) {
    diags.error(call.loc, "inlining this call makes the program longer than " +
                              llvm::Twine(kMaxStatements) + " statements");
    return std::nullopt;
  }

  // Each argument is evaluated in the caller's scope: a tensor, or the
  // value of an integer parameter.
  std::vector<CallArgument> args;
  bool ok = true;
  for (auto [operand, param] : llvm::zip(call.operands, callee->params)) {
    CallArgument arg;
    if (param.isInteger) {
      arg.integer = evaluateInteger(*operand);
      if (!arg.integer)
        diags.note(param.loc, "'" + param.name + "' is an integer parameter");
      ok &= arg.integer.has_value();
    } else {
      arg.tensor = specializeTensorArgument(*operand);
      ok &= arg.tensor.has_value();
    }
    args.push_back(arg);
  }
  if (!ok)
    return std::nullopt;

  Specializer inlined(
      *callee, *this,
      prefix + makeCallPrefix(callee->name, ++callCounts[callee->name]));
  for (size_t i = 0; i < resultNames.size(); ++i)
    inlined.resultNames[callee->results[i].name] = resultNames[i];
  return inlined.inlineBody(call, args);
}

bool Specializer::bindArgument(const ast::Param &param,
                               const ast::Expr &argument, unsigned tensor) {
  if (!checkNewName(param.name, param.loc))
    return false;
  const TensorDecl &decl = getTensor(tensor);
  ArgBinding binding{param.name, decl.dtype, decl.shape};
  bool ok = true;
  if (param.dims && param.dims->size() != decl.shape.size()) {
    diags.error(argument.loc, "argument of the call to '" + function.name +
                                  "' does not match parameter '" + param.name +
                                  "': it has rank " +
                                  llvm::Twine(decl.shape.size()) + " (" +
                                  formatType(decl.dtype, decl.shape) +
                                  ") but the parameter has rank " +
                                  llvm::Twine(param.dims->size()));
    diags.note(param.loc, "'" + param.name + "' is declared here");
    ok = false;
  } else if (param.dims) {
    for (auto [axis, dim] : llvm::enumerate(*param.dims))
      ok &= bindDim(param, dim, binding, axis, &argument);
  }
  if (!ok) {
    addFailedName(param.name, param.loc);
    return false;
  }
  names[param.name] = NameInfo{param.loc, tensor, std::nullopt, ""};
  return true;
}

std::optional<std::vector<unsigned>>
Specializer::inlineBody(const ast::Expr &call,
                        llvm::ArrayRef<CallArgument> args) {
  collectSourceNames();
  bool ok = true;
  for (auto [i, param] : llvm::enumerate(function.params)) {
    if (i >= args.size()) {
      // A default is the callee's code: its errors say which call ran it.
      diags.pushCallSite(call.loc, function.name);
      ok &= bindIntegerParam(param, std::nullopt);
      diags.popCallSite();
    } else if (param.isInteger) {
      ok &= bindIntegerParam(param, args[i].integer);
    } else {
      ok &= bindArgument(param, *call.operands[i], *args[i].tensor);
    }
  }
  if (!ok)
    return std::nullopt;

  unsigned errorsBefore = diags.getErrorCount();
  diags.pushCallSite(call.loc, function.name);
  specializeBody();
  std::vector<unsigned> results;
  ok = bindResults(results);
  diags.popCallSite();
  if (!ok || diags.getErrorCount() != errorsBefore)
    return std::nullopt;
  return results;
}

bool Specializer::specializeCallStatement(llvm::ArrayRef<ast::Result> outputs,
                                          const ast::Expr &call) {
  bool ok = true;
  if (!isFunctionCall(call)) {
    diags.error(call.loc, "'" + call.name +
                              "' is a builtin: '(...) =' takes a call of a "
                              "function of the program");
    ok = false;
  }
  for (const ast::Result &output : outputs)
    ok &= checkNewName(output.name, output.loc);
  std::optional<std::vector<unsigned>> results;
  if (ok) {
    std::vector<std::string> resultNames;
    for (const ast::Result &output : outputs)
      resultNames.push_back(makeProgramName(output.name));
    results = inlineCall(call, resultNames);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (results)
      names[outputs[i].name] =
          NameInfo{outputs[i].loc, (*results)[i], std::nullopt, ""};
    else
      addFailedName(outputs[i].name, outputs[i].loc);
  }
  return results.has_value();
}

std::optional<unsigned> Specializer::specializeCall(const ast::Expr &call) {
  std::optional<std::vector<unsigned>> results = inlineCall(call, {});
  if (!results)
    return std::nullopt;
  return results->front();
}

} // namespace sema
} // namespace tilec
