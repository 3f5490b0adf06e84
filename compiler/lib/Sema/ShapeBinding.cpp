//===- ShapeBinding.cpp - Binding parameters to dtypes and shapes ---------===//
//
// Every parameter is bound exactly once; its declared rank and integer dims
// must match the binding, and a dimension name declared twice is a checked
// equality.
//
//===----------------------------------------------------------------------===//

#include "Specializer.h"

#include "llvm/ADT/STLExtras.h"

namespace tilec {
namespace sema {

bool Specializer::bindParams(llvm::ArrayRef<ArgBinding> args) {
  bool ok = true;
  llvm::StringMap<const ArgBinding *> bindings;
  for (const ArgBinding &arg : args) {
    const ast::Param *param = nullptr;
    for (const ast::Param &candidate : function.params)
      if (candidate.name == arg.name)
        param = &candidate;
    if (param && param->isInteger) {
      diags.error(param->loc, "an argument is bound to '" + arg.name +
                                  "', an integer parameter: the entry "
                                  "function's integer parameters take their "
                                  "defaults");
      ok = false;
      continue;
    }
    if (!param) {
      std::string available;
      for (const ast::Param &candidate : function.params)
        if (!candidate.isInteger)
          available += (available.empty() ? "" : ", ") + candidate.name;
      diags.error(function.loc,
                  "an argument is bound to '" + arg.name +
                      "', which is not a parameter of this function" +
                      (available.empty() ? " (it has none)"
                                         : " (parameters: " + available + ")"));
      ok = false;
      continue;
    }
    if (!bindings.try_emplace(arg.name, &arg).second) {
      diags.error(param->loc,
                  "parameter '" + arg.name + "' is bound more than once");
      ok = false;
    }
  }

  for (const ast::Param &param : function.params) {
    if (param.isInteger) {
      if (!param.defaultValue) {
        diags.error(param.loc, "integer parameter '" + param.name +
                                   "' has no default: the entry function's "
                                   "integer parameters take their defaults "
                                   "(call it from a function that passes "
                                   "the value)");
        addFailedName(param.name, param.loc);
        ok = false;
        continue;
      }
      ok &= bindIntegerParam(param, std::nullopt);
      continue;
    }
    if (!checkNewName(param.name, param.loc)) {
      ok = false;
      continue;
    }
    const ArgBinding *binding = bindings.lookup(param.name);
    if (!binding) {
      diags.error(param.loc, "parameter '" + param.name + "' is not bound");
      addFailedName(param.name, param.loc);
      ok = false;
      continue;
    }
    if (!bindParam(param, *binding))
      ok = false;
  }
  return ok;
}

bool Specializer::bindParam(const ast::Param &param,
                            const ArgBinding &binding) {
  const Shape &shape = binding.shape;
  std::string type = formatType(binding.dtype, shape);
  bool ok = true;
  if (llvm::any_of(shape, [](int64_t extent) { return extent < 0; })) {
    diags.error(param.loc, "parameter '" + param.name +
                               "' is bound to a negative extent: " + type);
    ok = false;
  } else if (!checkTensorSize(param.name, binding.dtype, shape, param.loc)) {
    ok = false;
  } else if (param.dims && param.dims->size() != shape.size()) {
    diags.error(param.loc, "parameter '" + param.name + "' has rank " +
                               llvm::Twine(param.dims->size()) +
                               " but is bound to " + type);
    ok = false;
  } else if (param.dims) {
    for (auto [axis, dim] : llvm::enumerate(*param.dims))
      ok &= bindDim(param, dim, binding, axis);
  }
  if (!ok) {
    addFailedName(param.name, param.loc);
    return false;
  }
  unsigned index = addTensor(param.name, param.loc, binding.dtype, shape);
  program.tensors[index].isInput = true;
  program.inputs.push_back(index);
  return true;
}

bool Specializer::bindIntegerParam(const ast::Param &param,
                                   std::optional<int64_t> argument) {
  std::optional<int64_t> value = argument;
  if (!value) {
    value = evaluateInteger(*param.defaultValue);
    if (!value)
      diags.note(param.loc, "in the default of '" + param.name + "'");
  }
  if (!value || !checkNewName(param.name, param.loc)) {
    addFailedName(param.name, param.loc);
    return false;
  }
  names[param.name] = NameInfo{param.loc, std::nullopt, *value,
                               "integer parameter " + param.name + " = " +
                                   std::to_string(*value)};
  return true;
}

bool Specializer::bindDim(const ast::Param &param, const ast::ParamDim &dim,
                          const ArgBinding &binding, unsigned axis,
                          const ast::Expr *argument) {
  int64_t extent = binding.shape[axis];
  std::string source =
      param.name + ": " + formatType(binding.dtype, binding.shape);
  auto report = [&](const llvm::Twine &message) {
    if (!argument) {
      diags.error(dim.loc, message);
      return;
    }
    diags.error(argument->loc, "argument of the call to '" + function.name +
                                   "' does not match parameter '" + param.name +
                                   "': " + message);
    diags.note(param.loc, "'" + param.name + "' is declared here");
  };
  if (!dim.name) {
    if (dim.value == extent)
      return true;
    report("parameter '" + param.name + "' requires extent " +
           llvm::Twine(dim.value) + " at axis " + llvm::Twine(axis) +
           " but is bound to " + source);
    return false;
  }
  const std::string &name = *dim.name;
  auto it = names.find(name);
  if (it != names.end() && it->second.dimValue) {
    if (*it->second.dimValue == extent)
      return true;
    report("dimension '" + name + "' is " + llvm::Twine(extent) + " in " +
           source + " but " + llvm::Twine(*it->second.dimValue) + " in " +
           it->second.dimSource);
    diags.note(it->second.loc, "'" + name + "' is first declared here");
    return false;
  }
  if (!checkNewName(name, dim.loc))
    return false;
  names[name] = NameInfo{dim.loc, std::nullopt, extent, source};
  return true;
}

} // namespace sema
} // namespace tilec
