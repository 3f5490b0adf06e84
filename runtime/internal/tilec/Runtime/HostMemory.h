//===- HostMemory.h - How much memory the host can give ---------*- C++ -*-===//
//
// Sizes come from command lines and files, so a tensor may be representable
// yet far larger than the host: allocating it would end the process (the
// kernel's OOM killer, std::bad_alloc, or LLVM's "out of memory"). Whoever
// allocates host data of a size it did not choose asks here first.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_HOSTMEMORY_H
#define TILEC_RUNTIME_HOSTMEMORY_H

#include <cstdint>

namespace tilec {

/// The bytes the host can allocate without swapping: MemAvailable from
/// /proc/meminfo, else the free physical pages (sysconf), else no limit;
/// less where the process's own limits (`ulimit -v`, `ulimit -d`) leave it
/// less room.
uint64_t availableHostMemory();

} // namespace tilec

#endif // TILEC_RUNTIME_HOSTMEMORY_H
