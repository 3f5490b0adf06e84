//===- HostMemory.h - The memory the reference may allocate -----*- C++ -*-===//
//
// The reference interpreter holds every tensor in host memory. An allocation
// beyond what the host has available would end the process (the allocator
// aborts, or the kernel's OOM killer steps in), so the interpreter checks
// each allocation against the host's available memory first and reports a
// tensor that is too large as an ordinary error.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_INTERPRETER_HOSTMEMORY_H
#define TILEC_LIB_INTERPRETER_HOSTMEMORY_H

#include <cstdint>
#include <optional>
#include <string>

namespace tilec {
namespace interp {

/// Where `bytes` can be allocated now (within the runtime's
/// availableHostMemory), nullopt; else why not ("needs N bytes, more than the
/// M bytes of memory available on this host").
std::optional<std::string> checkHostMemory(uint64_t bytes);

} // namespace interp
} // namespace tilec

#endif // TILEC_LIB_INTERPRETER_HOSTMEMORY_H
