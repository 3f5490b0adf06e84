//===- HostMemory.cpp - The memory the reference may allocate -------------===//

#include "HostMemory.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace tilec;
using namespace tilec::interp;

std::optional<uint64_t> interp::getAvailableHostMemory() {
  // MemAvailable counts the page cache the kernel would reclaim, which
  // the free physical pages do not.
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key, unit;
    uint64_t kibibytes = 0;
    if (fields >> key >> kibibytes >> unit && key == "MemAvailable:" &&
        unit == "kB" && kibibytes <= UINT64_MAX / 1024)
      return kibibytes * 1024;
  }
  long pages = sysconf(_SC_AVPHYS_PAGES);
  long pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0 ||
      uint64_t(pages) > UINT64_MAX / uint64_t(pageSize))
    return std::nullopt;
  return uint64_t(pages) * uint64_t(pageSize);
}

std::optional<std::string> interp::checkHostMemory(uint64_t bytes) {
  std::optional<uint64_t> available = getAvailableHostMemory();
  if (!available || bytes <= *available)
    return std::nullopt;
  return "needs " + std::to_string(bytes) + " bytes, more than the " +
         std::to_string(*available) + " bytes of memory available on this host";
}
