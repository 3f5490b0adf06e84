//===- Passes.td - The SPIR-V target's preparation passes --*- tablegen -*-===//
//
// What the SPIR-V target does to a clone of the kernels before MLIR's
// upstream SPIR-V conversion, one pass per step. Each runs on a gpu.module
// of the kernel IR (docs/kernel-ir.md), and tile-opt runs each alone; the
// pipeline tilec-spirv-prepare runs them in the order translateToSPIRV
// does (docs/codegen.md, "How the kernels are converted").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_SPIRV_PASSES
#define TILEC_TARGET_SPIRV_PASSES

include "mlir/Pass/PassBase.td"

def SPIRVExpandMathPass
    : Pass<"tilec-spirv-expand-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "Build the math builtins that GLSL.std.450 gets wrong from "
                "arithmetic";
  let description = [{
    Replaces the math builtins whose GLSL.std.450 instruction means
    something else than Tile's builtin, is too loose or is 32-bit only:
    `math.powf` (C's pow: a negative base, zeros and infinities),
    `math.atan2` (C's quadrants, signed zeros and infinities), `math.asin`,
    `math.acos` and `math.atan` in f32 and f64, and `math.exp`, `math.log`,
    `math.tanh`, `math.sinh`, `math.cosh`, `math.sin`, `math.cos`,
    `math.tan` and `math.erf` in f64 (SPIRV/Math/).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def SPIRVRoundFloatConversionsPass
    : Pass<"tilec-spirv-round-float-conversions", "mlir::gpu::GPUModuleOp"> {
  let summary = "Make the float conversions round once, to nearest";
  let description = [{
    f64 to f16 or bf16 goes through f32 rounded to odd; conversions to and
    from bf16 (which SPIR-V lacks) other than from and to f32 go through
    f32; and f32 to f16 is rounded to nearest even from the bits, as Vulkan
    lets a device round toward zero.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def SPIRVVectorBuffersPass
    : Pass<"tilec-spirv-vector-buffers", "mlir::gpu::GPUModuleOp"> {
  let summary = "Declare buffers accessed only through vectors as arrays of "
                "vectors";
  let description = [{
    A work-group array (`memref.alloc`) or kernel argument of N elements
    of f32, f64 or i8 ... i64 that the kernel accesses only through
    `vector.load` and `vector.store` of one width W (N a multiple of W)
    becomes a `memref<N/W x vector<WxT>>`, and each access a `memref.load`
    or `memref.store` of the vector at `%i / W` (the kernel IR's `%i` is a
    multiple of W): one OpLoad or OpStore of a vector in SPIR-V, as OpenCL
    C's float4 accesses, instead of W scalar ones. A stored
    `vector.from_elements` becomes `vector.insert`s into a zero vector.
    A work-group array accessed through vectors of one width W and through
    scalars becomes its rows, `memref<N/W x W x T, 3>`: a vector access at
    `%i` the `vector.load` or `vector.store` of row `%i / W`, a scalar one
    element `[%i / W, %i mod W]`, which the conversion declares as an array
    of vectors whose scalars are components (SPIRVVectorRows.cpp). Kernel
    arguments accessed both ways are left to the scalarisation.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::vector::VectorDialect"];
}

def SPIRVUnrollLoopsPass
    : Pass<"tilec-spirv-unroll-loops", "mlir::gpu::GPUModuleOp"> {
  let summary = "Unroll the loops marked tile.unroll or tile.unroll_factor";
  let description = [{
    Replaces each `scf.for` carrying the unit attribute `tile.unroll` (the
    tiled kernel's rank-1 updates of one slice: docs/kernel-ir.md) whose
    bounds are constants by its iterations, one after the other. NVIDIA's
    OpenCL compiler unrolls that loop by itself; its Vulkan compiler kept
    it a loop carrying the 64 accumulators of the register tile, and the
    matmul 4096^3 ran 1.35x slower (docs/codegen.md, "Vulkan and OpenCL
    speed").

    Unrolls each `scf.for` carrying `tile.unroll_factor = N` (the tiled
    kernel's double-buffered loop over the slices, N = 2) by N, with a loop
    after it for the trips that N does not divide. Then `(t + k) rem c` of
    the counter t of a loop whose lower bound and step are non-negative
    multiples of c becomes the constant `k rem c`, and sums of constants
    are folded: a pair of slices reads its two copies of local memory at
    constant offsets, which ran the matmul 4096^3 9% faster through
    NVIDIA's Vulkan driver.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def SPIRVScalarizeVectorAccessesPass
    : Pass<"tilec-spirv-scalarize-vector-accesses", "mlir::gpu::GPUModuleOp"> {
  let summary = "Split vector loads and stores into scalar accesses";
  let description = [{
    `vector.load` and `vector.store` become one `memref.load` or
    `memref.store` per element: MLIR 19 converts them to a bitcast of the
    element pointer to a vector pointer, which Vulkan's logical addressing
    forbids. A stored `vector.from_elements` stores its scalars as they are.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::vector::VectorDialect"];
}

def SPIRVGuardLoopsPass
    : Pass<"tilec-spirv-guard-loops", "mlir::gpu::GPUModuleOp"> {
  let summary = "Give loops that may not run their initial values";
  let description = [{
    Puts each `scf.for` with results whose constant bounds do not prove that
    it runs in an `scf.if` whose other branch yields the initial values:
    MLIR 19's conversion leaves the results of a loop that runs zero times
    undefined.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def SPIRVStartLoopsAtZeroPass
    : Pass<"tilec-spirv-start-loops-at-zero", "mlir::gpu::GPUModuleOp"> {
  let summary = "Count loops that may start below zero from zero";
  let description = [{
    Rewrites each `scf.for` whose lower bound is not a constant of at least
    zero to run from 0 to `upper - lower` with the same step, adding the
    lower bound to the induction variable where the body uses it: NVIDIA's
    Vulkan driver (580.159.04) dropped iterations of loops that start below
    zero.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def SPIRVApproximateMathPass
    : Pass<"tilec-spirv-approximate-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "MLIR's polynomial approximations of f32 tanh and erf";
  let description = [{
    GLSL's Tanh may be computed from exponentials (no precision near zero,
    NaN for large operands) and GLSL.std.450 has no erf: MLIR's rational
    approximations replace both in f32, folding as they go.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def SPIRVExpandBF16Pass
    : Pass<"tilec-spirv-expand-bf16", "mlir::gpu::GPUModuleOp"> {
  let summary = "MLIR's expansion of f32 <-> bf16 conversions into bit "
                "operations";
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def SPIRVUnsignedDivisionsPass
    : Pass<"tilec-spirv-unsigned-divisions", "mlir::gpu::GPUModuleOp"> {
  let summary = "Divide unsigned where both operands are non-negative";
  let description = [{
    Rewrites `arith.divsi` and `arith.remsi` to `arith.divui` and
    `arith.remui` where the ops' integer range inference proves both
    operands non-negative (work-item and group ids, the loop counters and
    the coordinates computed from them): the same values, without the sign
    correction that a signed division by a constant costs the driver. The
    ranges are computed on demand, for the divisions' operands and what they
    are computed from, as MLIR's integer range analysis computes them (a
    value carried by a loop gets its type's range). They are in 64 bits for
    `index`, which is sound because all index arithmetic of the kernels fits
    in the module's tile.index_bits. Run
    before tilec-spirv-unroll-loops, which multiplies the ops the analysis
    visits, and before tilec-spirv-remainders-from-quotients.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def SPIRVDivisorRangePass
    : Pass<"tilec-spirv-divisor-range", "mlir::gpu::GPUModuleOp"> {
  let summary = "Scale float divisions whose divisor lies beyond the normal "
                "range";
  let description = [{
    Rewrites `arith.divf %x, %y` (but by a constant within the range) to
    `(%x * s) / (%y * s)` with `s = |y| > 2^126 ? 1/4 : 1` (f16: 2^14; the
    reciprocal of the type's smallest normal number). The quotient is the
    same, and Vulkan bounds OpFDiv's error only for divisors within the
    normal range: NVIDIA's driver flushed the reciprocal of a larger one to
    0, so x / x gave 0 for x = -3.4e38. Run after the passes that expand
    math and bf16 into f32 divisions, and before
    tilec-spirv-keep-zero-operands-exact.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def SPIRVRemaindersFromQuotientsPass
    : Pass<"tilec-spirv-remainders-from-quotients", "mlir::gpu::GPUModuleOp"> {
  let summary = "Compute remainders by a constant from the quotient, and "
                "signed remainders right for the minimum";
  let description = [{
    Rewrites `arith.remsi %x, %c` (a constant other than 0 and -1) to
    `%x - (%x divsi %c) * %c`, exactly the same value: MLIR 19 converts
    remsi to an unsigned remainder of absolute values and a select, a
    second division beside the quotient that the kernel computes from the
    same operands. Likewise `arith.remui %x, %c` by a constant that is not
    a power of two (whose remainder is one mask) to
    `%x - (%x divui %c) * %c`. Every other `arith.remsi` becomes
    `|x| remui |y|`, negated where `x < 0`: MLIR 19's own expansion tests
    the sign as `x == |x|`, which the type's minimum passes. Run before
    tilec-spirv-keep-zero-operands-exact, whose CSE merges the two
    quotients.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def SPIRVNarrowIntegerExtensionsPass
    : Pass<"tilec-spirv-narrow-integer-extensions", "mlir::gpu::GPUModuleOp"> {
  let summary = "Decide comparisons of integer extensions with constants, and "
                "use a sign extension's narrow value where it means the same";
  let description = [{
    Rewrites an `arith.cmpi` of an `arith.extsi` or `arith.extui` and a
    constant to its constant result where no value of the narrow type can
    change it (`(int)b < 0` of a bool), and a signed or equality comparison
    of an `arith.extsi` with a constant to the comparison of the narrow value
    with the constant truncated; and an `arith.sitofp` of an `arith.extsi` to
    the conversion of the narrow value. The same values. lavapipe (Mesa 22.3)
    lost the sign of an i32 sign-extended to i64: `as_int(B, 64) > 7` was
    true for B = -1 (difftest seed 22001178), and `erf(as_int(B, 64))` took
    B = -3 for +3 in its expansion's magnitude (seed 22201354). A comparison
    it decided itself made a zero that it folded into atan2's expansion
    without keeping infinities (seed 22200520); decided here, before the
    expansions, the zero gets the exact forms of
    tilec-spirv-keep-zero-operands-exact.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def SPIRVKeepInfinityOperandsExactPass
    : Pass<"tilec-spirv-keep-infinity-operands-exact", "mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite float max and min into forms that MLIR 19 folds "
                "exactly";
  let description = [{
    MLIR's folder turns maxnumf(x, -inf) and minnumf(x, +inf) into x, which
    is NaN for a NaN x where maxnumf and minnumf ignore the NaN and give the
    infinity, and it folds maxnumf of a NaN constant and another constant
    to NaN. Either operand may turn constant only after other folds, so
    every maxnumf(x, y) and minnumf(x, y) becomes
    isnan(x) ? y : (isnan(y) ? x : maxnumf(x, y)). Run before every folding
    step.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def SPIRVKeepZeroOperandsExactPass
    : Pass<"tilec-spirv-keep-zero-operands-exact", "mlir::gpu::GPUModuleOp"> {
  let summary = "Rewrite float operations on a constant +0.0 and x - x into "
                "exact equivalents";
  let description = [{
    llvmpipe simplifies a sum or product with a constant +0.0, a quotient of
    or by it and x - x by operand identity, wrongly for infinities, NaNs and
    signed zeros. A float comparison of a value with itself whose result is
    the same for every value (x < x), or of |y| or -|y| with a constant that
    their sign decides (-|y| > 0), or of operands whose values are known
    (constants, and choices among them through conversions, as shape(B)'s
    select of extents) where all of their values give one result, is
    folded first, with what follows from it, since Mesa folds it and its
    zero then meets the same simplification.
    After a CSE (so that the driver's merged x - x shows), each such
    operation becomes an exact IEEE equivalent with no +0.0 operand and no
    repeated one. A kernel that computes with floats only through fma has
    none: its integer ops computed twice are merged instead of the CSE.
    Run after every folding step.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::math::MathDialect"];
}

def SPIRVRetypeForStoragePass
    : Pass<"tilec-spirv-retype-for-storage", "mlir::gpu::GPUModuleOp"> {
  let summary = "Store bf16 as i16, give empty buffers one element and "
                "huge ones a dynamic size";
  let description = [{
    Every value gets the type it has in the SPIR-V module: bf16 (only
    loaded, stored, selected, carried and bitcast once the conversions are
    expanded) becomes i16, constants included, a buffer of 0 elements
    gets one, as SPIR-V has no arrays of length 0, and a buffer of 2^32
    elements or more gets a dynamic size (a runtime array), as MLIR's
    SPIR-V array type has a 32-bit length.
  }];
}

def SPIRVSetDescriptorBindingsPass
    : Pass<"tilec-spirv-set-descriptor-bindings", "mlir::gpu::GPUModuleOp"> {
  let summary = "Bind argument i of every kernel to descriptor set 0, "
                "binding i";
  let dependentDialects = ["mlir::spirv::SPIRVDialect"];
}

#endif // TILEC_TARGET_SPIRV_PASSES
