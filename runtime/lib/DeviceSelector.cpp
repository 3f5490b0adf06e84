//===- DeviceSelector.cpp - What `--device SEL` matches -------------------===//

#include "DeviceSelector.h"

#include <algorithm>
#include <cctype>

using namespace tilec;

static bool isIndexSelector(std::string_view selector) {
  return std::all_of(selector.begin(), selector.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

static std::string lowercase(std::string_view text) {
  std::string lower(text);
  for (char &c : lower)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::optional<size_t>
tilec::matchDeviceSelector(const std::vector<std::string> &names,
                           std::string_view selector) {
  if (isIndexSelector(selector)) {
    // Longer than any index of a real machine, and short enough for stoull.
    if (selector.size() < 6) {
      size_t index = std::stoull(std::string(selector));
      if (index < names.size())
        return index;
    }
    return std::nullopt;
  }
  std::string needle = lowercase(selector);
  for (size_t i = 0; i < names.size(); ++i)
    if (lowercase(names[i]).find(needle) != std::string::npos)
      return i;
  return std::nullopt;
}

std::string tilec::describeUnmatchedSelector(std::string_view api,
                                             std::string_view selector,
                                             const std::string &listing) {
  return "no " + std::string(api) + " device " +
         (isIndexSelector(selector) ? "has index '" : "name contains '") +
         std::string(selector) + "'; the devices are:" + listing;
}
