//===- SPIRVPreparation.cpp - Kernels rewritten for the SPIR-V target -----===//
//
// MLIR's SPIR-V conversions translate each op to its closest SPIR-V
// instruction, and the clone of the kernels is rewritten first where that
// would not give the kernel IR's meaning, one pass per step (Passes.td).
// This file holds the structural steps (loops unrolled, vector accesses of
// the buffers that stay scalar, loops that may not run, storage types,
// descriptor bindings), the upstream expansions, and the pipeline that
// orders them with the math (Math/SPIRVExpandMath.cpp), the float conversions
// (SPIRVFloatConversions.cpp), the vector buffers (SPIRVVectorBuffers.cpp),
// the infinity operands (SPIRVInfinityOperands.cpp) and the zero operands
// (SPIRVZeroOperands.cpp).
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVSCALARIZEVECTORACCESSESPASS
#define GEN_PASS_DEF_SPIRVUNROLLLOOPSPASS
#define GEN_PASS_DEF_SPIRVGUARDLOOPSPASS
#define GEN_PASS_DEF_SPIRVSTARTLOOPSATZEROPASS
#define GEN_PASS_DEF_SPIRVAPPROXIMATEMATHPASS
#define GEN_PASS_DEF_SPIRVEXPANDBF16PASS
#define GEN_PASS_DEF_SPIRVRETYPEFORSTORAGEPASS
#define GEN_PASS_DEF_SPIRVSETDESCRIPTORBINDINGSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
namespace {
#define GEN_PASS_REGISTRATION
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// `index` + `offset`.
static Value offsetIndex(ImplicitLocOpBuilder &b, Value index, int64_t offset) {
  if (offset == 0)
    return index;
  return b.create<arith::AddIOp>(index,
                                 b.create<arith::ConstantIndexOp>(offset));
}

/// vector.load and vector.store of a vector<NxT> become N scalar accesses.
/// MLIR 19 converts them to a bitcast of the element pointer to a vector
/// pointer, which Vulkan's logical addressing forbids (spirv-val: "not a
/// logical pointer"). Only the buffers that SPIRVVectorBuffers.cpp leaves
/// scalar (arguments accessed both ways, or buffers accessed through two
/// widths) still have them; the rows of a work-group array it retyped
/// (rank 2) stay whole vectors (SPIRVVectorRows.cpp).
static void scalarizeVectorAccesses(gpu::GPUModuleOp kernels) {
  SmallVector<Operation *> accesses;
  kernels.walk([&](Operation *op) {
    if (auto load = dyn_cast<vector::LoadOp>(op);
        load && load.getMemRefType().getRank() == 1)
      accesses.push_back(op);
    if (auto store = dyn_cast<vector::StoreOp>(op);
        store && store.getMemRefType().getRank() == 1)
      accesses.push_back(op);
  });
  for (Operation *op : accesses) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    if (auto load = dyn_cast<vector::LoadOp>(op)) {
      VectorType type = load.getVectorType();
      Value vector = b.create<arith::ConstantOp>(b.getZeroAttr(type));
      for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
        Value element = b.create<memref::LoadOp>(
            load.getBase(), offsetIndex(b, load.getIndices().back(), i));
        vector = b.create<vector::InsertOp>(element, vector, i);
      }
      load.replaceAllUsesWith(vector);
    } else {
      auto store = cast<vector::StoreOp>(op);
      Value vector = store.getValueToStore();
      // A vector built of scalars (vector.from_elements, which MLIR 19
      // does not convert) stores them as they are.
      auto built = vector.getDefiningOp<vector::FromElementsOp>();
      for (int64_t i = 0, e = store.getVectorType().getNumElements(); i < e;
           ++i) {
        Value position = offsetIndex(b, store.getIndices().back(), i);
        Value element = built ? built.getElements()[i]
                              : Value(b.create<vector::ExtractOp>(vector, i));
        b.create<memref::StoreOp>(element, store.getBase(), position);
      }
      op->erase();
      if (built && built->use_empty())
        built->erase();
      continue;
    }
    op->erase();
  }
}

/// MLIR 19 converts the results of an scf.for to function variables that
/// only the loop's body stores (spirv.mlir.loop has no results), so a loop
/// that runs zero times leaves its results undefined instead of equal to
/// its initial values (lavapipe reads 0: a work-item without tuples lost its
/// reduction's identity). Each loop with results that may run zero times is
/// therefore put in an scf.if that yields the initial values when it does
/// not run; both branches of an scf.if store its results.
static void guardLoopsThatMayNotRun(gpu::GPUModuleOp kernels) {
  SmallVector<scf::ForOp> loops;
  kernels.walk([&](scf::ForOp loop) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    if (loop.getNumResults() != 0 && !(lower && upper && *lower < *upper))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    ImplicitLocOpBuilder b(loop.getLoc(), loop);
    // scf.for compares its bounds as signed integers.
    Value runs = b.create<arith::CmpIOp>(
        arith::CmpIPredicate::slt, loop.getLowerBound(), loop.getUpperBound());
    auto guard = b.create<scf::IfOp>(loop.getResultTypes(), runs,
                                     /*withElseRegion=*/true);
    loop->replaceAllUsesWith(guard.getResults());
    loop->moveBefore(guard.thenBlock(), guard.thenBlock()->end());
    b.setInsertionPointToEnd(guard.thenBlock());
    b.create<scf::YieldOp>(loop.getResults());
    b.setInsertionPointToEnd(guard.elseBlock());
    b.create<scf::YieldOp>(loop.getInitArgs());
  }
}

/// NVIDIA's Vulkan driver (580.159.04 on the H200) ran loops whose induction
/// variable starts below zero, such as `for k = -1 - j to 5 - j` of an index
/// `k + j + 1`, without some of their iterations: an i32 sum lost its last
/// row (difftest seeds 12011428, 12056641, 12060282). Its OpenCL compiler
/// and the same loops counted from zero were right. Each scf.for whose lower
/// bound is not a constant of at least zero therefore runs t from 0 to
/// upper - lower (the same step, so the same iterations), with lower + t in
/// place of its induction variable. The difference cannot wrap: a loop's
/// trip count is far below the index type's range.
static void startLoopsAtZero(gpu::GPUModuleOp kernels) {
  kernels.walk([](scf::ForOp loop) {
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    if (lower && *lower >= 0)
      return;
    ImplicitLocOpBuilder b(loop.getLoc(), loop);
    Value start = loop.getLowerBound();
    Value zero = b.create<arith::ConstantOp>(b.getZeroAttr(start.getType()));
    Value count = b.create<arith::SubIOp>(loop.getUpperBound(), start);
    loop.getLowerBoundMutable().assign(zero);
    loop.getUpperBoundMutable().assign(count);
    b.setInsertionPointToStart(loop.getBody());
    Value counter = loop.getInductionVar();
    Value index = b.create<arith::AddIOp>(counter, start);
    counter.replaceAllUsesExcept(index, index.getDefiningOp());
  });
}

/// The type a value has in the SPIR-V module: bf16 is stored as its bits,
/// an empty buffer gets one (never accessed) element, as SPIR-V has no
/// arrays of length 0, and a buffer of 2^32 elements or more has a dynamic
/// size, a runtime array, as MLIR 19's SPIR-V array type holds a 32-bit
/// length (2^33 elements became an array of length 0).
static Type storageType(Type type) {
  Builder b(type.getContext());
  if (type.isBF16())
    return b.getI16Type();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    SmallVector<int64_t> shape(memref.getShape());
    if (shape.size() == 1 && shape[0] == 0)
      shape[0] = 1;
    if (shape.size() == 1 && shape[0] > int64_t(UINT32_MAX))
      shape[0] = ShapedType::kDynamic;
    return MemRefType::get(shape, storageType(memref.getElementType()),
                           memref.getLayout(), memref.getMemorySpace());
  }
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(storageType(vector.getElementType()));
  return type;
}

/// Gives every value its storageType. After the bf16 expansion, bf16 values
/// are only loaded, stored, selected, carried and bitcast to and from i16,
/// so retyping them leaves bitcasts from i16 to i16, which are dropped.
static void retypeForStorage(gpu::GPUModuleOp kernels) {
  auto retype = [](Value value) {
    value.setType(storageType(value.getType()));
  };
  kernels.walk([&](Operation *op) {
    llvm::for_each(op->getResults(), retype);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::for_each(block.getArguments(), retype);
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      FunctionType type = func.getFunctionType();
      func.setFunctionType(FunctionType::get(
          op->getContext(), llvm::map_to_vector(type.getInputs(), storageType),
          type.getResults()));
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (auto value = dyn_cast<FloatAttr>(constant.getValue());
          value && value.getType().isBF16())
        constant.setValueAttr(IntegerAttr::get(
            constant.getType(), value.getValue().bitcastToAPInt()));
      else if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
               dense && dense.getElementType().isBF16())
        constant.setValueAttr(
            dense.bitcast(Builder(op->getContext()).getI16Type()));
    }
  });
  kernels.walk([](arith::BitcastOp bitcast) {
    if (bitcast.getIn().getType() == bitcast.getType()) {
      bitcast.replaceAllUsesWith(bitcast.getIn());
      bitcast.erase();
    }
  });
}

/// Argument i of every kernel: the storage buffer at set 0, binding i.
static void setDescriptorBindings(gpu::GPUModuleOp kernels) {
  MLIRContext *context = kernels.getContext();
  for (auto kernel : kernels.getOps<gpu::GPUFuncOp>())
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i)
      kernel.setArgAttr(
          i, spirv::getInterfaceVarABIAttrName(),
          spirv::getInterfaceVarABIAttr(0, i, std::nullopt, context));
}

/// Applies `patterns` with MLIR's greedy driver, which folds as it goes. The
/// kernels' regions are structured, one block each: the driver's
/// simplification of blocks (merging and pruning them) would find nothing,
/// and costs a walk of every op's operands (docs/codegen.md, "Compile
/// time").
static LogicalResult applyGreedily(gpu::GPUModuleOp kernels,
                                   RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.enableRegionSimplification = GreedySimplifyRegionLevel::Disabled;
  if (succeeded(
          applyPatternsAndFoldGreedily(kernels, std::move(patterns), config)))
    return success();
  return kernels.emitError("the rewriting for SPIR-V did not converge");
}

/// Folds the integer arithmetic of `kernels` (that unrolling leaves: the
/// remainders of the induction variables by the factor, the sums of
/// constants) with `patterns`, from the first op to the last. The driver
/// revisits an op whenever it changes one of its operands' definitions, so
/// one sweep reaches the fixed point: a second found nothing to change in any
/// compile of the test suite, at the cost of the first. The driver over the
/// whole kernel also visited its thousands of float ops, which took three
/// times as long (docs/codegen.md, "Compile time").
static LogicalResult foldIntegerArithmetic(gpu::GPUModuleOp kernels,
                                           RewritePatternSet &&patterns) {
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
  SmallVector<Operation *> ops;
  kernels.walk([&](Operation *op) {
    if (isa<arith::ArithDialect>(op->getDialect()) &&
        op->getNumResults() == 1 && op->getResult(0).getType().isIntOrIndex())
      ops.push_back(op);
  });
  // The driver takes its worklist from the back.
  std::reverse(ops.begin(), ops.end());
  if (succeeded(applyOpPatternsAndFold(ops, std::move(patterns), config)))
    return success();
  return kernels.emitError("the rewriting for SPIR-V did not converge");
}

/// Whether `kernels` holds an op of one of the types `Ops`: the expansions
/// skip the driver's visit of every op of a kernel without one.
template <typename... Ops> static bool holdsOp(gpu::GPUModuleOp kernels) {
  return kernels
      .walk([](Operation *op) {
        return isa<Ops...>(op) ? WalkResult::interrupt()
                               : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct SPIRVScalarizeVectorAccessesPass
    : tilec::impl::SPIRVScalarizeVectorAccessesPassBase<
          SPIRVScalarizeVectorAccessesPass> {
  void runOnOperation() override { scalarizeVectorAccesses(getOperation()); }
};

/// `(iv + k) rem c` for an `scf.for` induction variable iv whose lower bound
/// and step are non-negative multiples of c, and a constant k >= 0: `k rem c`.
/// Every value of iv is a multiple of c, and a kernel's index arithmetic
/// never overflows (docs/kernel-ir.md). Unrolled by 2 from 0, a loop's
/// `t rem 2` is 0 in its first iteration and 1 in its second.
struct FoldAlignedInductionRemainder : OpRewritePattern<arith::RemUIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::RemUIOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> divisor = getConstantIntValue(op.getRhs());
    if (!divisor || *divisor <= 0)
      return failure();
    Value value = op.getLhs();
    int64_t offset = 0;
    if (auto add = value.getDefiningOp<arith::AddIOp>()) {
      std::optional<int64_t> k = getConstantIntValue(add.getRhs());
      if (!k || *k < 0)
        return failure();
      offset = *k;
      value = add.getLhs();
    }
    auto iv = dyn_cast<BlockArgument>(value);
    auto loop =
        iv ? dyn_cast<scf::ForOp>(iv.getOwner()->getParentOp()) : scf::ForOp();
    if (!loop || loop.getInductionVar() != iv)
      return failure();
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (!lower || !step || *lower < 0 || *lower % *divisor != 0 ||
        *step % *divisor != 0)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getIntegerAttr(op.getType(), offset % *divisor));
    return success();
  }
};

struct SPIRVUnrollLoopsPass
    : tilec::impl::SPIRVUnrollLoopsPassBase<SPIRVUnrollLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> marked;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr("tile.unroll") || loop->hasAttr("tile.unroll_factor"))
        marked.push_back(loop);
    });
    if (marked.empty())
      return;
    for (scf::ForOp loop : marked) {
      std::optional<int64_t> factor;
      if (loop->removeAttr("tile.unroll")) {
        factor = constantTripCount(loop.getLowerBound(), loop.getUpperBound(),
                                   loop.getStep());
      } else {
        factor =
            cast<IntegerAttr>(loop->removeAttr("tile.unroll_factor")).getInt();
      }
      // A factor of 1 inlines a loop of one trip, as full unrolling does.
      if (factor && *factor > 0 && failed(loopUnrollByFactor(loop, *factor)))
        return signalPassFailure();
    }
    // What the unrolled iterations leave to fold: the remainders of their
    // induction variables by the factor, then the sums of constants that
    // those become part of (an address `(base + 1056) + 132` as `base +
    // 1188`).
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<FoldAlignedInductionRemainder>(context);
    arith::AddIOp::getCanonicalizationPatterns(patterns, context);
    arith::SubIOp::getCanonicalizationPatterns(patterns, context);
    if (failed(foldIntegerArithmetic(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

struct SPIRVGuardLoopsPass
    : tilec::impl::SPIRVGuardLoopsPassBase<SPIRVGuardLoopsPass> {
  void runOnOperation() override { guardLoopsThatMayNotRun(getOperation()); }
};

struct SPIRVStartLoopsAtZeroPass
    : tilec::impl::SPIRVStartLoopsAtZeroPassBase<SPIRVStartLoopsAtZeroPass> {
  void runOnOperation() override { startLoopsAtZero(getOperation()); }
};

struct SPIRVApproximateMathPass
    : tilec::impl::SPIRVApproximateMathPassBase<SPIRVApproximateMathPass> {
  void runOnOperation() override {
    if (!holdsOp<math::TanhOp, math::ErfOp>(getOperation()))
      return;
    RewritePatternSet patterns(&getContext());
    // f32 only: MLIR's rational approximations of tanh (GLSL's Tanh may be
    // computed from exponentials, losing all precision near zero and giving
    // NaN for large operands) and of erf (GLSL.std.450 has none).
    populatePolynomialApproximateTanhPattern(patterns);
    populatePolynomialApproximateErfPattern(patterns);
    if (failed(applyGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

struct SPIRVExpandBF16Pass
    : tilec::impl::SPIRVExpandBF16PassBase<SPIRVExpandBF16Pass> {
  void runOnOperation() override {
    // MLIR's expansions of the conversions from and to bf16.
    if (!holdsOp<arith::ExtFOp, arith::TruncFOp>(getOperation()))
      return;
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

struct SPIRVRetypeForStoragePass
    : tilec::impl::SPIRVRetypeForStoragePassBase<SPIRVRetypeForStoragePass> {
  void runOnOperation() override { retypeForStorage(getOperation()); }
};

struct SPIRVSetDescriptorBindingsPass
    : tilec::impl::SPIRVSetDescriptorBindingsPassBase<
          SPIRVSetDescriptorBindingsPass> {
  void runOnOperation() override { setDescriptorBindings(getOperation()); }
};
} // namespace

void tilec::addSPIRVPreparationPasses(OpPassManager &kernels) {
  // Before the first pass that folds, which would fold max(x, -inf) to x.
  kernels.addPass(createSPIRVKeepInfinityOperandsExactPass());
  // Before the expansions, so that they see the constants it decides.
  kernels.addPass(createSPIRVNarrowIntegerExtensionsPass());
  kernels.addPass(createSPIRVExpandMathPass());
  kernels.addPass(createSPIRVRoundFloatConversionsPass());
  // Before the unrolling, which multiplies the ops that the range analysis
  // visits (docs/codegen.md, "Compile time"); no later step makes signed
  // divisions but the remainders' expansion, which runs on their results.
  kernels.addPass(createSPIRVUnsignedDivisionsPass());
  kernels.addPass(createSPIRVUnrollLoopsPass());
  kernels.addPass(createSPIRVVectorBuffersPass());
  kernels.addPass(createSPIRVScalarizeVectorAccessesPass());
  kernels.addPass(createSPIRVGuardLoopsPass());
  kernels.addPass(createSPIRVStartLoopsAtZeroPass());
  kernels.addPass(createSPIRVApproximateMathPass());
  kernels.addPass(createSPIRVExpandBF16Pass());
  kernels.addPass(createSPIRVDivisorRangePass());
  kernels.addPass(createSPIRVRemaindersFromQuotientsPass());
  // Again, for the comparisons the expansions made (an integer abs compares
  // its operand with 0).
  kernels.addPass(createSPIRVNarrowIntegerExtensionsPass());
  // NVIDIA's Vulkan compiler leaves in a loop much of what its OpenCL
  // compiler hoists (the tiled kernel's staging addresses, decomposed from
  // the work-item id every slice): hoisted here, the filter gradient took 20%
  // less time on the H200, the other convolutions up to 7% (docs/codegen.md,
  // "Vulkan and OpenCL speed").
  kernels.addPass(createLoopInvariantCodeMotionPass());
  // After the last pass that folds: nothing may fold a constant zero back
  // in.
  kernels.addPass(createSPIRVKeepZeroOperandsExactPass());
  kernels.addPass(createSPIRVRetypeForStoragePass());
  kernels.addPass(createSPIRVSetDescriptorBindingsPass());
}

void tilec::registerSPIRVPreparationPasses() {
  registerTileSPIRVPasses();
  PassPipelineRegistration<>(
      "tilec-spirv-prepare",
      "the SPIR-V target's preparation of a gpu.module's kernels, every "
      "step in translateToSPIRV's order",
      [](OpPassManager &pm) {
        addSPIRVPreparationPasses(pm.nest<gpu::GPUModuleOp>());
      });
}
