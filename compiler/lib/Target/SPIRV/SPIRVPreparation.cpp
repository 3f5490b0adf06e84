//===- SPIRVPreparation.cpp - Kernels rewritten for the SPIR-V target -----===//
//
// MLIR's SPIR-V conversions translate each op to its closest SPIR-V or
// GLSL.std.450 instruction. Where that instruction means something else than
// the kernel IR's op (GLSL's Pow and Atan2 leave cases undefined that Tile
// defines), has no SPIR-V type to work on (bf16), is too loose (tanh near
// zero; asin, acos and atan in f32) or is 32-bit only (the transcendentals
// on f64), the clone of the kernels is rewritten here first into ops that
// convert exactly.
//
//===----------------------------------------------------------------------===//

#include "SPIRVLowering.h"

#include "Math/FloatBuilder.h"
#include "Math/MathExpansions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilec {

/// The element type of `op`'s one result, or null.
static Type resultElementType(Operation *op) {
  if (op->getNumResults() != 1)
    return {};
  return getElementTypeOrSelf(op->getResult(0).getType());
}

static bool isF64(Operation *op) {
  Type element = resultElementType(op);
  return element && element.isF64();
}

static bool isF32(Operation *op) {
  Type element = resultElementType(op);
  return element && element.isF32();
}

/// `x` has its sign bit set (-0 and negative NaNs included).
static Value hasSignBit(ImplicitLocOpBuilder &b, Value x) {
  Type bitsType = withElementType(
      x.getType(),
      b.getIntegerType(
          getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth()));
  Value bits = b.create<arith::BitcastOp>(bitsType, x);
  return b.create<arith::CmpIOp>(arith::CmpIPredicate::slt, bits,
                                 splatConstant(b, bitsType, 0));
}

/// C's pow: GLSL's Pow is undefined for a negative base and for a zero base
/// with y <= 0, and gives NaN for pow(1, inf). Only |x| > 0 reaches it here.
static Value expandPow(ImplicitLocOpBuilder &b, Value x, Value y) {
  Type type = x.getType();
  auto cmp = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return b.create<arith::CmpFOp>(predicate, lhs, rhs).getResult();
  };
  auto select = [&](Value condition, Value yes, Value no) {
    return b.create<arith::SelectOp>(condition, yes, no).getResult();
  };
  Value zero = splatConstant(b, type, 0);
  Value one = splatConstant(b, type, 1);
  Value infinity = splatConstant(b, type, INFINITY);
  Value nan = splatConstant(b, type, NAN);

  Value magnitude = b.create<math::AbsFOp>(x);
  // f64: e^(y log |x|), as GLSL's Pow is 32-bit only.
  Value power =
      getElementTypeOrSelf(type).isF64()
          ? buildExpF64(b,
                        b.create<arith::MulFOp>(y, buildLogF64(b, magnitude)))
          : b.create<math::PowFOp>(magnitude, y).getResult();
  // pow(+-0, y) is +-inf for y < 0 and +-0 for y > 0.
  Value zeroBase =
      select(cmp(arith::CmpFPredicate::OLT, y, zero), infinity, zero);
  power =
      select(cmp(arith::CmpFPredicate::OEQ, magnitude, zero), zeroBase, power);
  // A negative base: the sign of |x|^y for an odd integer y; a finite one
  // gives NaN unless y is an integer (pow(-inf, y) is 0 or inf).
  Value isInteger =
      cmp(arith::CmpFPredicate::OEQ, b.create<math::FloorOp>(y), y);
  Value half = b.create<math::FloorOp>(
      b.create<arith::MulFOp>(y, splatConstant(b, type, 0.5)));
  Value isOdd = b.create<arith::AndIOp>(
      isInteger,
      cmp(arith::CmpFPredicate::ONE, b.create<arith::AddFOp>(half, half), y));
  power = select(b.create<arith::AndIOp>(hasSignBit(b, x), isOdd),
                 b.create<arith::NegFOp>(power), power);
  Value belowZero = cmp(arith::CmpFPredicate::OLT, x, zero);
  Value aboveMinusInfinity =
      cmp(arith::CmpFPredicate::ONE, x, splatConstant(b, type, -INFINITY));
  Value negativeBase = b.create<arith::AndIOp>(belowZero, aboveMinusInfinity);
  power = select(b.create<arith::AndIOp>(
                     negativeBase,
                     b.create<arith::XOrIOp>(
                         isInteger, splatConstant(b, isInteger.getType(), 1))),
                 nan, power);
  power = select(cmp(arith::CmpFPredicate::UNO, x, y), nan, power);
  // pow(x, +-0) = 1, pow(1, y) = 1 and pow(-1, +-inf) = 1, NaNs included.
  Value isOne = b.create<arith::OrIOp>(
      cmp(arith::CmpFPredicate::OEQ, y, zero),
      b.create<arith::OrIOp>(cmp(arith::CmpFPredicate::OEQ, x, one),
                             b.create<arith::AndIOp>(
                                 cmp(arith::CmpFPredicate::OEQ, magnitude, one),
                                 cmp(arith::CmpFPredicate::OEQ,
                                     b.create<math::AbsFOp>(y), infinity))));
  return select(isOne, one, power);
}

/// atan(x): built from arithmetic for f32 and f64, GLSL's Atan otherwise
/// (f16).
static Value atanOfType(ImplicitLocOpBuilder &b, Value x) {
  if (getElementTypeOrSelf(x.getType()).isF16())
    return b.create<math::AtanOp>(x);
  return buildAtan(b, x);
}

/// The f32 or f64 inverse trigonometric builtin that `op` computes, from
/// arithmetic, or null (f16: GLSL's is precise enough).
static Value expandInverseTrigonometric(ImplicitLocOpBuilder &b,
                                        Operation *op) {
  if (!isF32(op) && !isF64(op))
    return {};
  Value x = op->getOperand(0);
  if (isa<math::AsinOp>(op))
    return buildAsin(b, x);
  if (isa<math::AcosOp>(op))
    return buildAcos(b, x);
  return buildAtan(b, x);
}

/// C's atan2 from atan(y / x): SPIR-V's GLSL.std.450 has no Atan2 in MLIR,
/// and the quotient loses the quadrant, the signed zeros and the cases of
/// two zeros (C: +-0 or +-pi) and two infinities (+-pi/4 or +-3pi/4).
static Value expandAtan2(ImplicitLocOpBuilder &b, Value y, Value x) {
  Type type = x.getType();
  auto cmp = [&](arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return b.create<arith::CmpFOp>(predicate, lhs, rhs).getResult();
  };
  Value zero = splatConstant(b, type, 0);
  Value infinity = splatConstant(b, type, INFINITY);
  Value xNegative = hasSignBit(b, x);
  // The angle for a negative x (-0 included) or a positive one, with y's
  // sign.
  auto signedAngle = [&](double ifPositive, double ifNegative) {
    Value angle =
        b.create<arith::SelectOp>(xNegative, splatConstant(b, type, ifNegative),
                                  splatConstant(b, type, ifPositive));
    return b.create<math::CopySignOp>(angle, y).getResult();
  };
  Value angle = atanOfType(b, b.create<arith::DivFOp>(y, x));
  angle = b.create<arith::SelectOp>(
      xNegative,
      b.create<arith::AddFOp>(
          angle, signedAngle(llvm::numbers::pi, llvm::numbers::pi)),
      angle);
  Value bothZero =
      b.create<arith::AndIOp>(cmp(arith::CmpFPredicate::OEQ, x, zero),
                              cmp(arith::CmpFPredicate::OEQ, y, zero));
  angle = b.create<arith::SelectOp>(bothZero, signedAngle(0, llvm::numbers::pi),
                                    angle);
  Value bothInfinite = b.create<arith::AndIOp>(
      cmp(arith::CmpFPredicate::OEQ, b.create<math::AbsFOp>(x), infinity),
      cmp(arith::CmpFPredicate::OEQ, b.create<math::AbsFOp>(y), infinity));
  return b.create<arith::SelectOp>(
      bothInfinite,
      signedAngle(llvm::numbers::pi / 4, 3 * llvm::numbers::pi / 4), angle);
}

/// `x` (f64) rounded to f32 *to odd*: truncated toward zero, with the lowest
/// bit set when that was inexact. Rounding this to a format at least two
/// bits narrower than f32 (f16, bf16) rounds `x` correctly, once. Vulkan lets a
/// device round f64 to f32 to nearest or toward zero; both are corrected
/// here.
static Value roundToOddF32(ImplicitLocOpBuilder &b, Value x) {
  Type f32 = withElementType(x.getType(), b.getF32Type());
  Type i32 = withElementType(x.getType(), b.getI32Type());
  Value rounded = b.create<arith::TruncFOp>(f32, x);
  Value awayFromZero = b.create<arith::CmpFOp>(
      arith::CmpFPredicate::OGT,
      b.create<math::AbsFOp>(b.create<arith::ExtFOp>(x.getType(), rounded)),
      b.create<math::AbsFOp>(x));
  Value bits = b.create<arith::BitcastOp>(i32, rounded);
  // One ulp toward zero: the magnitude's bits minus one (inf becomes the
  // largest finite float).
  Value truncated = b.create<arith::SelectOp>(
      awayFromZero, b.create<arith::SubIOp>(bits, splatConstant(b, i32, 1)),
      bits);
  Value inexact = b.create<arith::CmpFOp>(
      arith::CmpFPredicate::UNE,
      b.create<arith::ExtFOp>(
          x.getType(), b.create<arith::BitcastOp>(f32, truncated).getResult()),
      x);
  Value odd = b.create<arith::SelectOp>(
      inexact, b.create<arith::OrIOp>(truncated, splatConstant(b, i32, 1)),
      truncated);
  return b.create<arith::BitcastOp>(f32, odd);
}

/// f64 to a 16-bit float (f16 or bf16) through f32 rounded to odd, so that
/// it rounds once: SPIR-V has no bf16, and a Vulkan driver may convert f64
/// to f16 through f32 rounded to nearest (Mesa does), rounding twice.
/// Null for other ops.
static Value expandF64ToHalf(ImplicitLocOpBuilder &b, Operation *op) {
  auto trunc = dyn_cast<arith::TruncFOp>(op);
  if (!trunc || !getElementTypeOrSelf(trunc.getIn().getType()).isF64() ||
      getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() != 16)
    return {};
  return b.create<arith::TruncFOp>(trunc.getType(),
                                   roundToOddF32(b, trunc.getIn()));
}

/// Conversions to and from bf16 become conversions through f32, rounding
/// once; left out are f32 <-> bf16, which MLIR's bf16 expansion handles, and
/// f64 -> bf16 (expandF64ToHalf).
static Value expandBF16Conversion(ImplicitLocOpBuilder &b, Operation *op) {
  Type result = op->getResult(0).getType();
  Value operand = op->getOperand(0);
  Type source = operand.getType();
  Type f32 = withElementType(source, b.getF32Type());
  Type f64 = withElementType(source, b.getF64Type());
  bool toBF16 = getElementTypeOrSelf(result).isBF16();
  bool fromBF16 = getElementTypeOrSelf(source).isBF16();
  Type f32Result = withElementType(result, b.getF32Type());

  if (fromBF16 && !toBF16) {
    if (getElementTypeOrSelf(result).isF32())
      return {};
    Value wide = b.create<arith::ExtFOp>(f32, operand);
    OperationState state(op->getLoc(), op->getName(), ValueRange{wide},
                         TypeRange{result}, op->getAttrs());
    return b.create(state)->getResult(0);
  }
  // To bf16, the rest are conversions from integers (from floats: MLIR's
  // expansion and expandF64ToHalf).
  if (!toBF16 || !isa<arith::SIToFPOp, arith::UIToFPOp>(op))
    return {};
  unsigned width = getElementTypeOrSelf(source).getIntOrFloatBitWidth();
  bool isSigned = isa<arith::SIToFPOp>(op);
  auto convert = [&](Type to) -> Value {
    if (isSigned)
      return b.create<arith::SIToFPOp>(to, operand);
    return b.create<arith::UIToFPOp>(to, operand);
  };
  // Up to 16 bits convert to f32 exactly, 32 bits to f64 exactly; 64 bits
  // round to f64 first (docs/codegen.md).
  if (width <= 16)
    return b.create<arith::TruncFOp>(result, convert(f32Result));
  return b.create<arith::TruncFOp>(result, roundToOddF32(b, convert(f64)));
}

/// The f64 builtin that `op` computes, from arithmetic, or null.
static Value expandF64Builtin(ImplicitLocOpBuilder &b, Operation *op) {
  if (!isF64(op))
    return {};
  Value x = op->getOperand(0);
  if (isa<math::ExpOp>(op))
    return buildExpF64(b, x);
  if (isa<math::LogOp>(op))
    return buildLogF64(b, x);
  if (isa<math::TanhOp>(op))
    return buildTanhF64(b, x);
  if (isa<math::SinhOp>(op))
    return buildSinhF64(b, x);
  if (isa<math::CoshOp>(op))
    return buildCoshF64(b, x);
  if (isa<math::SinOp>(op))
    return buildSinF64(b, x);
  if (isa<math::CosOp>(op))
    return buildCosF64(b, x);
  if (isa<math::TanOp>(op))
    return buildTanF64(b, x);
  if (isa<math::ErfOp>(op))
    return buildErfF64(b, x);
  return {};
}

/// The math builtins and bf16 conversions rewritten by walking (each op once:
/// the expansions contain the ops they replace).
static void expandByWalk(gpu::GPUModuleOp kernels) {
  SmallVector<Operation *> ops;
  kernels.walk([&](Operation *op) {
    if (isa<math::PowFOp, math::Atan2Op, math::AsinOp, math::AcosOp,
            math::AtanOp, math::ExpOp, math::LogOp, math::TanhOp, math::SinhOp,
            math::CoshOp, math::SinOp, math::CosOp, math::TanOp, math::ErfOp,
            arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::FPToSIOp, arith::FPToUIOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    ImplicitLocOpBuilder b(op->getLoc(), op);
    Value replacement;
    if (auto pow = dyn_cast<math::PowFOp>(op))
      replacement = expandPow(b, pow.getLhs(), pow.getRhs());
    else if (auto atan2 = dyn_cast<math::Atan2Op>(op))
      replacement = expandAtan2(b, atan2.getLhs(), atan2.getRhs());
    else if (isa<math::AsinOp, math::AcosOp, math::AtanOp>(op))
      replacement = expandInverseTrigonometric(b, op);
    else if (isa<math::ExpOp, math::LogOp, math::TanhOp, math::SinhOp,
                 math::CoshOp, math::SinOp, math::CosOp, math::TanOp,
                 math::ErfOp>(op))
      replacement = expandF64Builtin(b, op);
    else if (!(replacement = expandF64ToHalf(b, op)))
      replacement = expandBF16Conversion(b, op);
    if (!replacement)
      continue;
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

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
/// logical pointer"); the scalars are what a driver vectorises anyway.
static void scalarizeVectorAccesses(gpu::GPUModuleOp kernels) {
  SmallVector<Operation *> accesses;
  kernels.walk([&](Operation *op) {
    if (isa<vector::LoadOp, vector::StoreOp>(op))
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
           ++i)
        b.create<memref::StoreOp>(
            built ? built.getElements()[i]
                  : Value(b.create<vector::ExtractOp>(vector, i)),
            store.getBase(), offsetIndex(b, store.getIndices().back(), i));
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

/// The type a value has in the SPIR-V module: bf16 is stored as its bits,
/// and an empty buffer gets one (never accessed) element, as SPIR-V has no
/// arrays of length 0.
static Type storageType(Type type) {
  Builder b(type.getContext());
  if (type.isBF16())
    return b.getI16Type();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    SmallVector<int64_t> shape(memref.getShape());
    if (shape.size() == 1 && shape[0] == 0)
      shape[0] = 1;
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

/// `x` (f32) rounded to f16 to nearest, ties to even, from its bits: Vulkan
/// lets a device convert f32 to f16 rounding to nearest or toward zero (and
/// NVIDIA's driver does not round to nearest), while the language rounds to
/// nearest like the reference. The normal range rebiases the exponent and
/// rounds at bit 13 with integer adds; the subnormal range lets an f32 add of
/// 0.5 (correctly rounded in Vulkan) do the rounding; overflow becomes inf
/// and NaN stays a quiet NaN.
static Value roundToHalf(ImplicitLocOpBuilder &b, Value x, Type halfType) {
  Type i32 = withElementType(x.getType(), b.getI32Type());
  Type i16 = withElementType(x.getType(), b.getI16Type());
  auto constant = [&](uint32_t value) {
    return b.create<arith::ConstantOp>(
        i32, b.getIntegerAttr(getElementTypeOrSelf(i32), value));
  };
  auto below = [&](Value lhs, uint32_t bound) {
    return b.create<arith::CmpIOp>(arith::CmpIPredicate::ult, lhs,
                                   constant(bound));
  };
  Value bits = b.create<arith::BitcastOp>(i32, x);
  Value sign = b.create<arith::AndIOp>(
      b.create<arith::ShRUIOp>(bits, constant(16)), constant(0x8000));
  Value magnitude = b.create<arith::AndIOp>(bits, constant(0x7fffffff));
  Value mantissaTop = b.create<arith::ShRUIOp>(magnitude, constant(13));

  // Normal: exponent bias 127 -> 15 (adding 0xc8000000 subtracts 112 << 23),
  // plus 0xfff and the lowest kept bit to round half to even.
  Value normal = b.create<arith::ShRUIOp>(
      b.create<arith::AddIOp>(
          b.create<arith::AddIOp>(magnitude, constant(0xc8000fff)),
          b.create<arith::AndIOp>(mantissaTop, constant(1))),
      constant(13));
  // Subnormal (below 2^-14): 0.5 + |x| puts the f16 subnormal's bits at the
  // bottom of 0.5's mantissa.
  Value shifted = b.create<arith::AddFOp>(
      b.create<arith::BitcastOp>(x.getType(), magnitude),
      splatConstant(b, x.getType(), 0.5));
  Value subnormal = b.create<arith::SubIOp>(
      b.create<arith::BitcastOp>(i32, shifted), constant(0x3f000000));
  // Inf stays inf; NaN keeps the top of its payload and is made quiet.
  Value nan = b.create<arith::OrIOp>(
      constant(0x7e00), b.create<arith::AndIOp>(mantissaTop, constant(0x3ff)));
  Value infOrNan = b.create<arith::SelectOp>(below(magnitude, 0x7f800001),
                                             constant(0x7c00), nan);

  Value half = b.create<arith::SelectOp>(
      below(magnitude, 0x38800000), subnormal,
      b.create<arith::SelectOp>(
          below(magnitude, 0x477ff000), normal,
          b.create<arith::SelectOp>(below(magnitude, 0x7f800000),
                                    constant(0x7c00), infOrNan)));
  return b.create<arith::BitcastOp>(
      halfType,
      b.create<arith::TruncIOp>(i16, b.create<arith::OrIOp>(half, sign))
          .getResult());
}

/// Every f32 -> f16 conversion rounds to nearest even (roundToHalf).
static void roundHalvesToNearest(gpu::GPUModuleOp kernels) {
  SmallVector<arith::TruncFOp> truncs;
  kernels.walk([&](arith::TruncFOp trunc) {
    if (getElementTypeOrSelf(trunc.getIn().getType()).isF32() &&
        getElementTypeOrSelf(trunc.getType()).isF16())
      truncs.push_back(trunc);
  });
  for (arith::TruncFOp trunc : truncs) {
    ImplicitLocOpBuilder b(trunc.getLoc(), trunc);
    trunc.replaceAllUsesWith(roundToHalf(b, trunc.getIn(), trunc.getType()));
    trunc.erase();
  }
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

LogicalResult prepareKernelsForSPIRV(gpu::GPUModuleOp kernels) {
  expandByWalk(kernels);
  roundHalvesToNearest(kernels);
  scalarizeVectorAccesses(kernels);
  guardLoopsThatMayNotRun(kernels);
  RewritePatternSet patterns(kernels.getContext());
  // f32 only: MLIR's rational approximations of tanh (GLSL's Tanh may be
  // computed from exponentials, losing all precision near zero and giving
  // NaN for large operands) and of erf (GLSL.std.450 has none).
  populatePolynomialApproximateTanhPattern(patterns);
  populatePolynomialApproximateErfPattern(patterns);
  arith::populateExpandBFloat16Patterns(patterns);
  if (failed(applyPatternsAndFoldGreedily(kernels, std::move(patterns))))
    return kernels.emitError("the rewriting for SPIR-V did not converge");
  // Last: nothing may fold a constant zero back in.
  keepZeroOperandsExact(kernels);
  retypeForStorage(kernels);
  setDescriptorBindings(kernels);
  return success();
}

} // namespace tilec
