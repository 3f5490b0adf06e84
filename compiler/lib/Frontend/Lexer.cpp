//===- Lexer.cpp - Tokenizer of Tile source -------------------------------===//

#include "tilec/Frontend/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;

const char *tilec::describeTokenKind(TokenKind kind) {
  switch (kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Error:
    return "invalid character";
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::IntLiteral:
    return "integer literal";
  case TokenKind::FloatLiteral:
    return "float literal";
  case TokenKind::StringLiteral:
    return "string literal";
  case TokenKind::KwFunction:
    return "'function'";
  case TokenKind::KwDefault:
    return "'default'";
  case TokenKind::KwNoDefract:
    return "'no_defract'";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Semicolon:
    return "';'";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Question:
    return "'?'";
  case TokenKind::Arrow:
    return "'->'";
  case TokenKind::Assign:
    return "'='";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  case TokenKind::Percent:
    return "'%'";
  case TokenKind::EqEq:
    return "'=='";
  case TokenKind::NotEq:
    return "'!='";
  case TokenKind::Less:
    return "'<'";
  case TokenKind::Greater:
    return "'>'";
  case TokenKind::LessEq:
    return "'<='";
  case TokenKind::GreaterEq:
    return "'>='";
  case TokenKind::AmpAmp:
    return "'&&'";
  case TokenKind::PipePipe:
    return "'||'";
  case TokenKind::Bang:
    return "'!'";
  case TokenKind::Amp:
    return "'&'";
  case TokenKind::Pipe:
    return "'|'";
  case TokenKind::Caret:
    return "'^'";
  case TokenKind::Tilde:
    return "'~'";
  case TokenKind::Shl:
    return "'<<'";
  case TokenKind::Shr:
    return "'>>'";
  }
  return "token";
}

Lexer::Lexer(Diagnostics &diags, unsigned bufferId) : diags(diags) {
  const llvm::MemoryBuffer *buffer =
      diags.getSourceMgr().getMemoryBuffer(bufferId);
  bufferStart = buffer->getBufferStart();
  bufferEnd = buffer->getBufferEnd();
  cursor = bufferStart;
}

Token Lexer::makeToken(TokenKind kind, const char *start) const {
  return Token{kind, llvm::StringRef(start, cursor - start)};
}

static bool isIdentifierStart(char c) { return llvm::isAlpha(c) || c == '_'; }

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

void Lexer::skipTrivia() {
  while (cursor != bufferEnd) {
    char c = *cursor;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++cursor;
    } else if (c == '#' ||
               (c == '/' && cursor + 1 != bufferEnd && cursor[1] == '/')) {
      while (cursor != bufferEnd && *cursor != '\n')
        ++cursor;
    } else if (c == '/' && cursor + 1 != bufferEnd && cursor[1] == '*') {
      const char *start = cursor;
      cursor += 2;
      while (cursor != bufferEnd &&
             !(*cursor == '*' && cursor + 1 != bufferEnd && cursor[1] == '/'))
        ++cursor;
      if (cursor == bufferEnd) {
        diags.error(llvm::SMLoc::getFromPointer(start),
                    "unterminated '/*' comment");
        return;
      }
      cursor += 2;
    } else {
      return;
    }
  }
}

Token Lexer::lexIdentifier(const char *start) {
  while (cursor != bufferEnd && isIdentifierChar(*cursor))
    ++cursor;
  if (cursor != bufferEnd && *cursor == '\'')
    ++cursor;
  Token token = makeToken(TokenKind::Identifier, start);
  token.kind = llvm::StringSwitch<TokenKind>(token.spelling)
                   .Case("function", TokenKind::KwFunction)
                   .Case("default", TokenKind::KwDefault)
                   .Case("no_defract", TokenKind::KwNoDefract)
                   .Default(TokenKind::Identifier);
  return token;
}

/// `"..."` on one line, without escapes.
Token Lexer::lexString(const char *start) {
  while (cursor != bufferEnd && *cursor != '"' && *cursor != '\n' &&
         *cursor != '\r')
    ++cursor;
  if (cursor == bufferEnd || *cursor != '"') {
    diags.error(llvm::SMLoc::getFromPointer(start),
                "unterminated string literal");
    return makeToken(TokenKind::Error, start);
  }
  ++cursor;
  return makeToken(TokenKind::StringLiteral, start);
}

/// Integers `123`; floats `1.5`, `2e-3`, `.5`, `1.`. The value is computed by
/// the parser, which reports literals out of range.
Token Lexer::lexNumber(const char *start) {
  bool isFloat = *start == '.';
  while (cursor != bufferEnd && llvm::isDigit(*cursor))
    ++cursor;
  if (cursor != bufferEnd && *cursor == '.') {
    isFloat = true;
    ++cursor;
    while (cursor != bufferEnd && llvm::isDigit(*cursor))
      ++cursor;
  }
  if (cursor != bufferEnd && (*cursor == 'e' || *cursor == 'E')) {
    const char *exponent = cursor + 1;
    if (exponent != bufferEnd && (*exponent == '+' || *exponent == '-'))
      ++exponent;
    if (exponent != bufferEnd && llvm::isDigit(*exponent)) {
      isFloat = true;
      cursor = exponent;
      while (cursor != bufferEnd && llvm::isDigit(*cursor))
        ++cursor;
    }
  }
  if (cursor != bufferEnd && isIdentifierStart(*cursor)) {
    while (cursor != bufferEnd && isIdentifierChar(*cursor))
      ++cursor;
    diags.error(llvm::SMLoc::getFromPointer(start),
                "invalid number '" + llvm::StringRef(start, cursor - start) +
                    "' (literals take no suffix)");
    return makeToken(TokenKind::Error, start);
  }
  return makeToken(isFloat ? TokenKind::FloatLiteral : TokenKind::IntLiteral,
                   start);
}

Token Lexer::lex() {
  skipTrivia();
  const char *start = cursor;
  if (cursor == bufferEnd)
    return makeToken(TokenKind::Eof, start);
  char c = *cursor++;
  if (isIdentifierStart(c))
    return lexIdentifier(start);
  if (llvm::isDigit(c) ||
      (c == '.' && cursor != bufferEnd && llvm::isDigit(*cursor)))
    return lexNumber(start);

  if (c == '"')
    return lexString(start);

  // Two-character operators first.
  char next = cursor != bufferEnd ? *cursor : '\0';
  auto two = [&](TokenKind kind) {
    ++cursor;
    return makeToken(kind, start);
  };
  switch (c) {
  case '-':
    return next == '>' ? two(TokenKind::Arrow)
                       : makeToken(TokenKind::Minus, start);
  case '=':
    return next == '=' ? two(TokenKind::EqEq)
                       : makeToken(TokenKind::Assign, start);
  case '!':
    return next == '=' ? two(TokenKind::NotEq)
                       : makeToken(TokenKind::Bang, start);
  case '<':
    if (next == '=')
      return two(TokenKind::LessEq);
    return next == '<' ? two(TokenKind::Shl)
                       : makeToken(TokenKind::Less, start);
  case '>':
    if (next == '=')
      return two(TokenKind::GreaterEq);
    return next == '>' ? two(TokenKind::Shr)
                       : makeToken(TokenKind::Greater, start);
  case '&':
    return next == '&' ? two(TokenKind::AmpAmp)
                       : makeToken(TokenKind::Amp, start);
  case '|':
    return next == '|' ? two(TokenKind::PipePipe)
                       : makeToken(TokenKind::Pipe, start);
  case '(':
    return makeToken(TokenKind::LParen, start);
  case ')':
    return makeToken(TokenKind::RParen, start);
  case '[':
    return makeToken(TokenKind::LBracket, start);
  case ']':
    return makeToken(TokenKind::RBracket, start);
  case '{':
    return makeToken(TokenKind::LBrace, start);
  case '}':
    return makeToken(TokenKind::RBrace, start);
  case ',':
    return makeToken(TokenKind::Comma, start);
  case ';':
    return makeToken(TokenKind::Semicolon, start);
  case ':':
    return makeToken(TokenKind::Colon, start);
  case '?':
    return makeToken(TokenKind::Question, start);
  case '+':
    return makeToken(TokenKind::Plus, start);
  case '*':
    return makeToken(TokenKind::Star, start);
  case '/':
    return makeToken(TokenKind::Slash, start);
  case '%':
    return makeToken(TokenKind::Percent, start);
  case '^':
    return makeToken(TokenKind::Caret, start);
  case '~':
    return makeToken(TokenKind::Tilde, start);
  default:
    break;
  }

  std::string description;
  llvm::raw_string_ostream os(description);
  if (llvm::isPrint(c))
    os << "'" << c << "'";
  else
    os << "byte 0x" << llvm::format_hex_no_prefix((unsigned char)c, 2);
  diags.error(llvm::SMLoc::getFromPointer(start),
              "unexpected " + description + " in source");
  // One error for a run of unprintable bytes (a binary file gives one error,
  // not one per byte).
  if (!llvm::isPrint(c))
    while (cursor != bufferEnd && !llvm::isPrint(*cursor) &&
           !llvm::isSpace(*cursor))
      ++cursor;
  return makeToken(TokenKind::Error, start);
}
