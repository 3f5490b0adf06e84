//===- AST.cpp - Syntax tree of Tile source -------------------------------===//

#include "tilec/Frontend/AST.h"

#include "llvm/ADT/StringExtras.h"

bool tilec::ast::isUpperCaseName(llvm::StringRef name) {
  return !name.empty() && llvm::isUpper(name.front());
}

// Precedences and spellings are the rows of the table of elementwise
// operations (tilec/Support/ElementwiseOps.def).
unsigned tilec::ast::getPrecedence(BinaryOp op) {
  switch (op) {
#define TILE_BINARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling, Precedence)   \
  case BinaryOp::Op:                                                           \
    return Precedence;
#include "tilec/Support/ElementwiseOps.def"
  }
  return 0;
}

const char *tilec::ast::getSpelling(BinaryOp op) {
  switch (op) {
#define TILE_BINARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling, Precedence)   \
  case BinaryOp::Op:                                                           \
    return Spelling;
#include "tilec/Support/ElementwiseOps.def"
  }
  return "?";
}

const char *tilec::ast::getSpelling(UnaryOp op) {
  switch (op) {
#define TILE_UNARY_OPERATOR(Kind, Mnemonic, Rule, Op, Spelling)                \
  case UnaryOp::Op:                                                            \
    return Spelling;
#include "tilec/Support/ElementwiseOps.def"
  }
  return "?";
}

std::vector<const tilec::ast::Function *>
tilec::ast::Module::findFunctions(llvm::StringRef name) const {
  std::vector<const Function *> found;
  for (const auto *list : {&functions, &importedFunctions})
    for (const std::unique_ptr<Function> &function : *list)
      if (!name.empty() && function->name == name)
        found.push_back(function.get());
  return found;
}
