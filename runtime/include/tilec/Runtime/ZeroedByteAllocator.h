//===- ZeroedByteAllocator.h - Zeroed host bytes, touched once --*- C++ -*-===//
//
// The allocator of a HostTensor's bytes. A tensor starts zero-filled, and a
// large one (a GiB for a benchmark's input or output, allocated anew at
// every run) used to be zeroed twice over: by the kernel, which hands out
// zeroed pages, and by a memset on top, each touch a page fault per 4 KiB.
// Here the bytes come zeroed from the system and are not written again:
// their pages are first touched by whoever fills them (a device read, a
// random fill), and on Linux a block of whole huge pages is mapped with
// transparent huge pages asked for, one fault per 2 MiB.
//
// std::vector<uint8_t, ZeroedByteAllocator> value-initialises nothing:
// resize() leaves the new bytes as allocate() gave them, which is zeroed
// only for a vector that grows into fresh storage (HostTensor's resizes
// once, from empty).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ZEROEDBYTEALLOCATOR_H
#define TILEC_RUNTIME_ZEROEDBYTEALLOCATOR_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace tilec {

class ZeroedByteAllocator {
public:
  using value_type = uint8_t;
  template <class T> struct rebind {
    static_assert(std::is_same_v<T, uint8_t>, "an allocator of bytes only");
    using other = ZeroedByteAllocator;
  };

  /// `count` zeroed bytes; throws std::bad_alloc when the host has none.
  uint8_t *allocate(size_t count);
  void deallocate(uint8_t *bytes, size_t count) noexcept;

  /// Default-initialisation (resize): nothing to write, allocate zeroed.
  void construct(uint8_t *) noexcept {}
  template <class... Args> void construct(uint8_t *byte, Args &&...args) {
    ::new (static_cast<void *>(byte)) uint8_t(std::forward<Args>(args)...);
  }

  bool operator==(const ZeroedByteAllocator &) const { return true; }
  bool operator!=(const ZeroedByteAllocator &) const { return false; }
};

} // namespace tilec

#endif // TILEC_RUNTIME_ZEROEDBYTEALLOCATOR_H
