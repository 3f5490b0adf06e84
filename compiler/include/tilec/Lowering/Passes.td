//===- Passes.td - The passes of lowering ------------------*- tablegen -*-===//
//
// From the `tile` function to the kernel IR in six passes, each of which
// tile-opt runs alone; `--tile-lower-to-kernels` runs the six in order
// (docs/scheduler.md, docs/kernel-ir.md).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_PASSES_TD
#define TILEC_LOWERING_PASSES_TD

include "mlir/Pass/PassBase.td"

class Tile_ProfilePass<string argument> : Pass<argument, "::mlir::ModuleOp"> {
  list<Option> profileOptions = [
    Option<"profilePath", "profile", "std::string", /*default=*/"\"\"",
           "JSON device profile overriding the built-in reference profile">,
  ];
}

def TileMergeCommonExpressions
    : Pass<"tile-merge-common-expressions", "::mlir::ModuleOp"> {
  let summary = "Compute each distinct expression of the tile function "
                "once, and none that no output needs";
  let description = [{
    MLIR's common-subexpression elimination on the `tile` function, before
    kernel formation: of two `tile` ops with the same operation, operands
    and attributes, the second's uses take the first's result. A training
    step (a forward pass, its loss and its `tilec grad` backward pass in
    one program) otherwise computes the forward values twice: the gradient
    program recomputes the activations that the forward statements
    already computed. The `tile` ops have no side effects; a value that
    becomes an output twice gets its copy kernel from formation. Then the
    ops whose results nothing uses are erased: a statement whose value is
    neither an output nor read by one became a kernel with an empty body,
    launched for nothing.
  }];
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TileFormKernels : Tile_ProfilePass<"tile-form-kernels"> {
  let summary = "Group the function's tile ops into tile.kernel ops (fusion)";
  let description = [{
    Decides which ops run together in one kernel and which values reach
    global memory (docs/scheduler.md, "Kernel formation"), and records it:
    the ops of each kernel move into a `tile.kernel` named as its gpu.func
    will be, whose results are the values it stores. Elementwise chains
    fuse, a contraction takes its elementwise epilogue, a reduction over
    rows whose result is broadcast back over them forms a row kernel with
    its consumers when a row fits on chip (the profile), a returned input
    (or a value returned twice) gets a copy kernel.
  }];
  let options = profileOptions;
  let dependentDialects = ["::tilec::tile::TileDialect"];
}

def TileSchedule : Tile_ProfilePass<"tile-schedule"> {
  let summary = "Choose each kernel's schedule for the device";
  let description = [{
    Analyses every `tile.kernel` and chooses how its work is dealt out on
    the device profile (docs/scheduler.md): per element, generic, tiled or
    reduction, with their work-groups, tiles and sharing. Writes the choice
    as `schedule = #tile.schedule<...>` on the kernel; fails with an error
    when no schedule fits the device.
  }];
  let options = profileOptions;
}

def TilePlanMemory : Tile_ProfilePass<"tile-plan-memory"> {
  let summary = "Split tensors into pieces and kernels into chunks to fit "
                "the device's memory";
  let description = [{
    A tensor larger than the device's largest buffer is stored as pieces of
    whole rows, the kernels touching it run in chunks of rows; when the
    buffers exceed the device's memory they stream through it, the largest
    tensors taking smaller pieces until the launches' peak fits
    (docs/scheduler.md, "Splitting" and "Streaming"). Records `chunk_bounds`
    (and `piece_bytes` of streamed results) on the tile.kernel ops,
    `tile.piece_bytes` on streamed arguments and `tile.streamed_peak` on the
    function; a chunked reduction's schedule becomes generic. Fails with an
    error when a tensor cannot be split or the program cannot fit.
  }];
  let options = profileOptions;
}

def TileLowerToKernelIR : Tile_ProfilePass<"tile-lower-to-kernel-ir"> {
  let summary = "Build the kernel IR from the scheduled, planned kernels";
  let description = [{
    Rewrites the module into the kernel IR of docs/kernel-ir.md (a
    gpu.module of kernels and a host function that allocates buffers and
    launches them) from the tile.kernel ops, their schedules and the memory
    plan. With `explain`, prints each launch's schedule and the reasons for
    it to stderr (`tilec compile --explain`).
  }];
  let options = !listconcat(profileOptions, [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Print each kernel's schedule to stderr">,
  ]);
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::spirv::SPIRVDialect", "::mlir::vector::VectorDialect",
  ];
}

def TileWidenNarrowIntegerReads
    : Pass<"tile-widen-narrow-integer-reads", "::mlir::ModuleOp"> {
  let summary = "Read the value of i8 and i16 integers in 32 bits, with the "
                "sign extension written out";
  let description = [{
    Every operation of the kernel IR whose result depends on more than the
    low bits of an i8 or i16 operand (a sign extension, a comparison, a
    conversion to float or index, a division, a remainder, a right shift,
    max, min, abs) takes the operand widened to 32 bits, and sign
    extension is written as `(zext(x) ^ 2^(n-1)) - 2^(n-1)`; an unsigned
    conversion to float of a sign extension becomes
    `select(x < 0, sitofp(x) + 2^w, sitofp(x))`. The results are the same
    on every device. NVIDIA's compilers (driver 580, OpenCL and Vulkan)
    keep a narrow integer in a 32-bit register and lose track of its high
    bits: the negation of -32768 as i16, widened, came out +32768, and
    exp(as_uint(x, 32)) of an i8 converted it as signed (docs/codegen.md,
    "Narrow integers").
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // TILEC_LOWERING_PASSES_TD
