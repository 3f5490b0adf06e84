//===- Frontend.cpp - Parsing entry points of the frontend ----------------===//
//
// parseModule, selectFunction and getParams of Frontend.h; specialize and
// printProgram live in the Sema library.
//
//===----------------------------------------------------------------------===//

#include "tilec/Frontend/Frontend.h"
#include "Imports.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"

namespace tilec {

std::unique_ptr<ast::Module> parseModule(llvm::SourceMgr &sourceMgr,
                                         unsigned bufferId) {
  Diagnostics diags(sourceMgr);
  Parser parser(diags, bufferId);
  std::unique_ptr<ast::Module> module = parser.parseModule();
  if (!diags.getErrorCount())
    resolveImports(*module, bufferId, diags);
  if (diags.getErrorCount())
    return nullptr;
  return module;
}

const ast::Function *selectFunction(const ast::Module &module,
                                    llvm::StringRef entry,
                                    llvm::SourceMgr &sourceMgr) {
  Diagnostics diags(sourceMgr);
  if (entry.empty() && module.functions.size() == 1)
    return module.functions.front().get();
  if (!entry.empty()) {
    // The main file's functions come first.
    std::vector<const ast::Function *> found = module.findFunctions(entry);
    if (!found.empty())
      return found.front();
  }

  std::string available;
  for (const auto &function : module.functions) {
    if (!available.empty())
      available += ", ";
    available += function->name.empty() ? "<anonymous>" : function->name;
  }
  if (entry.empty())
    diags.error(module.loc, "the source holds several functions (" + available +
                                "); choose one by name");
  else
    diags.error(module.loc, "no function named '" + entry +
                                "' (available: " + available + ")");
  return nullptr;
}

std::vector<ParamInfo> getParams(const ast::Function &function) {
  std::vector<ParamInfo> params;
  for (const ast::Param &param : function.params) {
    // An integer parameter is no input: it takes its default.
    if (param.isInteger)
      continue;
    ParamInfo info{param.name, param.loc, std::nullopt};
    if (param.dims)
      info.rank = param.dims->size();
    params.push_back(std::move(info));
  }
  return params;
}

} // namespace tilec
