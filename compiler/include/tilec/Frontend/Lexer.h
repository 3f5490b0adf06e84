//===- Lexer.h - Tokenizer of Tile source -----------------------*- C++ -*-===//
//
// Splits one SourceMgr buffer into tokens. Comments (`//`, `#`, `/* */`) and
// whitespace are skipped. Bytes that start no token (including NUL bytes
// inside the buffer) are reported and returned as TokenKind::Error, so the
// lexer always makes progress and always reaches Eof.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_LEXER_H
#define TILEC_FRONTEND_LEXER_H

#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Token.h"

namespace tilec {

class Lexer {
public:
  Lexer(Diagnostics &diags, unsigned bufferId);

  /// Returns the next token; Eof forever at the end of the buffer.
  Token lex();

  /// The location of the start of the buffer.
  llvm::SMLoc getBufferStart() const {
    return llvm::SMLoc::getFromPointer(bufferStart);
  }

private:
  Token makeToken(TokenKind kind, const char *start) const;
  /// Skips whitespace and comments.
  void skipTrivia();
  Token lexIdentifier(const char *start);
  Token lexNumber(const char *start);
  Token lexString(const char *start);

  Diagnostics &diags;
  const char *bufferStart;
  const char *bufferEnd;
  const char *cursor;
};

} // namespace tilec

#endif // TILEC_FRONTEND_LEXER_H
