//===- Parser.h - Recursive-descent parser of Tile source -------*- C++ -*-===//
//
// Builds the AST of one buffer. Errors are reported through Diagnostics and
// the parser recovers at the next `;` or `}` (inside a body) or the next
// `function` (elsewhere), so independent errors are reported in one run.
// Nesting depth and expression height are bounded, so hostile input (deep
// parentheses, very long operator chains) ends in an error, not a crash.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_PARSER_H
#define TILEC_FRONTEND_PARSER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Lexer.h"

#include <memory>

namespace tilec {

/// Counts one level of expression nesting for as long as it lives.
class NestingScope {
public:
  NestingScope(unsigned &nesting, unsigned limit)
      : nesting(nesting), limit(limit) {
    ++nesting;
  }
  ~NestingScope() { --nesting; }
  bool exceeded() const { return nesting > limit; }

private:
  unsigned &nesting;
  unsigned limit;
};

class Parser {
public:
  /// Parentheses, brackets, calls and unary operators nest at most this deep.
  static constexpr unsigned kMaxNesting = 256;
  /// No expression tree is taller than this.
  static constexpr unsigned kMaxExprHeight = 1024;

  Parser(Diagnostics &diags, unsigned bufferId);

  /// Parses the whole buffer. The module is returned even after errors
  /// (holding what parsed); callers check Diagnostics::getErrorCount().
  std::unique_ptr<ast::Module> parseModule();

private:
  void consume();
  bool consumeIf(TokenKind kind);
  /// Consumes a token of `kind`, or reports "expected <what>" and fails.
  bool expect(TokenKind kind, llvm::StringRef what);
  void errorExpected(llvm::StringRef what);
  /// Skips to the next `;` (consumed), `}` or `function` (not consumed).
  void skipToStatementEnd();
  /// Skips to the next `function` keyword or the end.
  void skipToFunction();

  /// `import "path";`, after the `import` name.
  bool parseImport(ast::Module &module);
  std::unique_ptr<ast::Function> parseFunction();
  bool parseParam(ast::Function &function);
  bool parseResults(ast::Function &function);
  bool parseBody(ast::Function &function);
  bool parseStatement(ast::Function &function);
  /// `(A, B, ...) = f(...)`.
  bool parseCallStatement(ast::Statement &statement);
  /// Adds `statement` to `function` and expects its `;`.
  bool finishStatement(ast::Function &function, ast::Statement statement);
  bool parseContraction(ast::Statement &statement);
  bool parseContractionTail(ast::ContractionStmt &contraction);
  bool parseTensorAccess(ast::TensorAccess &access);
  /// `expr (',' expr)*` up to (not including) one of the two terminators.
  bool parseExprList(std::vector<ast::ExprPtr> &exprs, TokenKind terminator,
                     TokenKind altTerminator);

  ast::ExprPtr parseExpr();
  ast::ExprPtr parseConditional();
  ast::ExprPtr parseBinary(unsigned minPrecedence);
  ast::ExprPtr parseUnary();
  ast::ExprPtr parsePrimary();
  ast::ExprPtr parseNumber();
  /// Reports an error when `scope` is deeper than kMaxNesting.
  bool reportIfTooDeep(const NestingScope &scope);
  /// Fails (after reporting) when `expr` is taller than kMaxExprHeight.
  ast::ExprPtr checkHeight(ast::ExprPtr expr);

  Diagnostics &diags;
  Lexer lexer;
  Token token;
  /// Just after the last token consumed: where a missing ';' belongs.
  llvm::SMLoc previousTokenEnd;
  unsigned nesting = 0;
};

} // namespace tilec

#endif // TILEC_FRONTEND_PARSER_H
