//===- Parser.cpp - Recursive-descent parser of Tile source ---------------===//

#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Error.h"

#include <algorithm>

using namespace tilec;
using ast::ExprPtr;

/// The binary operator a token spells, if any.
static std::optional<BinaryOp> getBinaryOp(TokenKind kind) {
  switch (kind) {
  case TokenKind::PipePipe:
    return BinaryOp::LogicalOr;
  case TokenKind::AmpAmp:
    return BinaryOp::LogicalAnd;
  case TokenKind::Pipe:
    return BinaryOp::BitOr;
  case TokenKind::Caret:
    return BinaryOp::BitXor;
  case TokenKind::Amp:
    return BinaryOp::BitAnd;
  case TokenKind::EqEq:
    return BinaryOp::Eq;
  case TokenKind::NotEq:
    return BinaryOp::Ne;
  case TokenKind::Less:
    return BinaryOp::Lt;
  case TokenKind::Greater:
    return BinaryOp::Gt;
  case TokenKind::LessEq:
    return BinaryOp::Le;
  case TokenKind::GreaterEq:
    return BinaryOp::Ge;
  case TokenKind::Shl:
    return BinaryOp::Shl;
  case TokenKind::Shr:
    return BinaryOp::Shr;
  case TokenKind::Plus:
    return BinaryOp::Add;
  case TokenKind::Minus:
    return BinaryOp::Sub;
  case TokenKind::Star:
    return BinaryOp::Mul;
  case TokenKind::Slash:
    return BinaryOp::Div;
  case TokenKind::Percent:
    return BinaryOp::Rem;
  default:
    return std::nullopt;
  }
}

/// Constraints are `poly < bound`: both sides bind tighter than `<`.
static const unsigned kConstraintOperandPrecedence =
    ast::getPrecedence(BinaryOp::Shl);

static ExprPtr makeNode(ast::Expr::Kind kind, llvm::SMLoc loc,
                        std::vector<ExprPtr> operands) {
  auto expr = std::make_unique<ast::Expr>();
  expr->kind = kind;
  expr->loc = loc;
  for (const ExprPtr &operand : operands)
    expr->height = std::max(expr->height, operand->height + 1);
  expr->operands = std::move(operands);
  return expr;
}

Parser::Parser(Diagnostics &diags, unsigned bufferId)
    : diags(diags), lexer(diags, bufferId) {
  consume();
}

void Parser::consume() {
  previousTokenEnd = llvm::SMLoc::getFromPointer(token.spelling.end());
  // Error tokens were reported by the lexer; the parser never sees them.
  do
    token = lexer.lex();
  while (token.is(TokenKind::Error));
}

bool Parser::consumeIf(TokenKind kind) {
  if (!token.is(kind))
    return false;
  consume();
  return true;
}

void Parser::errorExpected(llvm::StringRef what) {
  diags.error(token.getLoc(),
              "expected " + what + ", found " +
                  (token.is(TokenKind::Eof) ? llvm::Twine("end of file")
                                            : "'" + token.spelling + "'"));
}

bool Parser::expect(TokenKind kind, llvm::StringRef what) {
  if (consumeIf(kind))
    return true;
  errorExpected(what);
  return false;
}

void Parser::skipToStatementEnd() {
  while (!token.is(TokenKind::Eof) && !token.is(TokenKind::RBrace) &&
         !token.is(TokenKind::KwFunction)) {
    if (consumeIf(TokenKind::Semicolon))
      return;
    consume();
  }
}

void Parser::skipToFunction() {
  while (!token.is(TokenKind::Eof) && !token.is(TokenKind::KwFunction))
    consume();
}

std::unique_ptr<ast::Module> Parser::parseModule() {
  auto module = std::make_unique<ast::Module>();
  module->loc = lexer.getBufferStart();
  unsigned errorsBefore = diags.getErrorCount();
  while (!token.is(TokenKind::Eof)) {
    // `import` is a keyword only here, so that it stays a valid name
    // (an index variable) everywhere else.
    if (token.is(TokenKind::Identifier) && token.spelling == "import") {
      if (!module->functions.empty())
        diags.error(token.getLoc(),
                    "imports must come before the first function");
      if (!parseImport(*module))
        skipToFunction();
      continue;
    }
    if (!token.is(TokenKind::KwFunction)) {
      errorExpected("'function'");
      consume();
      skipToFunction();
      continue;
    }
    if (auto function = parseFunction())
      module->functions.push_back(std::move(function));
  }
  if (module->functions.empty() && diags.getErrorCount() == errorsBefore)
    diags.error(module->loc, "no function in the source");
  return module;
}

bool Parser::parseImport(ast::Module &module) {
  ast::Import import;
  import.loc = token.getLoc();
  consume(); // 'import'
  if (!token.is(TokenKind::StringLiteral)) {
    errorExpected("the imported file's path as a string \"...\"");
    return false;
  }
  import.path = token.spelling.drop_front().drop_back().str();
  if (import.path.empty()) {
    diags.error(token.getLoc(), "the imported file's path is empty");
    return false;
  }
  consume();
  if (!consumeIf(TokenKind::Semicolon)) {
    diags.error(previousTokenEnd, "expected ';' after the import");
    return false;
  }
  module.imports.push_back(std::move(import));
  return true;
}

std::unique_ptr<ast::Function> Parser::parseFunction() {
  auto function = std::make_unique<ast::Function>();
  function->loc = token.getLoc();
  consume(); // 'function'
  if (token.is(TokenKind::Identifier)) {
    function->name = token.spelling.str();
    consume();
  }
  bool ok = expect(TokenKind::LParen, "'(' before the parameters");
  if (ok && !consumeIf(TokenKind::RParen)) {
    do
      ok = parseParam(*function);
    while (ok && consumeIf(TokenKind::Comma));
    ok = ok && expect(TokenKind::RParen, "',' or ')' after a parameter");
  }
  ok = ok && expect(TokenKind::Arrow, "'->' before the results") &&
       parseResults(*function) && parseBody(*function);
  if (!ok) {
    skipToFunction();
    return nullptr;
  }
  return function;
}

bool Parser::parseParam(ast::Function &function) {
  if (!token.is(TokenKind::Identifier)) {
    errorExpected("a parameter name");
    return false;
  }
  ast::Param param;
  param.name = token.spelling.str();
  param.loc = token.getLoc();
  consume();
  if (consumeIf(TokenKind::Colon)) {
    if (!token.is(TokenKind::Identifier) || token.spelling != "int") {
      errorExpected("'int' after ':' (an integer parameter is 'Name: int')");
      return false;
    }
    consume();
    param.isInteger = true;
    if (consumeIf(TokenKind::Assign)) {
      ExprPtr value = parseExpr();
      if (!value || !(param.defaultValue = checkHeight(std::move(value))))
        return false;
    }
  } else if (consumeIf(TokenKind::LBracket)) {
    param.dims.emplace();
    if (!consumeIf(TokenKind::RBracket)) {
      do {
        ast::ParamDim dim;
        dim.loc = token.getLoc();
        if (token.is(TokenKind::Identifier)) {
          dim.name = token.spelling.str();
          consume();
        } else if (token.is(TokenKind::IntLiteral)) {
          ExprPtr literal = parseNumber();
          dim.value = literal->intValue;
        } else {
          errorExpected("a dimension name or size");
          return false;
        }
        param.dims->push_back(std::move(dim));
      } while (consumeIf(TokenKind::Comma));
      if (!expect(TokenKind::RBracket, "',' or ']' after a dimension"))
        return false;
    }
  }
  // Calls leave out a tail of defaulted parameters, never one in the middle.
  if (!param.defaultValue && !function.params.empty() &&
      function.params.back().defaultValue) {
    diags.error(param.loc, "parameter '" + param.name +
                               "' needs a default: it follows a parameter "
                               "with one");
    return false;
  }
  function.params.push_back(std::move(param));
  return true;
}

bool Parser::parseResults(ast::Function &function) {
  if (!expect(TokenKind::LParen, "'(' before the results"))
    return false;
  do {
    if (!token.is(TokenKind::Identifier)) {
      errorExpected("a result name");
      return false;
    }
    function.results.push_back({token.spelling.str(), token.getLoc()});
    consume();
  } while (consumeIf(TokenKind::Comma));
  return expect(TokenKind::RParen, "',' or ')' after a result");
}

bool Parser::parseBody(ast::Function &function) {
  if (!expect(TokenKind::LBrace, "'{' before the function body"))
    return false;
  while (!token.is(TokenKind::RBrace)) {
    if (token.is(TokenKind::Eof) || token.is(TokenKind::KwFunction)) {
      errorExpected("'}' at the end of the function body");
      return false;
    }
    if (!parseStatement(function))
      skipToStatementEnd();
  }
  consume(); // '}'
  return true;
}

bool Parser::parseCallStatement(ast::Statement &statement) {
  ast::CallStmt call;
  consume(); // '('
  do {
    if (!token.is(TokenKind::Identifier)) {
      errorExpected("a name for a result of the call");
      return false;
    }
    call.outputs.push_back({token.spelling.str(), token.getLoc()});
    consume();
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RParen, "',' or ')' after a name") ||
      !expect(TokenKind::Assign, "'=' after the names of the results"))
    return false;
  llvm::SMLoc valueLoc = token.getLoc();
  call.call = parseExpr();
  if (!call.call)
    return false;
  if (call.call->kind != ast::Expr::Kind::Call) {
    diags.error(valueLoc, "expected a call of a function after '(...) ='");
    return false;
  }
  statement.output = call.outputs.front().name;
  statement.loc = call.outputs.front().loc;
  statement.body = std::move(call);
  return true;
}

bool Parser::parseStatement(ast::Function &function) {
  ast::Statement statement;
  if (token.is(TokenKind::LParen)) {
    if (!parseCallStatement(statement))
      return false;
    return finishStatement(function, std::move(statement));
  }
  if (!token.is(TokenKind::Identifier)) {
    errorExpected("a statement");
    return false;
  }
  statement.output = token.spelling.str();
  statement.loc = token.getLoc();
  consume();
  if (token.is(TokenKind::LBracket)) {
    if (!parseContraction(statement))
      return false;
  } else {
    if (!expect(TokenKind::Assign, "'=' or '[' after the statement's name"))
      return false;
    ExprPtr value = parseExpr();
    if (!value)
      return false;
    statement.body = ast::ElementwiseStmt{std::move(value)};
  }
  return finishStatement(function, std::move(statement));
}

bool Parser::finishStatement(ast::Function &function,
                             ast::Statement statement) {
  function.statements.push_back(std::move(statement));
  if (consumeIf(TokenKind::Semicolon))
    return true;
  // Like clang, point just after the statement's last token, not at the
  // next token (often on the next line). When a statement follows, parsing
  // goes on with it; otherwise the rest of this statement is skipped.
  diags.error(previousTokenEnd, "expected ';' after statement");
  return token.is(TokenKind::Identifier) || token.is(TokenKind::LParen) ||
         token.is(TokenKind::RBrace);
}

static std::optional<AggregationKind> getAggregation(TokenKind kind) {
  switch (kind) {
  case TokenKind::Plus:
    return AggregationKind::Sum;
  case TokenKind::Star:
    return AggregationKind::Product;
  case TokenKind::Greater:
    return AggregationKind::Max;
  case TokenKind::Less:
    return AggregationKind::Min;
  case TokenKind::Assign:
    return AggregationKind::Assign;
  default:
    return std::nullopt;
  }
}

bool Parser::parseContraction(ast::Statement &statement) {
  ast::ContractionStmt contraction;
  consume(); // '['
  if (!consumeIf(TokenKind::RBracket)) {
    if (!parseExprList(contraction.outputIndices, TokenKind::Colon,
                       TokenKind::RBracket))
      return false;
    if (!expect(TokenKind::Colon, "':' and the output sizes") ||
        !parseExprList(contraction.outputSizes, TokenKind::RBracket,
                       TokenKind::RBracket) ||
        !expect(TokenKind::RBracket, "']' after the output sizes"))
      return false;
  }
  if (!expect(TokenKind::Assign, "'=' after the contraction's output"))
    return false;
  std::optional<AggregationKind> aggregation = getAggregation(token.kind);
  if (!aggregation) {
    errorExpected("an aggregation ('+', '*', '>', '<' or '=')");
    return false;
  }
  contraction.aggregation = *aggregation;
  consume();
  if (!expect(TokenKind::LParen, "'(' after the aggregation"))
    return false;

  contraction.operands.emplace_back();
  if (!parseTensorAccess(contraction.operands.back()))
    return false;
  contraction.combinationLoc = token.getLoc();
  if (consumeIf(TokenKind::Star))
    contraction.combination = CombinationKind::Mul;
  else if (consumeIf(TokenKind::Plus))
    contraction.combination = CombinationKind::Add;
  else if (consumeIf(TokenKind::EqEq))
    contraction.combination = CombinationKind::Eq;
  if (contraction.combination != CombinationKind::None) {
    contraction.operands.emplace_back();
    if (!parseTensorAccess(contraction.operands.back()))
      return false;
  }
  if (contraction.combination == CombinationKind::Eq &&
      consumeIf(TokenKind::Question)) {
    contraction.combination = CombinationKind::Cond;
    contraction.operands.emplace_back();
    if (!parseTensorAccess(contraction.operands.back()))
      return false;
  }
  if (!expect(TokenKind::RParen, "')' after the contraction's operands"))
    return false;
  if (!parseContractionTail(contraction))
    return false;
  statement.body = std::move(contraction);
  return true;
}

bool Parser::parseContractionTail(ast::ContractionStmt &contraction) {
  while (consumeIf(TokenKind::Comma)) {
    ast::ConstraintClause constraint;
    constraint.loc = token.getLoc();
    constraint.poly = parseBinary(kConstraintOperandPrecedence);
    if (!constraint.poly ||
        !expect(TokenKind::Less, "'<' in the constraint 'poly < bound'"))
      return false;
    constraint.bound = parseBinary(kConstraintOperandPrecedence);
    if (!constraint.bound)
      return false;
    contraction.constraints.push_back(std::move(constraint));
  }
  bool seenNoDefract = false;
  bool seenDefault = false;
  while (true) {
    if (token.is(TokenKind::KwNoDefract) && !seenNoDefract) {
      seenNoDefract = true;
      contraction.noDefract = true;
      consume();
    } else if (token.is(TokenKind::KwDefault) && !seenDefault) {
      seenDefault = true;
      consume();
      if (!token.is(TokenKind::Identifier)) {
        errorExpected("the name of the default tensor");
        return false;
      }
      contraction.defaultTensor = token.spelling.str();
      contraction.defaultLoc = token.getLoc();
      consume();
    } else {
      return true;
    }
  }
}

bool Parser::parseTensorAccess(ast::TensorAccess &access) {
  if (!token.is(TokenKind::Identifier)) {
    errorExpected("a tensor access 'T[...]'");
    return false;
  }
  access.tensor = token.spelling.str();
  access.loc = token.getLoc();
  consume();
  if (!expect(TokenKind::LBracket, "'[' after the tensor's name"))
    return false;
  if (consumeIf(TokenKind::RBracket))
    return true;
  return parseExprList(access.indices, TokenKind::RBracket,
                       TokenKind::RBracket) &&
         expect(TokenKind::RBracket, "',' or ']' after an index");
}

bool Parser::parseExprList(std::vector<ExprPtr> &exprs, TokenKind terminator,
                           TokenKind altTerminator) {
  do {
    if (token.is(terminator) || token.is(altTerminator)) {
      errorExpected("an expression");
      return false;
    }
    ExprPtr expr = parseExpr();
    if (!expr)
      return false;
    exprs.push_back(std::move(expr));
  } while (consumeIf(TokenKind::Comma));
  return true;
}

bool Parser::reportIfTooDeep(const NestingScope &scope) {
  if (!scope.exceeded())
    return false;
  diags.error(token.getLoc(), "expression nests too deeply (more than " +
                                  llvm::Twine(kMaxNesting) + " levels)");
  return true;
}

ExprPtr Parser::checkHeight(ExprPtr expr) {
  if (expr->height <= kMaxExprHeight)
    return expr;
  diags.error(expr->loc, "expression is too complex (more than " +
                             llvm::Twine(kMaxExprHeight) + " levels)");
  return nullptr;
}

ExprPtr Parser::parseExpr() { return parseConditional(); }

ExprPtr Parser::parseConditional() {
  ExprPtr condition = parseBinary(1);
  if (!condition || !token.is(TokenKind::Question))
    return condition;
  NestingScope scope(nesting, kMaxNesting);
  if (reportIfTooDeep(scope))
    return nullptr;
  llvm::SMLoc loc = token.getLoc();
  consume();
  ExprPtr ifTrue = parseExpr();
  if (!ifTrue || !expect(TokenKind::Colon, "':' in 'cond ? a : b'"))
    return nullptr;
  ExprPtr ifFalse = parseConditional();
  if (!ifFalse)
    return nullptr;
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(condition));
  operands.push_back(std::move(ifTrue));
  operands.push_back(std::move(ifFalse));
  return checkHeight(
      makeNode(ast::Expr::Kind::Conditional, loc, std::move(operands)));
}

ExprPtr Parser::parseBinary(unsigned minPrecedence) {
  ExprPtr lhs = parseUnary();
  while (lhs) {
    std::optional<BinaryOp> op = getBinaryOp(token.kind);
    if (!op || ast::getPrecedence(*op) < minPrecedence)
      return lhs;
    llvm::SMLoc loc = token.getLoc();
    consume();
    ExprPtr rhs = parseBinary(ast::getPrecedence(*op) + 1);
    if (!rhs)
      return nullptr;
    std::vector<ExprPtr> operands;
    operands.push_back(std::move(lhs));
    operands.push_back(std::move(rhs));
    lhs = checkHeight(
        makeNode(ast::Expr::Kind::Binary, loc, std::move(operands)));
    if (lhs)
      lhs->binaryOp = *op;
  }
  return nullptr;
}

ExprPtr Parser::parseUnary() {
  std::optional<UnaryOp> op;
  if (token.is(TokenKind::Minus))
    op = UnaryOp::Neg;
  else if (token.is(TokenKind::Bang))
    op = UnaryOp::LogicalNot;
  else if (token.is(TokenKind::Tilde))
    op = UnaryOp::BitNot;
  if (!op)
    return parsePrimary();
  NestingScope scope(nesting, kMaxNesting);
  if (reportIfTooDeep(scope))
    return nullptr;
  llvm::SMLoc loc = token.getLoc();
  consume();
  ExprPtr operand = parseUnary();
  if (!operand)
    return nullptr;
  std::vector<ExprPtr> operands;
  operands.push_back(std::move(operand));
  ExprPtr expr = makeNode(ast::Expr::Kind::Unary, loc, std::move(operands));
  expr->unaryOp = *op;
  return checkHeight(std::move(expr));
}

ExprPtr Parser::parseNumber() {
  auto expr = std::make_unique<ast::Expr>();
  expr->loc = token.getLoc();
  llvm::StringRef spelling = token.spelling;
  if (token.is(TokenKind::IntLiteral)) {
    expr->kind = ast::Expr::Kind::IntLiteral;
    uint64_t value = 0;
    if (spelling.getAsInteger(10, value) || value > uint64_t(INT64_MAX))
      diags.error(expr->loc, "integer literal '" + spelling +
                                 "' is too large (the largest is " +
                                 llvm::Twine(INT64_MAX) + ")");
    else
      expr->intValue = int64_t(value);
  } else {
    expr->kind = ast::Expr::Kind::FloatLiteral;
    llvm::APFloat value(llvm::APFloat::IEEEdouble());
    auto status =
        value.convertFromString(spelling, llvm::APFloat::rmNearestTiesToEven);
    if (!status || (*status & llvm::APFloat::opOverflow)) {
      if (!status)
        llvm::consumeError(status.takeError());
      diags.error(expr->loc, "float literal '" + spelling +
                                 "' is out of the range of f64");
    } else {
      expr->floatValue = value.convertToDouble();
    }
  }
  consume();
  return expr;
}

ExprPtr Parser::parsePrimary() {
  if (token.is(TokenKind::IntLiteral) || token.is(TokenKind::FloatLiteral))
    return parseNumber();

  NestingScope scope(nesting, kMaxNesting);
  if (reportIfTooDeep(scope))
    return nullptr;
  if (consumeIf(TokenKind::LParen)) {
    ExprPtr inner = parseExpr();
    if (!inner || !expect(TokenKind::RParen, "')'"))
      return nullptr;
    return inner;
  }
  if (!token.is(TokenKind::Identifier)) {
    errorExpected("an expression");
    return nullptr;
  }
  std::string name = token.spelling.str();
  llvm::SMLoc loc = token.getLoc();
  consume();

  ast::Expr::Kind kind;
  TokenKind close;
  if (consumeIf(TokenKind::LParen)) {
    kind = ast::Expr::Kind::Call;
    close = TokenKind::RParen;
  } else if (consumeIf(TokenKind::LBracket)) {
    kind = ast::Expr::Kind::Access;
    close = TokenKind::RBracket;
  } else {
    ExprPtr expr = makeNode(ast::Expr::Kind::Name, loc, {});
    expr->name = std::move(name);
    return expr;
  }
  std::vector<ExprPtr> operands;
  if (!consumeIf(close)) {
    if (!parseExprList(operands, close, close) ||
        !expect(close,
                kind == ast::Expr::Kind::Call ? "',' or ')'" : "',' or ']'"))
      return nullptr;
  }
  ExprPtr expr = makeNode(kind, loc, std::move(operands));
  expr->name = std::move(name);
  return checkHeight(std::move(expr));
}
