//===- ZeroedByteAllocator.cpp - Zeroed host bytes, touched once ----------===//

#include "tilec/Runtime/ZeroedByteAllocator.h"

#include <cstdlib>

#include <sys/mman.h>
#include <unistd.h>

using namespace tilec;

#if defined(__SANITIZE_ADDRESS__)
#define TILEC_ADDRESS_SANITIZER
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TILEC_ADDRESS_SANITIZER
#endif
#endif

/// From this size on a block is mapped whole (a transparent huge page's
/// worth): the C library maps blocks this large too, and mapping them here
/// is what lets them ask for huge pages. Under AddressSanitizer every block
/// comes from calloc, whose bounds it checks.
#ifdef TILEC_ADDRESS_SANITIZER
static constexpr size_t kMappedBytes = SIZE_MAX;
#else
static constexpr size_t kMappedBytes = size_t(2) << 20;
#endif

/// `count` rounded up to whole pages, or 0 where that does not fit a size_t.
static size_t mappedLength(size_t count) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  if (count > SIZE_MAX - (page - 1))
    return 0;
  return (count + page - 1) / page * page;
}

uint8_t *ZeroedByteAllocator::allocate(size_t count) {
  if (count < kMappedBytes) {
    // calloc(0) may return null, which would read as a failure.
    void *bytes = std::calloc(count ? count : 1, 1);
    if (!bytes)
      throw std::bad_alloc();
    return static_cast<uint8_t *>(bytes);
  }
  size_t length = mappedLength(count);
  if (length == 0)
    throw std::bad_alloc();
  // Anonymous pages read as zeros until written.
  void *bytes = mmap(nullptr, length, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (bytes == MAP_FAILED)
    throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  // Advice only: where transparent huge pages are off, 4 KiB pages it is.
  madvise(bytes, length, MADV_HUGEPAGE);
#endif
  return static_cast<uint8_t *>(bytes);
}

void ZeroedByteAllocator::deallocate(uint8_t *bytes, size_t count) noexcept {
  if (count < kMappedBytes)
    std::free(bytes);
  else
    munmap(bytes, mappedLength(count));
}
