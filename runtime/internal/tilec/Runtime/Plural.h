//===- Plural.h - "1 input", "2 inputs" -------------------------*- C++ -*-===//
//
// Messages that count things ("takes 1 input", "takes 2 inputs") spell the
// noun in the plural unless the count is 1. The nouns of tilec's messages
// take a plain -s.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_PLURAL_H
#define TILEC_RUNTIME_PLURAL_H

#include <cstdint>
#include <string>

namespace tilec {

/// `count` and `noun`, with an "s" unless `count` is 1: "1 input", "0 inputs".
inline std::string pluralize(uint64_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace tilec

#endif // TILEC_RUNTIME_PLURAL_H
