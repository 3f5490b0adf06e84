//===- SPIRVWords.cpp - A SPIR-V binary as base64 text --------------------===//

#include "SPIRVWords.h"

#include <cstdio>

namespace tilec {

static constexpr char kAlphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 digit, or -1.
static int digitValue(char c) {
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+')
    return 62;
  if (c == '/')
    return 63;
  return -1;
}

std::string encodeSPIRVWords(const std::vector<uint32_t> &words) {
  // Byte i of the binary, each word's least significant byte first. Written
  // straight into the text, three bytes to four digits: a kernel's words
  // are tens of kilobytes, and appending a digit at a time through a vector
  // of the bytes cost 1.6% of a convolution's compile.
  auto byte = [&](size_t i) -> uint32_t {
    return words[i / 4] >> (8 * (i % 4)) & 0xff;
  };
  size_t size = words.size() * 4;
  std::string text((size + 2) / 3 * 4, '=');
  char *digit = text.data();
  for (size_t i = 0; i < size; i += 3) {
    size_t count = std::min<size_t>(3, size - i);
    uint32_t group = byte(i) << 16;
    if (count > 1)
      group |= byte(i + 1) << 8;
    if (count > 2)
      group |= byte(i + 2);
    for (size_t place = 0; place <= count; ++place)
      *digit++ = kAlphabet[group >> (18 - 6 * place) & 63];
    digit += 3 - count;
  }
  return text;
}

std::optional<std::vector<uint32_t>> decodeSPIRVWords(const std::string &text,
                                                      std::string &error) {
  if (text.size() % 4 != 0) {
    error = "not base64: its length, " + std::to_string(text.size()) +
            ", is not a multiple of 4";
    return std::nullopt;
  }
  std::vector<uint8_t> bytes;
  bytes.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    // Padding: at most two '=', only at the very end.
    size_t padding = 0;
    if (last && text[i + 3] == '=')
      padding = text[i + 2] == '=' ? 2 : 1;
    uint32_t group = 0;
    for (size_t digit = 0; digit < 4; ++digit) {
      int value = digit < 4 - padding ? digitValue(text[i + digit]) : 0;
      if (value < 0) {
        error = "not base64: the character '" +
                std::string(1, text[i + digit]) + "' at offset " +
                std::to_string(i + digit);
        return std::nullopt;
      }
      group = group << 6 | static_cast<uint32_t>(value);
    }
    for (size_t byte = 0; byte < 3 - padding; ++byte)
      bytes.push_back(static_cast<uint8_t>(group >> (16 - 8 * byte)));
  }
  if (bytes.size() % 4 != 0) {
    error = std::to_string(bytes.size()) +
            " bytes are not a whole number of 32-bit words";
    return std::nullopt;
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    for (unsigned byte = 0; byte < 4; ++byte)
      words[i] |= static_cast<uint32_t>(bytes[4 * i + byte]) << (8 * byte);
  if (!words.empty() && words[0] != kSPIRVMagicNumber) {
    char magic[16];
    std::snprintf(magic, sizeof(magic), "0x%08x", words[0]);
    error = std::string("not a SPIR-V module: its first word is ") + magic +
            ", not the magic number 0x07230203";
    return std::nullopt;
  }
  return words;
}

} // namespace tilec
