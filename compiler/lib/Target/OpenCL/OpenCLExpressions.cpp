//===- OpenCLExpressions.cpp - arith, math and gpu ids as C expressions ---===//
//
// Every op here has one result and becomes the initialiser of its variable,
// so an expression is never nested in another: operands are atoms (names or
// parenthesised literals) and only the casts inside one expression need
// care. Signless integers are signed C types; the unsigned ops cast their
// operands to the unsigned type of the same width, and arithmetic that may
// wrap (no `nsw` flag) runs in an unsigned type, where C defines wrapping.
// Fast-math flags are ignored: nothing is relaxed.
//
//===----------------------------------------------------------------------===//

#include "OpenCLEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tilec::opencl_c {

namespace {

bool isHalfOrBF16(Type type) { return type.isF16() || type.isBF16(); }

/// The OpenCL builtin for a float math op, or null.
const char *floatBuiltin(StringRef mathOp) {
  return llvm::StringSwitch<const char *>(mathOp)
      .Case("absf", "fabs")
      .Case("acos", "acos")
      .Case("acosh", "acosh")
      .Case("asin", "asin")
      .Case("asinh", "asinh")
      .Case("atan", "atan")
      .Case("atan2", "atan2")
      .Case("atanh", "atanh")
      .Case("cbrt", "cbrt")
      .Case("ceil", "ceil")
      .Case("copysign", "copysign")
      .Case("cos", "cos")
      .Case("cosh", "cosh")
      .Case("erf", "erf")
      .Case("exp", "exp")
      .Case("exp2", "exp2")
      .Case("expm1", "expm1")
      .Case("floor", "floor")
      .Case("fma", "fma")
      .Case("log", "log")
      .Case("log10", "log10")
      .Case("log1p", "log1p")
      .Case("log2", "log2")
      .Case("powf", "pow")
      .Case("round", "round")
      // The default rounding mode of OpenCL C is to nearest even.
      .Case("roundeven", "rint")
      .Case("rsqrt", "rsqrt")
      .Case("sin", "sin")
      .Case("sinh", "sinh")
      .Case("sqrt", "sqrt")
      .Case("tan", "tan")
      .Case("tanh", "tanh")
      .Case("trunc", "trunc")
      .Default(nullptr);
}

InFlightDiagnostic unsupported(Operation *op, StringRef why) {
  return op->emitError() << "'" << op->getName() << "' " << why
                         << "; the OpenCL printer cannot translate it";
}

} // namespace

std::string KernelPrinter::operand(Value value) const {
  auto name = names.find(value);
  assert(name != names.end() && "operand printed before its definition");
  return name->second;
}

std::string KernelPrinter::useHelper(Helper helper) {
  requirements.helpers.set(static_cast<unsigned>(helper));
  if (helper == Helper::RoundToBF16)
    requirements.helpers.set(static_cast<unsigned>(Helper::FloatToBF16));
  return helperName(helper);
}

std::string KernelPrinter::roundToHalfOrBF16(StringRef value, Type to) {
  return useHelper(to.isF16() ? Helper::RoundToHalf : Helper::RoundToBF16) +
         "(" + value.str() + ")";
}

std::string KernelPrinter::integerValue(Value value, bool asUnsigned) {
  std::string atom = operand(value);
  if (integerWidth(value.getType()) == 1)
    return asUnsigned ? atom : "(-(int)" + atom + ")";
  return asUnsigned ? "(" + unsignedType(value.getType()) + ")" + atom : atom;
}

FailureOr<std::string> KernelPrinter::translateExpression(Operation *op) {
  auto gpuIndex = [&](StringRef builtin, gpu::Dimension dim) {
    return "(" + std::string(indexBits == 32 ? "int" : "long") + ")" +
           builtin.str() + "(" + std::to_string(static_cast<unsigned>(dim)) +
           ")";
  };
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    return gpuIndex("get_local_id", id.getDimension());
  if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    return gpuIndex("get_group_id", id.getDimension());
  if (auto id = dyn_cast<gpu::BlockDimOp>(op))
    return gpuIndex("get_local_size", id.getDimension());
  if (auto id = dyn_cast<gpu::GridDimOp>(op))
    return gpuIndex("get_num_groups", id.getDimension());
  if (isa<vector::VectorDialect>(op->getDialect()))
    return translateVector(op);
  // Vectors are only loaded, stored, built and taken apart (docs/kernel-ir.md).
  auto isVector = [](Type type) { return isa<VectorType>(type); };
  if (llvm::any_of(op->getOperandTypes(), isVector) ||
      llvm::any_of(op->getResultTypes(), isVector))
    return unsupported(op, "on vectors is not part of the kernel IR");
  if (isa<math::MathDialect>(op->getDialect()))
    return translateMath(op);
  if (isa<arith::ArithDialect>(op->getDialect()))
    return translateArith(op);
  return unsupported(op, "is not part of the kernel IR");
}

FailureOr<std::string> KernelPrinter::translateArith(Operation *op) {
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return operand(select.getCondition()) + " ? " +
           operand(select.getTrueValue()) + " : " +
           operand(select.getFalseValue());
  if (isa<arith::CmpIOp, arith::CmpFOp>(op))
    return translateCompare(op);
  if (op->getNumOperands() == 1 || isa<arith::NegFOp>(op))
    return translateCast(op);
  if (op->getNumOperands() == 2 && op->getNumResults() == 1) {
    Type type = op->getResult(0).getType();
    if (type.isIntOrIndex())
      return translateIntegerBinary(op);
    if (isa<FloatType>(type))
      return translateFloatBinary(op);
  }
  return unsupported(op, "is not part of the kernel IR");
}

FailureOr<std::string> KernelPrinter::translateIntegerBinary(Operation *op) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Type type = op->getResult(0).getType();
  std::string a = operand(lhs), b = operand(rhs);
  if (auto symbol =
          llvm::TypeSwitch<Operation *, const char *>(op)
              .Case([](arith::AndIOp) { return " & "; })
              .Case([](arith::OrIOp) { return " | "; })
              .Case([](arith::XOrIOp) { return " ^ "; })
              .Default([](Operation *) -> const char * { return nullptr; }))
    return a + symbol + b;
  if (integerWidth(type) == 1)
    return unsupported(op, "on i1 is not part of the kernel IR");

  FailureOr<std::string> cType = valueType(op->getLoc(), type);
  if (failed(cType))
    return failure();
  std::string castTo = "(" + *cType + ")";
  std::string ua = integerValue(lhs, true), ub = integerValue(rhs, true);
  auto wrapping = [&](const char *symbol) {
    if (cast<arith::ArithIntegerOverflowFlagsInterface>(op).hasNoSignedWrap())
      return a + symbol + b;
    std::string wide = "(" + wrappingType(type) + ")";
    return castTo + "(" + wide + a + symbol + wide + b + ")";
  };
  // Quotient and remainder truncate toward zero; these adjust them.
  std::string remainderNonZero = "(" + a + " % " + b + " != 0)";
  std::string signsDiffer = "((" + a + " % " + b + " < 0) != (" + b + " < 0))";
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](arith::AddIOp) { return wrapping(" + "); })
      .Case([&](arith::SubIOp) { return wrapping(" - "); })
      .Case([&](arith::MulIOp) { return wrapping(" * "); })
      .Case([&](arith::ShLIOp) {
        return castTo + "((" + wrappingType(type) + ")" + a + " << " + b + ")";
      })
      .Case([&](arith::DivSIOp) { return a + " / " + b; })
      .Case([&](arith::RemSIOp) { return a + " % " + b; })
      .Case([&](arith::ShRSIOp) { return a + " >> " + b; })
      .Case(
          [&](arith::DivUIOp) { return castTo + "(" + ua + " / " + ub + ")"; })
      .Case(
          [&](arith::RemUIOp) { return castTo + "(" + ua + " % " + ub + ")"; })
      .Case(
          [&](arith::ShRUIOp) { return castTo + "(" + ua + " >> " + b + ")"; })
      .Case([&](arith::CeilDivSIOp) {
        return a + " / " + b + " + (" + remainderNonZero + " && !" +
               signsDiffer + ")";
      })
      .Case([&](arith::FloorDivSIOp) {
        return a + " / " + b + " - (" + remainderNonZero + " && " +
               signsDiffer + ")";
      })
      .Case([&](arith::CeilDivUIOp) {
        return castTo + "(" + ua + " / " + ub + " + (" + ua + " % " + ub +
               " != 0))";
      })
      .Case(
          [&](arith::MaxSIOp) { return a + " > " + b + " ? " + a + " : " + b; })
      .Case(
          [&](arith::MinSIOp) { return a + " < " + b + " ? " + a + " : " + b; })
      .Case([&](arith::MaxUIOp) {
        return ua + " > " + ub + " ? " + a + " : " + b;
      })
      .Case([&](arith::MinUIOp) {
        return ua + " < " + ub + " ? " + a + " : " + b;
      })
      .Default([&](Operation *) {
        return unsupported(op, "is not part of the kernel IR");
      });
}

FailureOr<std::string> KernelPrinter::translateFloatBinary(Operation *op) {
  Type type = op->getResult(0).getType();
  if (isHalfOrBF16(type))
    return unsupported(op, "on f16 or bf16 is not part of the kernel IR "
                           "(arithmetic runs in f32)");
  std::string a = operand(op->getOperand(0)), b = operand(op->getOperand(1));
  bool isDouble = type.isF64();
  auto call = [&](StringRef function) {
    return function.str() + "(" + a + ", " + b + ")";
  };
  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](arith::AddFOp) { return a + " + " + b; })
      .Case([&](arith::SubFOp) { return a + " - " + b; })
      .Case([&](arith::MulFOp) { return a + " * " + b; })
      .Case([&](arith::DivFOp) { return a + " / " + b; })
      .Case([&](arith::RemFOp) { return call("fmod"); })
      // OpenCL's fmax/fmin return the other operand for one NaN, as maxnumf.
      .Case([&](arith::MaxNumFOp) { return call("fmax"); })
      .Case([&](arith::MinNumFOp min) {
        // NVIDIA's OpenCL compiler (driver 580) makes relu(fmin(x, 1)) a
        // saturate, which maps a NaN x to 0 where fmin gives 1 (difftest seed
        // 12038693); behind the select on isnan the pattern does not match.
        Value x = min.getLhs(), limit = min.getRhs();
        if (matchPattern(x, m_OneFloat()))
          std::swap(x, limit);
        if (!matchPattern(limit, m_OneFloat()))
          return call("fmin");
        std::string value = operand(x), one = operand(limit);
        return "isnan(" + value + ") ? " + one + " : fmin(" + value + ", " +
               one + ")";
      })
      .Case([&](arith::MaximumFOp) {
        return call(
            useHelper(isDouble ? Helper::MaximumF64 : Helper::MaximumF32));
      })
      .Case([&](arith::MinimumFOp) {
        return call(
            useHelper(isDouble ? Helper::MinimumF64 : Helper::MinimumF32));
      })
      .Default([&](Operation *) {
        return unsupported(op, "is not part of the kernel IR");
      });
}

FailureOr<std::string> KernelPrinter::translateCompare(Operation *op) {
  std::string a = operand(op->getOperand(0)), b = operand(op->getOperand(1));
  auto infix = [&](StringRef lhs, StringRef symbol, StringRef rhs) {
    return (lhs + " " + symbol + " " + rhs).str();
  };
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    bool isUnsigned = false;
    const char *symbol = nullptr;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return infix(a, "==", b);
    case arith::CmpIPredicate::ne:
      return infix(a, "!=", b);
    case arith::CmpIPredicate::slt:
      symbol = "<";
      break;
    case arith::CmpIPredicate::sle:
      symbol = "<=";
      break;
    case arith::CmpIPredicate::sgt:
      symbol = ">";
      break;
    case arith::CmpIPredicate::sge:
      symbol = ">=";
      break;
    case arith::CmpIPredicate::ult:
      symbol = "<", isUnsigned = true;
      break;
    case arith::CmpIPredicate::ule:
      symbol = "<=", isUnsigned = true;
      break;
    case arith::CmpIPredicate::ugt:
      symbol = ">", isUnsigned = true;
      break;
    case arith::CmpIPredicate::uge:
      symbol = ">=", isUnsigned = true;
      break;
    }
    return infix(integerValue(cmp.getLhs(), isUnsigned), symbol,
                 integerValue(cmp.getRhs(), isUnsigned));
  }

  // Ordered predicates are false on NaN, as C's relational operators;
  // unordered ones are the negation of the opposite ordered one.
  auto cmp = cast<arith::CmpFOp>(op);
  std::string lessOrGreater = infix(a, "<", b) + " || " + infix(a, ">", b);
  std::string eitherNaN = "isnan(" + a + ") || isnan(" + b + ")";
  switch (cmp.getPredicate()) {
  case arith::CmpFPredicate::AlwaysFalse:
    return std::string("false");
  case arith::CmpFPredicate::AlwaysTrue:
    return std::string("true");
  case arith::CmpFPredicate::OEQ:
    return infix(a, "==", b);
  case arith::CmpFPredicate::OGT:
    return infix(a, ">", b);
  case arith::CmpFPredicate::OGE:
    return infix(a, ">=", b);
  case arith::CmpFPredicate::OLT:
    return infix(a, "<", b);
  case arith::CmpFPredicate::OLE:
    return infix(a, "<=", b);
  case arith::CmpFPredicate::ONE:
    return lessOrGreater;
  case arith::CmpFPredicate::ORD:
    return "!(" + eitherNaN + ")";
  case arith::CmpFPredicate::UEQ:
    return "!(" + lessOrGreater + ")";
  case arith::CmpFPredicate::UGT:
    return "!(" + infix(a, "<=", b) + ")";
  case arith::CmpFPredicate::UGE:
    return "!(" + infix(a, "<", b) + ")";
  case arith::CmpFPredicate::ULT:
    return "!(" + infix(a, ">=", b) + ")";
  case arith::CmpFPredicate::ULE:
    return "!(" + infix(a, ">", b) + ")";
  case arith::CmpFPredicate::UNE:
    return infix(a, "!=", b);
  case arith::CmpFPredicate::UNO:
    return eitherNaN;
  }
  return unsupported(op, "has an unknown predicate");
}

FailureOr<std::string> KernelPrinter::translateCast(Operation *op) {
  Value input = op->getOperand(0);
  Type from = input.getType(), to = op->getResult(0).getType();
  std::string a = operand(input);
  FailureOr<std::string> cType = valueType(op->getLoc(), to);
  if (failed(cType) || failed(valueType(op->getLoc(), from)))
    return failure();
  std::string castTo = "(" + *cType + ")";

  // Between integer types (index included): truncation keeps the low bits,
  // extension reads the input as signed or unsigned.
  auto convertInteger = [&](bool asUnsigned) -> std::string {
    unsigned fromWidth = integerWidth(from), toWidth = integerWidth(to);
    if (toWidth == 1)
      return fromWidth == 1 ? a : "(" + a + " & 1) != 0";
    if (fromWidth == 1 || toWidth > fromWidth)
      return castTo + integerValue(input, asUnsigned);
    return castTo + a;
  };
  // To f16/bf16: rounded once, from a float that holds the integer exactly
  // (16 bits or less) or its round-to-odd value.
  auto intToFloat = [&](bool asUnsigned) -> FailureOr<std::string> {
    std::string value = integerValue(input, asUnsigned);
    if (!isHalfOrBF16(to))
      return castTo + value;
    unsigned width = integerWidth(from);
    if (width <= 16)
      return roundToHalfOrBF16("(float)" + value, to);
    Helper odd = width <= 32 ? (asUnsigned ? Helper::OddFloatFromUInt
                                           : Helper::OddFloatFromInt)
                             : (asUnsigned ? Helper::OddFloatFromULong
                                           : Helper::OddFloatFromLong);
    return roundToHalfOrBF16(useHelper(odd) + "(" + value + ")", to);
  };

  return llvm::TypeSwitch<Operation *, FailureOr<std::string>>(op)
      .Case([&](arith::NegFOp) -> FailureOr<std::string> {
        // Negation is exact, in every format.
        return "-" + a;
      })
      .Case<arith::ExtSIOp, arith::IndexCastOp>(
          [&](Operation *) { return convertInteger(false); })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>(
          [&](Operation *) { return convertInteger(true); })
      .Case([&](arith::TruncIOp) { return convertInteger(false); })
      .Case([&](arith::SIToFPOp) { return intToFloat(false); })
      .Case([&](arith::UIToFPOp) { return intToFloat(true); })
      .Case([&](arith::FPToSIOp) -> FailureOr<std::string> {
        if (integerWidth(to) == 1)
          return unsupported(op, "to i1 is not part of the kernel IR");
        return castTo + a;
      })
      .Case([&](arith::FPToUIOp) -> FailureOr<std::string> {
        if (integerWidth(to) == 1)
          return unsupported(op, "to i1 is not part of the kernel IR");
        return castTo + "(" + unsignedType(to) + ")" + a;
      })
      // Widening is exact: f16 and bf16 values are floats already.
      .Case([&](arith::ExtFOp) -> FailureOr<std::string> {
        return to.isF64() ? castTo + a : a;
      })
      .Case([&](arith::TruncFOp) -> FailureOr<std::string> {
        if (to.isF32())
          return castTo + a;
        if (from.isF64())
          return roundToHalfOrBF16(
              useHelper(Helper::OddFloatFromDouble) + "(" + a + ")", to);
        return roundToHalfOrBF16(a, to);
      })
      .Case([&](arith::BitcastOp) -> FailureOr<std::string> {
        if (to.isF32() || to.isF64() ||
            ((from.isF32() || from.isF64()) && to.isSignlessInteger()))
          return "as_" + *cType + "(" + a + ")";
        return unsupported(op, "is only supported between f32 and i32 or "
                               "f64 and i64");
      })
      .Default([&](Operation *) {
        return unsupported(op, "is not part of the kernel IR");
      });
}

FailureOr<std::string> KernelPrinter::translateMath(Operation *op) {
  Type type = op->getResult(0).getType();
  FailureOr<std::string> cType = valueType(op->getLoc(), type);
  if (failed(cType))
    return failure();
  std::string arguments;
  for (Value argument : op->getOperands())
    arguments += (arguments.empty() ? "" : ", ") + operand(argument);

  StringRef name = op->getName().stripDialect();
  if (const char *builtin = floatBuiltin(name)) {
    if (isHalfOrBF16(type))
      return unsupported(op, "on f16 or bf16 is not part of the kernel IR "
                             "(arithmetic runs in f32)");
    return std::string(builtin) + "(" + arguments + ")";
  }
  std::string castTo = "(" + *cType + ")";
  if (auto power = dyn_cast<math::FPowIOp>(op)) {
    if (!power.getRhs().getType().isInteger(32))
      return unsupported(op, "with an exponent other than i32");
    return "pown(" + arguments + ")";
  }
  // OpenCL's abs returns the unsigned type. The minimum is its own absolute
  // value (abs(MIN) = MIN), taken out before abs(): PoCL inlines abs() as
  // LLVM's abs with the minimum poison, and sign(abs(INT_MIN)) came out 1
  // (difftest seed 10208877). A select of -x would become that intrinsic
  // too, which Oclgrind cannot run.
  if (isa<math::AbsIOp>(op)) {
    std::string x = integerValue(op->getOperand(0), false);
    unsigned width = type.getIntOrFloatBitWidth();
    std::string minimum =
        "(" + x + " == " +
        printIntegerLiteral(llvm::APInt::getSignedMinValue(width), type,
                            indexBits) +
        ")";
    return "(" + minimum + " ? " + x + " : " + castTo + "abs(" + x + "))";
  }
  if (isa<math::CtPopOp>(op))
    return castTo + "popcount(" + arguments + ")";
  if (isa<math::CountLeadingZerosOp>(op))
    return castTo + "clz(" + arguments + ")";
  if (isa<math::CountTrailingZerosOp>(op)) {
    // OpenCL 1.2 has no ctz: the bits below the lowest set one, counted
    // (all of them for zero).
    std::string u = "(" + unsignedType(type) + ")";
    std::string x = integerValue(op->getOperand(0), true);
    return castTo + "popcount(" + u + "((" + x + " & -" + x + ") - 1))";
  }
  return unsupported(op, "is not part of the kernel IR");
}

} // namespace tilec::opencl_c
