//===- LexerTest.cpp - Tests of the Tile lexer ----------------------------===//

#include "tilec/Frontend/Lexer.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace tilec;

namespace {

class LexerTest : public ::testing::Test {
protected:
  LexerTest() {
    sourceMgr.setDiagHandler(
        [](const llvm::SMDiagnostic &diag, void *context) {
          llvm::raw_string_ostream os(*static_cast<std::string *>(context));
          diag.print(nullptr, os, /*ShowColors=*/false);
        },
        &diagnostics);
  }

  /// Every token of `source` up to (not including) Eof.
  std::vector<Token> lexAll(llvm::StringRef source) {
    unsigned bufferId = sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"),
        llvm::SMLoc());
    Lexer lexer(diags, bufferId);
    std::vector<Token> tokens;
    for (Token token = lexer.lex(); !token.is(TokenKind::Eof);
         token = lexer.lex())
      tokens.push_back(token);
    return tokens;
  }

  std::pair<unsigned, unsigned> lineAndColumn(const Token &token) {
    return sourceMgr.getLineAndColumn(token.getLoc());
  }

  llvm::SourceMgr sourceMgr;
  Diagnostics diags{sourceMgr};
  std::string diagnostics;
};

TEST_F(LexerTest, KindsAndSpellings) {
  std::vector<Token> tokens =
      lexAll("function f (A[M]) -> (B) { B = A'; } default no_defract x_1");
  std::vector<TokenKind> kinds;
  for (const Token &token : tokens)
    kinds.push_back(token.kind);
  std::vector<TokenKind> expected = {
      TokenKind::KwFunction, TokenKind::Identifier,  TokenKind::LParen,
      TokenKind::Identifier, TokenKind::LBracket,    TokenKind::Identifier,
      TokenKind::RBracket,   TokenKind::RParen,      TokenKind::Arrow,
      TokenKind::LParen,     TokenKind::Identifier,  TokenKind::RParen,
      TokenKind::LBrace,     TokenKind::Identifier,  TokenKind::Assign,
      TokenKind::Identifier, TokenKind::Semicolon,   TokenKind::RBrace,
      TokenKind::KwDefault,  TokenKind::KwNoDefract, TokenKind::Identifier};
  EXPECT_EQ(kinds, expected);
  EXPECT_EQ(tokens[15].spelling, "A'");
  EXPECT_EQ(tokens[20].spelling, "x_1");
  EXPECT_EQ(diagnostics, "");
}

TEST_F(LexerTest, Operators) {
  std::vector<Token> tokens =
      lexAll("+ - * / % == != < > <= >= && || ! & | ^ ~ << >> = ? : , ->");
  std::vector<TokenKind> expected = {
      TokenKind::Plus,     TokenKind::Minus,     TokenKind::Star,
      TokenKind::Slash,    TokenKind::Percent,   TokenKind::EqEq,
      TokenKind::NotEq,    TokenKind::Less,      TokenKind::Greater,
      TokenKind::LessEq,   TokenKind::GreaterEq, TokenKind::AmpAmp,
      TokenKind::PipePipe, TokenKind::Bang,      TokenKind::Amp,
      TokenKind::Pipe,     TokenKind::Caret,     TokenKind::Tilde,
      TokenKind::Shl,      TokenKind::Shr,       TokenKind::Assign,
      TokenKind::Question, TokenKind::Colon,     TokenKind::Comma,
      TokenKind::Arrow};
  ASSERT_EQ(tokens.size(), expected.size());
  for (size_t i = 0; i < tokens.size(); ++i)
    EXPECT_EQ(tokens[i].kind, expected[i]) << i;
}

TEST_F(LexerTest, Numbers) {
  std::vector<Token> tokens = lexAll("123 1.5 2e-3 .5 1. 7E+2 3e");
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_EQ(tokens[0].kind, TokenKind::IntLiteral);
  for (int i = 1; i <= 5; ++i)
    EXPECT_EQ(tokens[i].kind, TokenKind::FloatLiteral)
        << tokens[i].spelling.str();
  EXPECT_EQ(tokens[4].spelling, "1.");
  EXPECT_EQ(tokens[5].spelling, "7E+2");
  // `3e` is no exponent: the suffix is an error.
  EXPECT_EQ(tokens[6].kind, TokenKind::Error);
  EXPECT_NE(diagnostics.find("test.tile:1:25: error: invalid number '3e' "
                             "(literals take no suffix)"),
            std::string::npos)
      << diagnostics;
}

TEST_F(LexerTest, CommentsAndLocations) {
  std::vector<Token> tokens = lexAll("// line comment\n"
                                     "# hash comment\n"
                                     "A /* block\n comment */ B\n"
                                     "  C");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(lineAndColumn(tokens[0]), std::make_pair(3u, 1u));
  EXPECT_EQ(lineAndColumn(tokens[1]), std::make_pair(4u, 13u));
  EXPECT_EQ(lineAndColumn(tokens[2]), std::make_pair(5u, 3u));
  EXPECT_EQ(diagnostics, "");
}

TEST_F(LexerTest, UnterminatedBlockComment) {
  std::vector<Token> tokens = lexAll("A /* never closed");
  EXPECT_EQ(tokens.size(), 1u);
  EXPECT_NE(diagnostics.find("test.tile:1:3: error: unterminated '/*' comment"),
            std::string::npos)
      << diagnostics;
}

TEST_F(LexerTest, StringLiterals) {
  std::vector<Token> tokens = lexAll("import \"a b/c.tile\"; \"open\nX");
  std::vector<TokenKind> kinds;
  for (const Token &token : tokens)
    kinds.push_back(token.kind);
  // `import` is an identifier: the parser gives it its meaning.
  std::vector<TokenKind> expected = {
      TokenKind::Identifier, TokenKind::StringLiteral, TokenKind::Semicolon,
      TokenKind::Error, TokenKind::Identifier};
  EXPECT_EQ(kinds, expected);
  EXPECT_EQ(tokens[1].spelling, "\"a b/c.tile\"");
  // A string ends at the end of its line.
  EXPECT_NE(diagnostics.find("test.tile:1:22: error: unterminated string "
                             "literal"),
            std::string::npos)
      << diagnostics;
}

TEST_F(LexerTest, StrayBytes) {
  std::string source = "A @ B";
  source += '\0';
  source += "\x01\x02 C $";
  std::vector<Token> tokens = lexAll(source);
  std::vector<TokenKind> kinds;
  for (const Token &token : tokens)
    kinds.push_back(token.kind);
  std::vector<TokenKind> expected = {TokenKind::Identifier, TokenKind::Error,
                                     TokenKind::Identifier, TokenKind::Error,
                                     TokenKind::Identifier, TokenKind::Error};
  EXPECT_EQ(kinds, expected);
  EXPECT_NE(diagnostics.find("1:3: error: unexpected '@' in source"),
            std::string::npos);
  // A run of unprintable bytes is one error.
  EXPECT_NE(diagnostics.find("1:6: error: unexpected byte 0x00 in source"),
            std::string::npos)
      << diagnostics;
  EXPECT_EQ(diagnostics.find("byte 0x01"), std::string::npos);
  EXPECT_NE(diagnostics.find("1:12: error: unexpected '$' in source"),
            std::string::npos);
}

} // namespace
