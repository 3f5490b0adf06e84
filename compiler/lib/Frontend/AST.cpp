//===- AST.cpp - Syntax tree of Tile source -------------------------------===//

#include "tilec/Frontend/AST.h"

#include "llvm/ADT/StringExtras.h"

bool tilec::ast::isUpperCaseName(llvm::StringRef name) {
  return !name.empty() && llvm::isUpper(name.front());
}

unsigned tilec::ast::getPrecedence(BinaryOp op) {
  switch (op) {
  case BinaryOp::LogicalOr:
    return 1;
  case BinaryOp::LogicalAnd:
    return 2;
  case BinaryOp::BitOr:
    return 3;
  case BinaryOp::BitXor:
    return 4;
  case BinaryOp::BitAnd:
    return 5;
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    return 6;
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge:
    return 7;
  case BinaryOp::Shl:
  case BinaryOp::Shr:
    return 8;
  case BinaryOp::Add:
  case BinaryOp::Sub:
    return 9;
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Rem:
    return 10;
  }
  return 0;
}

const char *tilec::ast::getSpelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::LogicalAnd:
    return "&&";
  case BinaryOp::LogicalOr:
    return "||";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
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
