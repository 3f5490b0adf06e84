//===- SPIRVWords.h - A SPIR-V binary as base64 text ------------*- C++ -*-===//
//
// Internal to the runtime: how a bundle file carries its SPIR-V module, as
// the base64 (RFC 4648, with padding) of the words' little-endian bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LIB_SPIRVWORDS_H
#define TILEC_RUNTIME_LIB_SPIRVWORDS_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// The first word of every SPIR-V module.
inline constexpr uint32_t kSPIRVMagicNumber = 0x07230203;

/// The base64 of `words`' little-endian bytes ("" for no words).
std::string encodeSPIRVWords(const std::vector<uint32_t> &words);

/// The words of `text`, or nullopt with `error` set: text that is not
/// base64, bytes that are not whole words, or a first word that is not the
/// SPIR-V magic number. "" is no words.
std::optional<std::vector<uint32_t>> decodeSPIRVWords(const std::string &text,
                                                      std::string &error);

} // namespace tilec

#endif // TILEC_RUNTIME_LIB_SPIRVWORDS_H
