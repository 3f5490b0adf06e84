//===- TileMutator.cpp - Token-level mutations of Tile source -------------===//
//
// libFuzzer's custom mutator for fuzz-frontend. Byte-level mutations of a
// source mostly produce lexer errors; these keep it made of Tile tokens so
// that inputs reach sema and lowering: half of the mutations replace a token
// by a word of the language (a keyword, a builtin, an operator, an extreme
// number) or by an identifier of the same source, duplicate or delete a
// token; the other half are libFuzzer's own.
//
//===----------------------------------------------------------------------===//

#include <cctype>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

const char *const kVocabulary[] = {
    // Keywords and the structure of a function.
    "function", "import", "default", "no_defract", "->", "(", ")", "[", "]",
    "{", "}", ",", ";", ":", "=", " ",
    // Aggregations, combinations and elementwise operators.
    "+", "*", ">", "<", "==", "?", "-", "/", "%", "!=", "<=", ">=", "&&", "||",
    "!", "&", "|", "^", "~", "<<", ">>",
    // Builtins and casts.
    "exp", "log", "sqrt", "rsqrt", "pow", "sin", "cos", "tan", "sinh", "cosh",
    "tanh", "asin", "acos", "atan", "atan2", "erf", "floor", "ceil", "round",
    "abs", "sign", "min", "max", "relu", "sigmoid", "select", "as_float",
    "as_int", "as_uint", "as_bool", "as_bf16", "index", "reshape", "shape",
    // Names and numbers, the extreme ones included.
    "i", "j", "k", "N", "M", "K", "A", "B", "C", "0", "1", "2", "3", "16", "64",
    "0.5", "1e30", "-1", "65536", "2147483648", "4294967296",
    "9223372036854775807", "18446744073709551616", "1e400", "0.0"};

bool isIdentifierStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// Splits `text` into tokens, close to Tile's lexer: identifiers, numbers,
/// `//` comments, runs of white space, two-character operators, and any
/// other byte alone. Concatenated, the tokens are `text`.
std::vector<std::string> tokenize(const std::string &text) {
  static const char *const pairs[] = {
      "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>"};
  std::vector<std::string> tokens;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = at + 1;
    char c = text[at];
    if (isIdentifierStart(c)) {
      while (end < text.size() && isIdentifierChar(text[end]))
        ++end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (end < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[end])) ||
              text[end] == '.'))
        ++end;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      while (end < text.size() &&
             std::isspace(static_cast<unsigned char>(text[end])))
        ++end;
    } else if (text.compare(at, 2, "//") == 0) {
      end = text.find('\n', at);
      end = end == std::string::npos ? text.size() : end;
    } else {
      for (const char *pair : pairs)
        if (text.compare(at, 2, pair) == 0)
          end = at + 2;
    }
    tokens.push_back(text.substr(at, end - at));
    at = end;
  }
  return tokens;
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::minstd_rand random(seed);
  std::vector<std::string> tokens =
      tokenize(std::string(reinterpret_cast<char *>(data), size));
  if (random() % 2 == 0 || tokens.empty())
    return LLVMFuzzerMutate(data, size, maxSize);

  size_t at = random() % tokens.size();
  switch (random() % 4) {
  case 0: // A word of the language in place of a token.
    tokens[at] = kVocabulary[random() % std::size(kVocabulary)];
    break;
  case 1: { // Another identifier of the source in place of an identifier.
    std::vector<size_t> identifiers;
    for (size_t i = 0; i < tokens.size(); ++i)
      if (isIdentifierStart(tokens[i][0]))
        identifiers.push_back(i);
    if (identifiers.empty())
      return LLVMFuzzerMutate(data, size, maxSize);
    tokens[identifiers[random() % identifiers.size()]] =
        tokens[identifiers[random() % identifiers.size()]];
    break;
  }
  case 2: // A token repeated somewhere else.
    tokens.insert(tokens.begin() + random() % tokens.size(), tokens[at]);
    break;
  default:
    tokens.erase(tokens.begin() + at);
    break;
  }
  std::string mutated;
  for (const std::string &token : tokens)
    mutated += token;
  if (mutated.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, mutated.data(), mutated.size());
  return mutated.size();
}
