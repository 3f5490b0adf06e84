//===- Specialize.cpp - From a function and bindings to a Program ---------===//
//
// The driver of specialisation and the scope of upper-case names. Each
// statement is specialised on its own; a statement that fails marks its name
// as failed and sema goes on with the next one, so independent errors are all
// reported in one run.
//
//===----------------------------------------------------------------------===//

#include "Specializer.h"
#include "tilec/Support/CheckedArithmetic.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {
namespace sema {

std::string formatShape(const Shape &shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  for (size_t i = 0; i < shape.size(); ++i)
    os << (i ? ", " : "") << shape[i];
  os << "]";
  return text;
}

std::string formatType(DType dtype, const Shape &shape) {
  return dtypeName(dtype) + formatShape(shape);
}

Specializer::Specializer(const ast::Function &function,
                         llvm::SourceMgr &sourceMgr)
    : ownState(std::make_unique<SpecializationState>(sourceMgr)),
      state(*ownState), function(function), diags(state.diags),
      program(state.program) {}

Specializer::Specializer(const ast::Function &callee, Specializer &caller,
                         std::string prefix)
    : state(caller.state), function(callee), diags(state.diags),
      program(state.program), caller(&caller), prefix(std::move(prefix)) {}

std::string Specializer::makeProgramName(llvm::StringRef name) {
  if (!caller) {
    state.programNames.insert(name);
    return name.str();
  }
  auto result = resultNames.find(name);
  if (result != resultNames.end())
    return result->second;
  std::string base = prefix + name.str();
  std::string unique = base;
  for (unsigned suffix = 2; state.programNames.contains(unique); ++suffix)
    unique = base + "_" + std::to_string(suffix);
  state.programNames.insert(unique);
  return unique;
}

bool Specializer::checkNewName(llvm::StringRef name, llvm::SMLoc loc) {
  if (!ast::isUpperCaseName(name)) {
    diags.error(loc, "'" + name +
                         "' cannot name a tensor: tensor and dimension names "
                         "start with an upper-case letter");
    return false;
  }
  auto it = names.find(name);
  if (it == names.end())
    return true;
  diags.error(loc, "redefinition of '" + name + "'");
  diags.note(it->second.loc, "'" + name + "' is first defined here");
  return false;
}

unsigned Specializer::addTensor(llvm::StringRef name, llvm::SMLoc loc,
                                DType dtype, Shape shape) {
  unsigned index = program.tensors.size();
  TensorDecl decl;
  decl.name = makeProgramName(name);
  decl.dtype = dtype;
  decl.shape = std::move(shape);
  decl.loc = loc;
  program.tensors.push_back(std::move(decl));
  names[name] = NameInfo{loc, index, std::nullopt, ""};
  return index;
}

void Specializer::addFailedName(llvm::StringRef name, llvm::SMLoc loc) {
  names.try_emplace(name, NameInfo{loc, std::nullopt, std::nullopt, ""});
}

std::optional<unsigned> Specializer::lookupTensor(llvm::StringRef name,
                                                  llvm::SMLoc loc) {
  auto it = names.find(name);
  if (it == names.end()) {
    diags.error(loc, "use of undefined tensor '" + name + "'");
    return std::nullopt;
  }
  if (it->second.dimValue) {
    diags.error(loc, "'" + name + "' is a dimension, not a tensor");
    diags.note(it->second.loc, "'" + name + "' is declared here");
    return std::nullopt;
  }
  return it->second.tensor;
}

std::optional<int64_t> Specializer::lookupDim(llvm::StringRef name) const {
  auto it = names.find(name);
  if (it == names.end())
    return std::nullopt;
  return it->second.dimValue;
}

bool Specializer::checkElementCount(const Shape &shape, llvm::SMLoc loc) {
  if (numElements(shape))
    return true;
  diags.error(loc, "the element count of shape " + formatShape(shape) +
                       " overflows a 64-bit integer");
  return false;
}

bool Specializer::checkTensorSize(llvm::StringRef name, DType dtype,
                                  const Shape &shape, llvm::SMLoc loc) {
  if (!checkElementCount(shape, loc))
    return false;
  int64_t elements = *numElements(shape);
  if (checkedMul(elements, int64_t(dtypeSize(dtype))))
    return true;
  diags.error(loc, "'" + name + "' (" + formatType(dtype, shape) + ") has " +
                       llvm::Twine(elements) + " elements of " +
                       llvm::Twine(dtypeSize(dtype)) +
                       " bytes: its size in bytes overflows a 64-bit integer");
  return false;
}

std::string Specializer::makeTemporaryName() {
  std::string name;
  do
    name = "Tmp" + std::to_string(temporaryCount++);
  while (sourceNames.contains(name) || names.count(name) ||
         (!caller && state.programNames.contains(name)));
  return name;
}

bool Specializer::bindResults(std::vector<unsigned> &results) {
  bool ok = true;
  llvm::StringSet<> seen;
  for (const ast::Result &result : function.results) {
    if (!seen.insert(result.name).second) {
      diags.error(result.loc, "'" + result.name + "' is returned twice");
      ok = false;
      continue;
    }
    auto it = names.find(result.name);
    if (it == names.end()) {
      diags.error(result.loc, "result '" + result.name +
                                  "' is not defined in the function body");
      ok = false;
      continue;
    }
    // A failed statement was reported already.
    if (!it->second.tensor) {
      if (it->second.dimValue) {
        diags.error(result.loc, "result '" + result.name +
                                    "' is a dimension, not a tensor");
        ok = false;
      }
      continue;
    }
    // A callee's parameter is its caller's tensor: ask the source.
    const ast::Param *param = nullptr;
    for (const ast::Param &candidate : function.params)
      if (candidate.name == result.name)
        param = &candidate;
    if (param) {
      diags.error(result.loc, "result '" + result.name +
                                  "' is a parameter; results are defined by "
                                  "statements of the body");
      diags.note(param->loc, "'" + result.name + "' is declared here");
      ok = false;
      continue;
    }
    results.push_back(*it->second.tensor);
  }
  return ok;
}

void Specializer::collectSourceNames() {
  for (const ast::Param &param : function.params) {
    sourceNames.insert(param.name);
    if (param.dims)
      for (const ast::ParamDim &dim : *param.dims)
        if (dim.name)
          sourceNames.insert(*dim.name);
  }
  for (const ast::Statement &statement : function.statements) {
    sourceNames.insert(statement.output);
    if (const auto *call = std::get_if<ast::CallStmt>(&statement.body))
      for (const ast::Result &output : call->outputs)
        sourceNames.insert(output.name);
  }
}

void Specializer::specializeBody() {
  for (const ast::Statement &statement : function.statements) {
    if (const auto *call = std::get_if<ast::CallStmt>(&statement.body)) {
      specializeCallStatement(call->outputs, *call->call);
      continue;
    }
    const auto *elementwise =
        std::get_if<ast::ElementwiseStmt>(&statement.body);
    if (elementwise && isFunctionCall(*elementwise->value)) {
      specializeCallStatement({{statement.output, statement.loc}},
                              *elementwise->value);
      continue;
    }
    if (!checkNewName(statement.output, statement.loc))
      continue;
    std::optional<Statement> result =
        elementwise
            ? specializeElementwise(statement, *elementwise)
            : specializeContraction(
                  statement, std::get<ast::ContractionStmt>(statement.body));
    if (result) {
      const TensorDecl &output = program.tensors[result->output];
      if (!checkTensorSize(output.name, output.dtype, output.shape,
                           statement.loc)) {
        // The name is taken by the tensor; its uses now fail quietly.
        names[statement.output].tensor.reset();
        result.reset();
      }
    }
    if (!result) {
      addFailedName(statement.output, statement.loc);
      continue;
    }
    program.statements.push_back(std::move(*result));
  }
}

std::optional<Program> Specializer::run(llvm::ArrayRef<ArgBinding> args) {
  program.name = function.name;
  program.loc = function.loc;
  collectSourceNames();
  for (const auto &name : sourceNames)
    state.programNames.insert(name.getKey());
  if (!bindParams(args))
    return std::nullopt;
  for (const auto &[name, info] : names)
    if (info.dimValue)
      program.dims[name.str()] = *info.dimValue;

  specializeBody();
  std::vector<unsigned> results;
  bool ok = bindResults(results);
  for (unsigned result : results)
    program.tensors[result].isOutput = true;
  program.outputs = std::move(results);
  if (!ok || diags.getErrorCount())
    return std::nullopt;
  return std::move(program);
}

} // namespace sema

std::optional<Program> specialize(const ast::Function &function,
                                  llvm::ArrayRef<ArgBinding> args,
                                  llvm::SourceMgr &sourceMgr) {
  sema::Specializer specializer(function, sourceMgr);
  return specializer.run(args);
}

} // namespace tilec
