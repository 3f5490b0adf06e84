//===- OpenCLEmitter.h - Internals of the OpenCL C printer ------*- C++ -*-===//
//
// The printer is one KernelPrinter per gpu.func, whose member functions are
// defined by concept across the target's files: OpenCLPrinter.cpp (kernels,
// statements, control flow, memory), OpenCLExpressions.cpp (arith, math and
// gpu id ops as C expressions), OpenCLVectors.cpp (vector ops),
// OpenCLTypes.cpp (C types and literals).
// What the whole program needs (fp64, helper functions) is gathered in
// ProgramRequirements while kernels print, then printed ahead of them.
//
// Values are represented in C as follows: signless integers as the signed C
// type of their width (the unsigned ops cast their operands), i1 as bool,
// index as int or long (tile.index_bits), f16 and bf16 as a float holding
// the value exactly (so that only loads, stores and truncf need to know the
// format), f32 as float and f64 as double, and vectors as the OpenCL vector
// types (float4, double2, int8, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_OPENCL_OPENCLEMITTER_H
#define TILEC_LIB_TARGET_OPENCL_OPENCLEMITTER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <bitset>
#include <string>

namespace mlir::scf {
class ForOp;
class IfOp;
} // namespace mlir::scf

namespace tilec::opencl_c {

/// Functions that a program defines once, before its kernels, when one of
/// them uses it. Declared in dependency order (a helper only calls earlier
/// ones).
enum class Helper : unsigned {
  RoundToHalf,
  FloatToBF16,
  RoundToBF16,
  MaximumF32,
  MinimumF32,
  MaximumF64,
  MinimumF64,
  OddFloatFromDouble,
  OddFloatFromInt,
  OddFloatFromUInt,
  OddFloatFromLong,
  OddFloatFromULong,
};
inline constexpr unsigned kNumHelpers = 12;

/// The C name of `helper`.
const char *helperName(Helper helper);
/// Prints the definition of `helper`.
void printHelper(Helper helper, llvm::raw_ostream &os);

/// Rewrites the vector arithmetic of `kernels` (math.fma on vectors, and the
/// vectors that scf.for loops carry) as scalar arithmetic a lane
/// (OpenCLLanes.cpp).
void splitVectorArithmetic(mlir::gpu::GPUModuleOp kernels);

/// What the kernels printed so far need from the program's preamble.
struct ProgramRequirements {
  bool usesFP64 = false;
  std::bitset<kNumHelpers> helpers;
};

/// Whether a memref in memory space `space` is workgroup (local) memory.
bool isWorkgroupSpace(mlir::Attribute space);

/// The spelling of integer and float literals (OpenCLTypes.cpp).
/// `value` of integer `type` (i1 as true/false); negative values are
/// parenthesised so that the literal is an atom in any expression.
std::string printIntegerLiteral(const llvm::APInt &value, mlir::Type type,
                                unsigned indexBits);
/// `value` of float `type`, exactly: f16, bf16 and f32 as float literals,
/// f64 as a double literal.
std::string printFloatLiteral(const llvm::APFloat &value, mlir::Type type);

/// Prints one gpu.func as a __kernel.
class KernelPrinter {
public:
  KernelPrinter(llvm::raw_ostream &os, unsigned indexBits,
                ProgramRequirements &requirements)
      : os(os), indexBits(indexBits), requirements(requirements) {}

  mlir::LogicalResult printKernel(mlir::gpu::GPUFuncOp kernel);

private:
  //===--- Statements (OpenCLPrinter.cpp) ---------------------------------===//
  mlir::LogicalResult printSignature(mlir::gpu::GPUFuncOp kernel);
  /// Prints every op of `block` but its terminator.
  mlir::LogicalResult printBlock(mlir::Block &block);
  mlir::LogicalResult printOperation(mlir::Operation *op);
  mlir::LogicalResult printFor(mlir::scf::ForOp loop);
  mlir::LogicalResult printIf(mlir::scf::IfOp branch);
  /// Assigns the operands of `yield` to `targets`, through temporaries when
  /// an operand is itself one of the targets (a swap of loop variables).
  mlir::LogicalResult printYield(mlir::Operation *yield,
                                 llvm::ArrayRef<std::string> targets);
  mlir::LogicalResult printLocalArray(mlir::Operation *alloc);
  mlir::LogicalResult printLoad(mlir::Operation *load);
  mlir::LogicalResult printStore(mlir::Operation *store);
  /// An atomic on a 32-bit word of a global buffer: OpenCL C 1.2's
  /// atomic_add, atomic_or or atomic_and.
  mlir::LogicalResult printAtomic(mlir::memref::AtomicRMWOp atomic);
  /// A fence of global memory (spirv.MemoryBarrier at Device scope).
  mlir::LogicalResult printFence(mlir::spirv::MemoryBarrierOp fence);
  mlir::LogicalResult printVectorLoad(mlir::Operation *load);
  mlir::LogicalResult printVectorStore(mlir::Operation *store);
  /// `*(__global const float4 *)(argN + i)`: the lvalue of the vector of
  /// `type` at `memref[indices]`; fails for accesses outside the kernel IR.
  mlir::FailureOr<std::string>
  vectorPointer(mlir::Operation *op, mlir::Value memref,
                mlir::ValueRange indices, mlir::VectorType type, bool isConst);
  /// Declares a variable for `value` initialised with `init`.
  mlir::LogicalResult declare(mlir::Value value, llvm::StringRef init);
  /// A fresh C name with `prefix`, recorded as the name of `value`.
  std::string nameValue(mlir::Value value, llvm::StringRef prefix);
  /// The buffer expression that vload_half/vstore_half take for an f16
  /// memref (local f16 arrays are stored as ushort).
  std::string halfPointer(mlir::Value memref);
  /// The lvalue of `width` f16 of `memref` from `index` on, as the ushort
  /// vector of their bits.
  std::string halfBitsPointer(mlir::Value memref, mlir::Value index,
                              unsigned width, bool isConst);
  llvm::raw_ostream &indent();

  //===--- Expressions (OpenCLExpressions.cpp) ----------------------------===//
  /// The C expression computing the single result of an arith, math or gpu
  /// id op; fails (reporting at the op) for ops and types outside the kernel
  /// IR.
  mlir::FailureOr<std::string> translateExpression(mlir::Operation *op);
  mlir::FailureOr<std::string> translateArith(mlir::Operation *op);
  mlir::FailureOr<std::string> translateMath(mlir::Operation *op);
  mlir::FailureOr<std::string> translateCast(mlir::Operation *op);
  mlir::FailureOr<std::string> translateIntegerBinary(mlir::Operation *op);
  mlir::FailureOr<std::string> translateFloatBinary(mlir::Operation *op);
  mlir::FailureOr<std::string> translateCompare(mlir::Operation *op);
  /// vector.extract and vector.broadcast (OpenCLVectors.cpp).
  mlir::FailureOr<std::string> translateVector(mlir::Operation *op);
  /// `value` (an integer) as a C expression whose value is its signed or
  /// unsigned interpretation.
  std::string integerValue(mlir::Value value, bool asUnsigned);
  /// Requires `helper` and returns its name.
  std::string useHelper(Helper helper);
  /// `value` (a float holding an f16 or bf16 value exactly after rounding)
  /// rounded to `to` (f16 or bf16) to nearest even.
  std::string roundToHalfOrBF16(llvm::StringRef value, mlir::Type to);

  //===--- Types (OpenCLTypes.cpp) ----------------------------------------===//
  /// The C type of a value of `type`; fails (reporting at `loc`) for types
  /// outside the kernel IR.
  mlir::FailureOr<std::string> valueType(mlir::Location loc, mlir::Type type);
  /// The C type of a buffer element of `type` (half, ushort for bf16, ...).
  mlir::FailureOr<std::string> storageType(mlir::Location loc, mlir::Type type);
  /// The unsigned C type of an integer `type` of the same width.
  std::string unsignedType(mlir::Type type) const;
  /// The unsigned C type that wrapping arithmetic of `type` computes in (at
  /// least 32 bits, so that C's promotion to int cannot overflow).
  std::string wrappingType(mlir::Type type) const;
  unsigned integerWidth(mlir::Type type) const;

  /// The expression of `value`: its variable, or its literal when a
  /// constant.
  std::string operand(mlir::Value value) const;

  llvm::raw_ostream &os;
  unsigned indexBits;
  ProgramRequirements &requirements;
  llvm::DenseMap<mlir::Value, std::string> names;
  unsigned nextName = 0;
  unsigned depth = 1;
};

} // namespace tilec::opencl_c

#endif // TILEC_LIB_TARGET_OPENCL_OPENCLEMITTER_H
