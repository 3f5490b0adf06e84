//===- Bundle.h - A compiled program, ready to run --------------*- C++ -*-===//
//
// A kernel bundle is everything the runtime needs to run one specialised
// Tile function, and nothing that needs the compiler: the kernels' code per
// target, the buffers (inputs, outputs, temporaries, and aliases for
// reshapes), and the launches in order with their geometry and buffer
// arguments. A tensor larger than the device's largest allocation is stored
// as pieces, each a buffer of its own holding a contiguous range of the
// tensor's bytes (docs/scheduler.md, "Splitting"); the host sees it whole.
// `tilec compile --emit bundle` writes one; `tile-run` and
// `tilec run` execute it. The file form is JSON (format "tilec-bundle",
// with a version that readers check), so it can grow targets (SPIR-V
// binaries, MSL) without breaking old readers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_BUNDLE_H
#define TILEC_RUNTIME_BUNDLE_H

#include "tilec/Runtime/DType.h"
#include "tilec/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

/// The version of the bundle format this runtime reads and writes.
inline constexpr int kBundleFormatVersion = 5;

/// Where a piece lies in the tensor it is part of.
struct BufferPiece {
  /// The whole tensor: indexes `Bundle::buffers`.
  unsigned whole = 0;
  /// The piece's first byte within the whole tensor's C-ordered bytes.
  uint64_t byteOffset = 0;
};

struct BundleBuffer {
  /// A Piece holds part of an input, output or temporary that is too large
  /// for one allocation. The pieces of a tensor cover its bytes in order,
  /// without gaps or overlaps; a tensor with pieces has no storage of its
  /// own, so launches take its pieces, never the tensor itself.
  enum class Kind { Input, Output, Temporary, Piece };
  std::string name;
  Kind kind = Kind::Temporary;
  DType dtype = DType::F32;
  Shape shape;
  /// Set when this buffer is another buffer's storage under a new shape (a
  /// reshape): no allocation, no copy. Indexes `Bundle::buffers`.
  std::optional<unsigned> aliasOf;
  /// Set exactly on pieces.
  std::optional<BufferPiece> pieceOf;
  /// A temporary that its kernels need zeroed before they run, and leave
  /// zeroed (the partials and counters of a reduction whose last work-group
  /// combines them): the runtime fills it with 0 bytes where it fills other
  /// temporaries with poison.
  bool zeroed = false;
};

/// "input", "output", "temporary" or "piece": the spelling in the file form.
const char *bufferKindName(BundleBuffer::Kind kind);

struct BundleLaunch {
  /// Indexes `Bundle::kernels`.
  unsigned kernel = 0;
  /// 1 to 3 dimensions; global sizes are multiples of the local sizes.
  unsigned dims = 1;
  std::array<uint64_t, 3> globalSize = {1, 1, 1};
  std::array<uint64_t, 3> localSize = {1, 1, 1};
  /// The kernel's arguments, in order: indexes into `Bundle::buffers`.
  std::vector<unsigned> args;
};

/// One argument of a kernel, as its code uses it: what a launch must pass.
struct KernelParam {
  /// The dtype of the buffer's elements.
  DType dtype = DType::F32;
  /// How many elements the kernel addresses: the buffer passed holds exactly
  /// as many (a smaller one would be written past its end).
  uint64_t elements = 0;
  /// Whether the kernel stores to it.
  bool written = false;
  /// Whether the kernel loads from it (a kernel may take a buffer it neither
  /// reads nor writes: the first pass of a reduction takes its output).
  bool read = false;
};

struct BundleKernel {
  /// The entry point's name.
  std::string name;
  /// `file:line:col` of the statement(s) the kernel computes, for messages.
  std::string sourceLocation;
  /// The floating-point operations and the minimum bytes moved by one run,
  /// exact from the program (for `tilec bench`).
  double flops = 0;
  double bytes = 0;
  /// A SPIR-V module for Vulkan compute holding this kernel alone, named as
  /// the kernel, its work-group size fixed in the module; empty when the
  /// bundle was not compiled for Vulkan. Argument i is the storage buffer at
  /// descriptor set 0, binding i (docs/codegen.md). A module per kernel,
  /// since Vulkan charges every Workgroup variable of a module to each of
  /// its entry points.
  std::vector<uint32_t> spirv;
  /// Metal Shading Language source of this kernel alone, translated from its
  /// SPIR-V module by SPIRV-Cross (the buffer of argument i is
  /// `[[buffer(i)]]`); empty when the bundle was not compiled for Metal.
  std::string msl;
  /// Its arguments in order (empty for a kernel that no launch takes).
  std::vector<KernelParam> params;
  /// The geometry its code was generated for (its indexing assumes it):
  /// every launch of the kernel has these sizes.
  unsigned dims = 1;
  std::array<uint64_t, 3> globalSize = {1, 1, 1};
  std::array<uint64_t, 3> localSize = {1, 1, 1};
};

struct Bundle {
  /// The compiler that wrote it (`tilec 0.1.0`), for messages.
  std::string producer;
  /// The Tile function's name.
  std::string function;
  std::vector<BundleKernel> kernels;
  /// OpenCL C 1.2 source of every kernel (one program); empty when the
  /// bundle was not compiled for OpenCL.
  std::string openclSource;
  std::vector<BundleBuffer> buffers;
  /// Parameters in declaration order and results in `-> (...)` order:
  /// indexes into `buffers`.
  std::vector<unsigned> inputs;
  std::vector<unsigned> outputs;
  std::vector<BundleLaunch> launches;
  /// What the scheduler chose and why (`tilec compile --explain`).
  std::string explanation;
};

/// Checks what the types alone do not, before anything runs: indexes in
/// range; inputs and outputs that list exactly the buffers of their kind;
/// aliases of the same size; pieces that tile their tensor; every launch
/// against its kernel (geometry, and per argument the dtype and element
/// count, no input written); every output written by a launch, and no
/// buffer read before a launch writes it. The error names the field
/// ("launches[0].args[1]: ..."). parseBundle and both executors' `create`
/// call it, so a bundle built in memory gets the same checks as a file.
Status validateBundle(const Bundle &bundle);

/// Serialises `bundle` as the JSON file form.
std::string serializeBundle(const Bundle &bundle);
/// Parses and validates the JSON file form (`name` for messages): a
/// truncated or corrupt file, another format version, or an inconsistent
/// bundle (validateBundle) is an error, never an exception.
Expected<Bundle> parseBundle(const std::string &text, const std::string &name);
Expected<Bundle> readBundle(const std::string &path);
/// Writes atomically (a temporary file, then a rename).
Status writeBundle(const std::string &path, const Bundle &bundle);

} // namespace tilec

#endif // TILEC_RUNTIME_BUNDLE_H
