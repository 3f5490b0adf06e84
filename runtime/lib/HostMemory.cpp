//===- HostMemory.cpp - How much memory the host can give -----------------===//

#include "tilec/Runtime/HostMemory.h"

#include "CheckedArithmetic.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>

#include <sys/resource.h>
#include <unistd.h>

using namespace tilec;

/// The bytes the process may still map under its limits (`ulimit -v`, whose
/// RLIMIT_AS counts every mapping, and `ulimit -d`, whose RLIMIT_DATA counts
/// the heap and private mappings, which is where large allocations go), or
/// no limit.
static uint64_t getProcessLimit() {
  uint64_t limit = std::numeric_limits<uint64_t>::max();
  // /proc/self/statm: sizes in pages, the whole mapping first and the data
  // (with the stack) sixth.
  uint64_t mappedPages = 0, dataPages = 0;
  if (std::FILE *statm = std::fopen("/proc/self/statm", "r")) {
    uint64_t unused;
    if (std::fscanf(statm,
                    "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                    " %" SCNu64,
                    &mappedPages, &unused, &unused, &unused, &unused,
                    &dataPages) != 6)
      mappedPages = dataPages = 0;
    std::fclose(statm);
  }
  long pageSize = ::sysconf(_SC_PAGESIZE);
  auto apply = [&](int resource, uint64_t usedPages) {
    struct rlimit rl;
    if (::getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
      return;
    uint64_t used = 0;
    if (pageSize > 0 && !checkedMultiply(usedPages, uint64_t(pageSize), used))
      used = std::numeric_limits<uint64_t>::max();
    uint64_t cap = uint64_t(rl.rlim_cur);
    limit = std::min(limit, cap > used ? cap - used : 0);
  };
  apply(RLIMIT_AS, mappedPages);
  apply(RLIMIT_DATA, dataPages);
  return limit;
}

/// MemAvailable from /proc/meminfo, else the free physical pages, else no
/// limit.
static uint64_t getHostAvailable() {
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

uint64_t tilec::availableHostMemory() {
  return std::min(getHostAvailable(), getProcessLimit());
}
