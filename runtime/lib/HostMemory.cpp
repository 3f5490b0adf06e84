//===- HostMemory.cpp - How much memory the host can give -----------------===//

#include "tilec/Runtime/HostMemory.h"

#include "CheckedArithmetic.h"

#include <cinttypes>
#include <cstdio>
#include <limits>

#include <unistd.h>

using namespace tilec;

uint64_t tilec::availableHostMemory() {
  if (std::FILE *meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    uint64_t kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, meminfo))
      found = std::sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1;
    std::fclose(meminfo);
    uint64_t bytes;
    if (found && checkedMultiply(kib, 1024, bytes))
      return bytes;
  }
  long pages = ::sysconf(_SC_AVPHYS_PAGES), pageSize = ::sysconf(_SC_PAGESIZE);
  uint64_t bytes;
  if (pages > 0 && pageSize > 0 &&
      checkedMultiply(uint64_t(pages), uint64_t(pageSize), bytes))
    return bytes;
  return std::numeric_limits<uint64_t>::max();
}
