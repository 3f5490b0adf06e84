//===- Token.h - Tokens of the Tile language --------------------*- C++ -*-===//
//
// The lexical units of Tile source (docs/language.md, section 1). A token
// refers to its spelling inside the SourceMgr's buffer, so it is cheap to copy
// and its location is the address of its first character.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_TOKEN_H
#define TILEC_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace tilec {

enum class TokenKind {
  Eof,
  /// A stray byte; the lexer has reported it already.
  Error,
  Identifier,
  IntLiteral,
  FloatLiteral,
  /// `"..."`, only in imports; the spelling includes the quotes.
  StringLiteral,
  // Keywords.
  KwFunction,
  KwDefault,
  KwNoDefract,
  // Punctuation.
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Semicolon,
  Colon,
  Question,
  Arrow,
  Assign,
  // Operators.
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  EqEq,
  NotEq,
  Less,
  Greater,
  LessEq,
  GreaterEq,
  AmpAmp,
  PipePipe,
  Bang,
  Amp,
  Pipe,
  Caret,
  Tilde,
  Shl,
  Shr,
};

struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef spelling;

  bool is(TokenKind other) const { return kind == other; }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
};

/// How a token is written in source, for diagnostics ("';'", "identifier").
const char *describeTokenKind(TokenKind kind);

} // namespace tilec

#endif // TILEC_FRONTEND_TOKEN_H
