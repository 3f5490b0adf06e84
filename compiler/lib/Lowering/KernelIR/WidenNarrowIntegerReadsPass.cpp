//===- WidenNarrowIntegerReadsPass.cpp - tile-widen-narrow-integer-reads --===//
//
// NVIDIA's compilers hold an i8 or i16 value in a 32-bit register and track
// whether its high bits are a sign extension. For the negation of the
// minimum they get it wrong: -(-32768) as i16 leaves +32768 in the register,
// and a sign extension, a comparison or a conversion that follows reads it
// as such (driver 580, OpenCL and Vulkan; difftest seeds 10416164, 10522157
// and others). Vulkan's also turned a sign extension of an i8 followed by an
// unsigned conversion to float into a signed conversion (seed 10208251).
// Addition, multiplication and the bitwise operations are not affected: the
// low bits of their results do not depend on the high bits of the operands.
//
// So every operation whose result depends on the value of a narrow operand
// reads it widened to 32 bits, and the sign extension is written as
// (zext(x) ^ 2^(n-1)) - 2^(n-1): a zero extension is an AND, which no
// compiler can take for granted. Measured on the H200 (2026-11-28), this form
// gave -32768 on both of NVIDIA's backends, where a plain cast, convert_int,
// a shift pair, a guard of the minimum, OpSNegate and ~x + 1 did not. The
// results are the same on every device; the cost is two integer operations
// per read of a narrow value, which only narrow programs pay.
//
//===----------------------------------------------------------------------===//

#include "PassDetail.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace tilec;

namespace tilec {
#define GEN_PASS_DECL_TILEWIDENNARROWINTEGERREADS
#define GEN_PASS_DEF_TILEWIDENNARROWINTEGERREADS
#include "tilec/Lowering/Passes.h.inc"
} // namespace tilec

namespace {

/// Whether `type` (scalar or vector) holds i8 or i16.
bool isNarrow(Type type) {
  auto element = dyn_cast<IntegerType>(getElementTypeOrSelf(type));
  return element && (element.getWidth() == 8 || element.getWidth() == 16);
}

/// `like`'s shape (scalar or vector) with the element type `element`.
Type withElement(Type like, Type element) {
  if (auto vector = dyn_cast<VectorType>(like))
    return vector.clone(element);
  return element;
}

/// An integer constant of `type` (scalar, or a splat of a vector).
Value integerConstant(ImplicitLocOpBuilder &b, Type type, int64_t value) {
  auto element = cast<IntegerType>(getElementTypeOrSelf(type));
  APInt bits(element.getWidth(), value, /*isSigned=*/true);
  if (auto vector = dyn_cast<VectorType>(type))
    return b.create<arith::ConstantOp>(DenseElementsAttr::get(vector, bits));
  return b.create<arith::ConstantOp>(IntegerAttr::get(type, bits));
}

/// A float constant of `type` (scalar, or a splat of a vector).
Value floatConstant(ImplicitLocOpBuilder &b, Type type, double value) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  auto attribute = FloatAttr::get(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return b.create<arith::ConstantOp>(
        DenseElementsAttr::get(vector, attribute.getValue()));
  return b.create<arith::ConstantOp>(attribute);
}

/// The narrow `value` extended to `wideElement` (scalar or vector as
/// `value`): with zeros, or as a signed value, computed from the zero
/// extension. Built right after `value` is defined, once per extension.
class Widener {
public:
  Value widen(Value value, Type wideElement, bool isSigned) {
    Type wide = withElement(value.getType(), wideElement);
    Value &extended = extensions[{value, wide, unsigned(isSigned)}];
    if (extended)
      return extended;
    ImplicitLocOpBuilder b(value.getLoc(), value.getContext());
    if (!isSigned) {
      if (Operation *definition = value.getDefiningOp())
        b.setInsertionPointAfter(definition);
      else
        b.setInsertionPointToStart(value.getParentBlock());
      return extended = b.create<arith::ExtUIOp>(wide, value);
    }
    Value zeroExtended = widen(value, wideElement, /*isSigned=*/false);
    b.setInsertionPointAfter(zeroExtended.getDefiningOp());
    unsigned width =
        getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
    Value signBit = integerConstant(b, wide, int64_t(1) << (width - 1));
    Value flipped = b.create<arith::XOrIOp>(zeroExtended, signBit);
    // Looked up again: the recursive call may have grown the map.
    return extensions[{value, wide, 1u}] =
               b.create<arith::SubIOp>(flipped, signBit);
  }

private:
  llvm::DenseMap<std::tuple<Value, Type, unsigned>, Value> extensions;
};

/// Whether `predicate` compares as signed integers.
bool isSignedPredicate(arith::CmpIPredicate predicate) {
  switch (predicate) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::sge:
    return true;
  default:
    return false;
  }
}

/// How `op` reads its narrow operands: std::nullopt when only their low
/// bits matter (or `op` has none), else whether as signed values.
std::optional<bool> readsNarrowValue(Operation *op) {
  if (!llvm::any_of(op->getOperandTypes(), isNarrow))
    return std::nullopt;
  return TypeSwitch<Operation *, std::optional<bool>>(op)
      .Case<arith::ExtSIOp, arith::SIToFPOp, arith::IndexCastOp, arith::DivSIOp,
            arith::RemSIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
            arith::ShRSIOp, arith::MaxSIOp, arith::MinSIOp, math::AbsIOp>(
          [](auto) { return true; })
      .Case<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp, arith::ShRUIOp,
            arith::MaxUIOp, arith::MinUIOp>([](auto) { return false; })
      .Case([](arith::CmpIOp compare) {
        return isSignedPredicate(compare.getPredicate());
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Rewrites `op` to read its narrow operands widened: a sign extension
/// becomes the written-out extension, any other op runs on i32 operands,
/// and a narrow result is truncated back.
void widenReads(Widener &widener, Operation *op, bool isSigned) {
  if (auto extension = dyn_cast<arith::ExtSIOp>(op)) {
    Type element = getElementTypeOrSelf(extension.getType());
    extension.replaceAllUsesWith(
        widener.widen(extension.getIn(), element, /*isSigned=*/true));
    extension.erase();
    return;
  }
  ImplicitLocOpBuilder b(op->getLoc(), op);
  Type i32 = b.getI32Type();
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isNarrow(operand.get().getType()))
      continue;
    // A shift amount is never negative: the lowering takes it modulo the
    // width.
    bool isShiftAmount =
        isa<arith::ShRSIOp>(op) && operand.getOperandNumber() == 1;
    operand.set(widener.widen(operand.get(), i32, isSigned && !isShiftAmount));
  }
  b.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    if (!isNarrow(result.getType()))
      continue;
    Type narrow = result.getType();
    result.setType(withElement(narrow, i32));
    Value truncated = b.create<arith::TruncIOp>(narrow, result);
    result.replaceAllUsesExcept(truncated, truncated.getDefiningOp());
  }
}

/// The sign extension of a narrow value that `conversion` converts to float
/// as unsigned, or null. NVIDIA's Vulkan compiler converted it as signed:
/// as_uint(x, 32) of an i8 x = -6 became -6.0, not 4294967290.0 (seed
/// 10208251), with either form of the sign extension.
arith::ExtSIOp getExtendedNarrow(arith::UIToFPOp conversion) {
  auto extension = conversion.getIn().getDefiningOp<arith::ExtSIOp>();
  return extension && isNarrow(extension.getIn().getType()) ? extension
                                                            : nullptr;
}

/// Rewrites uitofp(extsi(x)) of a narrow x to
/// select(x < 0, sitofp(x) + 2^w, sitofp(x)), w the extension's width,
/// computed in f32 for an f16 or bf16 result (where 2^16 overflows) and
/// rounded once to it: sitofp(x) and 2^w are exact, so the sum rounds once.
void convertExtendedNarrow(Widener &widener, arith::UIToFPOp conversion,
                           arith::ExtSIOp extension) {
  ImplicitLocOpBuilder b(conversion.getLoc(), conversion);
  Value x = widener.widen(extension.getIn(), b.getI32Type(), true);
  Type result = conversion.getType();
  auto resultElement = cast<FloatType>(getElementTypeOrSelf(result));
  Type computed = resultElement.getWidth() < 32
                      ? withElement(result, b.getF32Type())
                      : result;
  Value value = b.create<arith::SIToFPOp>(computed, x);
  unsigned width =
      getElementTypeOrSelf(extension.getType()).getIntOrFloatBitWidth();
  Value wrapped = b.create<arith::AddFOp>(
      value, floatConstant(b, computed, std::ldexp(1.0, width)));
  Value negative = b.create<arith::CmpIOp>(arith::CmpIPredicate::slt, x,
                                           integerConstant(b, x.getType(), 0));
  Value converted = b.create<arith::SelectOp>(negative, wrapped, value);
  if (computed != result)
    converted = b.create<arith::TruncFOp>(result, converted);
  conversion.replaceAllUsesWith(converted);
  conversion.erase();
}

struct WidenNarrowIntegerReadsPass
    : public tilec::impl::TileWidenNarrowIntegerReadsBase<
          WidenNarrowIntegerReadsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<arith::UIToFPOp, arith::ExtSIOp>> conversions;
    SmallVector<std::pair<Operation *, bool>> reads;
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      kernel.walk([&](Operation *op) {
        if (auto conversion = dyn_cast<arith::UIToFPOp>(op))
          if (arith::ExtSIOp extension = getExtendedNarrow(conversion))
            conversions.emplace_back(conversion, extension);
        if (std::optional<bool> isSigned = readsNarrowValue(op))
          reads.emplace_back(op, *isSigned);
      });
    });
    Widener widener;
    for (auto [conversion, extension] : conversions)
      convertExtendedNarrow(widener, conversion, extension);
    for (auto [op, isSigned] : reads) {
      // A sign extension that only fed such conversions.
      if (isa<arith::ExtSIOp>(op) && op->use_empty()) {
        op->erase();
        continue;
      }
      widenReads(widener, op, isSigned);
    }
  }
};

} // namespace

std::unique_ptr<Pass> tilec::createWidenNarrowIntegerReadsPass() {
  return std::make_unique<WidenNarrowIntegerReadsPass>();
}
