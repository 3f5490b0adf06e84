//===- OpenCLPrinter.cpp - Kernel IR to OpenCL C: kernels and statements --===//
//
// Each gpu.func becomes a __kernel; each op with a result becomes one
// variable (constants are inlined as literals), scf.for and scf.if become
// C's for and if with their results as variables declared before them, and
// memory ops become indexing (or the vload_half/vstore_half family for the
// 16-bit float formats, which OpenCL C 1.2 can only load and store; vector
// loads and stores are in OpenCLVectors.cpp).
//
//===----------------------------------------------------------------------===//

#include "OpenCLEmitter.h"
#include "tilec/Target/OpenCL/OpenCL.h"
#include "tilec/Target/ParameterNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/FoldUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;

namespace tilec {
namespace opencl_c {

namespace {

bool isGlobalSpace(Attribute space) {
  if (!space)
    return true;
  if (auto gpuSpace = dyn_cast<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Global;
  return false;
}

/// A flat buffer of the kernel IR: 1-D, static, contiguous.
bool isFlatBuffer(MemRefType type) {
  return type.getRank() == 1 && type.hasStaticShape() &&
         type.getLayout().isIdentity();
}

bool isCIdentifier(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// Whether every use of `value` is as the value that a store stores: a
/// memref.store's, or an element of a vector.from_elements whose every use
/// is a vector.store's value.
bool isOnlyStored(Value value) {
  return !value.use_empty() &&
         llvm::all_of(value.getUses(), [](OpOperand &use) {
           Operation *user = use.getOwner();
           if (auto build = dyn_cast<vector::FromElementsOp>(user))
             return llvm::all_of(build->getUses(), [](OpOperand &vectorUse) {
               return isa<vector::StoreOp>(vectorUse.getOwner()) &&
                      vectorUse.getOperandNumber() == 0;
             });
           return isa<memref::StoreOp>(user) && use.getOperandNumber() == 0;
         });
}

/// The alignment, in bytes, that vector accesses to the workgroup array
/// `alloc` need: the size of the largest vector accessed, or 0 for none.
int64_t getVectorAlignment(memref::AllocOp alloc) {
  int64_t alignment = 0;
  for (Operation *user : alloc->getUsers()) {
    VectorType type;
    if (auto load = dyn_cast<vector::LoadOp>(user))
      type = load.getVectorType();
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      type = store.getVectorType();
    else
      continue;
    int64_t bytes = type.getNumElements() *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    alignment = std::max(alignment, bytes);
  }
  return alignment;
}

} // namespace

bool isWorkgroupSpace(Attribute space) {
  if (auto number = dyn_cast_or_null<IntegerAttr>(space))
    return number.getInt() == 3;
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  return false;
}

llvm::raw_ostream &KernelPrinter::indent() { return os.indent(2 * depth); }

std::string KernelPrinter::nameValue(Value value, StringRef prefix) {
  std::string name = prefix.str() + std::to_string(nextName++);
  names[value] = name;
  return name;
}

LogicalResult KernelPrinter::declare(Value value, StringRef init) {
  FailureOr<std::string> type = valueType(value.getLoc(), value.getType());
  if (failed(type))
    return failure();
  indent() << *type << " " << nameValue(value, "v") << " = " << init << ";\n";
  return success();
}

LogicalResult KernelPrinter::printKernel(gpu::GPUFuncOp kernel) {
  StringRef name = kernel.getName();
  if (!kernel.isKernel())
    return kernel.emitError()
           << "device function '" << name
           << "' is not part of the kernel IR (every gpu.func is a kernel)";
  if (!isCIdentifier(name) || name.starts_with("tilec_"))
    return kernel.emitError()
           << "kernel name '" << name
           << "' is not a C identifier outside the 'tilec_' helper prefix";
  if (!kernel.getBody().hasOneBlock())
    return kernel.emitError() << "kernel '" << name
                              << "' has several blocks; the kernel IR uses "
                                 "scf for control flow";

  os << "// Kernel " << name;
  if (auto source = kernel->getAttrOfType<StringAttr>("tile.source")) {
    std::string where = source.str();
    std::replace_if(
        where.begin(), where.end(), [](char c) { return !llvm::isPrint(c); },
        ' ');
    os << ": computes the statement at " << where;
  }
  os << ".\n";
  if (failed(printSignature(kernel)))
    return failure();
  os << " {\n";
  if (failed(printBlock(kernel.front())))
    return failure();
  os << "}\n\n";
  return success();
}

LogicalResult KernelPrinter::printSignature(gpu::GPUFuncOp kernel) {
  // The first line of the signature, to align the parameters under.
  std::string head = "__kernel ";
  if (spirv::EntryPointABIAttr abi = spirv::lookupEntryPointABI(kernel)) {
    if (DenseI32ArrayAttr sizes = abi.getWorkgroupSize()) {
      ArrayRef<int32_t> size = sizes.asArrayRef();
      if (size.empty() || size.size() > 3 ||
          llvm::any_of(size, [](int32_t extent) { return extent < 1; }))
        return kernel.emitError()
               << "expected a work-group size of 1 to 3 positive extents";
      os << head << "__attribute__((reqd_work_group_size(";
      for (unsigned dim = 0; dim < 3; ++dim)
        os << (dim ? ", " : "") << (dim < size.size() ? size[dim] : 1);
      os << ")))\n";
      head.clear();
    }
  }
  head += "void " + kernel.getName().str() + "(";
  os << head;
  std::vector<std::string> parameterNames = getParameterNames(kernel);
  for (BlockArgument argument : kernel.getArguments()) {
    auto type = dyn_cast<MemRefType>(argument.getType());
    if (!type || !isFlatBuffer(type) || !isGlobalSpace(type.getMemorySpace()))
      return kernel.emitError()
             << "argument #" << argument.getArgNumber() << " of type "
             << argument.getType()
             << " is not a flat global buffer (a static 1-D memref)";
    FailureOr<std::string> element =
        storageType(argument.getLoc(), type.getElementType());
    if (failed(element))
      return failure();
    const std::string &name = parameterNames[argument.getArgNumber()];
    names[argument] = name;
    os << (argument.getArgNumber() ? ",\n" + std::string(head.size(), ' ') : "")
       << "__global " << (isStoredTo(argument) ? "" : "const ") << *element
       << " *restrict " << name;
  }
  os << ")";
  return success();
}

LogicalResult KernelPrinter::printBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(printOperation(&op)))
      return failure();
  return success();
}

LogicalResult KernelPrinter::printOperation(Operation *op) {
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Type type = constant.getType();
    if (failed(valueType(op->getLoc(), type)))
      return failure();
    if (auto number = dyn_cast<IntegerAttr>(constant.getValue()))
      names[constant] = printIntegerLiteral(number.getValue(), type, indexBits);
    else if (auto number = dyn_cast<FloatAttr>(constant.getValue()))
      names[constant] = printFloatLiteral(number.getValue(), type);
    else
      return op->emitError() << "constant " << constant.getValue()
                             << " is not a scalar of the kernel IR";
    return success();
  }
  // f16 and bf16 values are floats already: widening names the same
  // variable, and a rounding whose every use is a store is left to the
  // store, which rounds.
  if (auto extend = dyn_cast<arith::ExtFOp>(op);
      extend && extend.getType().isF32()) {
    names[extend] = operand(extend.getIn());
    return success();
  }
  if (auto truncate = dyn_cast<arith::TruncFOp>(op);
      truncate && truncate.getIn().getType().isF32() &&
      isOnlyStored(truncate)) {
    names[truncate] = operand(truncate.getIn());
    return success();
  }

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](scf::ForOp loop) { return printFor(loop); })
      .Case([&](scf::IfOp branch) { return printIf(branch); })
      .Case([&](memref::LoadOp) { return printLoad(op); })
      .Case([&](memref::StoreOp) { return printStore(op); })
      .Case([&](memref::AtomicRMWOp atomic) { return printAtomic(atomic); })
      .Case([&](spirv::MemoryBarrierOp fence) { return printFence(fence); })
      .Case([&](memref::AllocOp) { return printLocalArray(op); })
      .Case([&](vector::LoadOp) { return printVectorLoad(op); })
      .Case([&](vector::StoreOp) { return printVectorStore(op); })
      .Case([&](gpu::BarrierOp) {
        indent() << "barrier(CLK_LOCAL_MEM_FENCE);\n";
        return success();
      })
      .Default([&](Operation *) -> LogicalResult {
        if (op->getNumResults() != 1 || op->getNumRegions() != 0)
          return op->emitError()
                 << "'" << op->getName()
                 << "' is not part of the kernel IR; the OpenCL printer "
                    "cannot translate it";
        FailureOr<std::string> expression = translateExpression(op);
        if (failed(expression))
          return failure();
        return declare(op->getResult(0), *expression);
      });
}

LogicalResult KernelPrinter::printFor(scf::ForOp loop) {
  FailureOr<std::string> inductionType =
      valueType(loop.getLoc(), loop.getInductionVar().getType());
  if (failed(inductionType))
    return failure();
  // The loop-carried values live in variables declared before the loop:
  // the block arguments read them, the yield writes them, and after the
  // loop they are its results.
  SmallVector<std::string> carried;
  for (auto [init, result, argument] : llvm::zip(
           loop.getInitArgs(), loop.getResults(), loop.getRegionIterArgs())) {
    FailureOr<std::string> type = valueType(loop.getLoc(), result.getType());
    if (failed(type))
      return failure();
    std::string name = nameValue(result, "r");
    names[argument] = name;
    indent() << *type << " " << name << " = " << operand(init) << ";\n";
    carried.push_back(name);
  }
  std::string index = nameValue(loop.getInductionVar(), "i");
  indent() << "for (" << *inductionType << " " << index << " = "
           << operand(loop.getLowerBound()) << "; " << index << " < "
           << operand(loop.getUpperBound()) << "; " << index
           << " += " << operand(loop.getStep()) << ") {\n";
  ++depth;
  if (failed(printBlock(*loop.getBody())) ||
      failed(printYield(loop.getBody()->getTerminator(), carried)))
    return failure();
  --depth;
  indent() << "}\n";
  return success();
}

LogicalResult KernelPrinter::printIf(scf::IfOp branch) {
  SmallVector<std::string> results;
  for (Value result : branch.getResults()) {
    FailureOr<std::string> type = valueType(branch.getLoc(), result.getType());
    if (failed(type))
      return failure();
    results.push_back(nameValue(result, "r"));
    indent() << *type << " " << results.back() << ";\n";
  }
  auto printRegion = [&](Region &region) {
    ++depth;
    if (failed(printBlock(region.front())) ||
        failed(printYield(region.front().getTerminator(), results)))
      return failure();
    --depth;
    return success();
  };
  indent() << "if (" << operand(branch.getCondition()) << ") {\n";
  if (failed(printRegion(branch.getThenRegion())))
    return failure();
  if (!branch.getElseRegion().empty()) {
    indent() << "} else {\n";
    if (failed(printRegion(branch.getElseRegion())))
      return failure();
  }
  indent() << "}\n";
  return success();
}

LogicalResult KernelPrinter::printYield(Operation *yield,
                                        ArrayRef<std::string> targets) {
  SmallVector<std::string> values;
  for (Value value : yield->getOperands())
    values.push_back(operand(value));
  // Assigning in order is wrong when a value is a target that an earlier
  // assignment has overwritten (`r0, r1 = r1, r0`): then every value is read
  // into a temporary first.
  bool readsAnotherTarget = false;
  for (auto [position, value] : llvm::enumerate(values))
    for (auto [other, target] : llvm::enumerate(targets))
      readsAnotherTarget |= other < position && value == target;
  if (readsAnotherTarget) {
    indent() << "{\n";
    ++depth;
    for (auto [position, value] : llvm::enumerate(yield->getOperands())) {
      FailureOr<std::string> type = valueType(yield->getLoc(), value.getType());
      if (failed(type))
        return failure();
      std::string temporary = "t" + std::to_string(nextName++);
      indent() << *type << " " << temporary << " = " << values[position]
               << ";\n";
      values[position] = temporary;
    }
  }
  for (auto [target, value] : llvm::zip(targets, values))
    if (target != value)
      indent() << target << " = " << value << ";\n";
  if (readsAnotherTarget) {
    --depth;
    indent() << "}\n";
  }
  return success();
}

LogicalResult KernelPrinter::printLocalArray(Operation *op) {
  auto alloc = cast<memref::AllocOp>(op);
  MemRefType type = alloc.getType();
  if (!isWorkgroupSpace(type.getMemorySpace()) || !isFlatBuffer(type) ||
      !isa<gpu::GPUFuncOp>(op->getParentOp()))
    return op->emitError()
           << "allocation of " << type
           << " is not part of the kernel IR (only static 1-D workgroup "
              "memory, space 3, at the kernel's top level)";
  // OpenCL C 1.2 has no half arrays: f16 is kept as its bits, like bf16.
  Type element = type.getElementType();
  FailureOr<std::string> storage =
      element.isF16() ? FailureOr<std::string>(std::string("ushort"))
                      : storageType(op->getLoc(), element);
  if (failed(storage))
    return failure();
  indent() << "__local " << *storage << " " << nameValue(alloc, "local") << "["
           << type.getNumElements() << "]";
  if (int64_t alignment = getVectorAlignment(alloc))
    os << " __attribute__((aligned(" << alignment << ")))";
  os << ";\n";
  return success();
}

std::string KernelPrinter::halfPointer(Value memref) {
  if (isWorkgroupSpace(cast<MemRefType>(memref.getType()).getMemorySpace()))
    return "(__local half *)" + operand(memref);
  return operand(memref);
}

LogicalResult KernelPrinter::printLoad(Operation *op) {
  auto load = cast<memref::LoadOp>(op);
  if (load.getIndices().size() != 1)
    return op->emitError() << "a load from a buffer that is not flat";
  std::string index = operand(load.getIndices().front());
  Type element = load.getType();
  if (element.isF16())
    return declare(load, "vload_half(" + index + ", " +
                             halfPointer(load.getMemRef()) + ")");
  std::string access = operand(load.getMemRef()) + "[" + index + "]";
  if (element.isBF16())
    return declare(load, "as_float((uint)" + access + " << 16)");
  return declare(load, access);
}

LogicalResult KernelPrinter::printStore(Operation *op) {
  auto store = cast<memref::StoreOp>(op);
  if (store.getIndices().size() != 1)
    return op->emitError() << "a store to a buffer that is not flat";
  std::string index = operand(store.getIndices().front());
  std::string value = operand(store.getValueToStore());
  Type element = store.getValueToStore().getType();
  if (element.isF16()) {
    indent() << "vstore_half_rte(" << value << ", " << index << ", "
             << halfPointer(store.getMemRef()) << ");\n";
    return success();
  }
  std::string access = operand(store.getMemRef()) + "[" + index + "]";
  if (element.isBF16())
    value = useHelper(Helper::FloatToBF16) + "(" + value + ")";
  indent() << access << " = " << value << ";\n";
  return success();
}

LogicalResult KernelPrinter::printAtomic(memref::AtomicRMWOp atomic) {
  const char *function = nullptr;
  switch (atomic.getKind()) {
  case arith::AtomicRMWKind::addi:
    function = "atomic_add";
    break;
  case arith::AtomicRMWKind::ori:
    function = "atomic_or";
    break;
  case arith::AtomicRMWKind::andi:
    function = "atomic_and";
    break;
  default:
    break;
  }
  auto type = cast<MemRefType>(atomic.getMemref().getType());
  if (!function || !atomic.getType().isInteger(32) ||
      isWorkgroupSpace(type.getMemorySpace()) ||
      atomic.getIndices().size() != 1)
    return atomic.emitError()
           << "the kernel IR's atomics are addi, ori and andi on 32-bit words "
              "of a global buffer";
  std::string call = std::string(function) + "(&" +
                     operand(atomic.getMemref()) + "[" +
                     operand(atomic.getIndices().front()) + "], " +
                     operand(atomic.getValue()) + ")";
  if (atomic.getResult().use_empty()) {
    indent() << call << ";\n";
    return success();
  }
  return declare(atomic.getResult(), call);
}

LogicalResult KernelPrinter::printFence(spirv::MemoryBarrierOp fence) {
  if (fence.getMemoryScope() != spirv::Scope::Device)
    return fence.emitError() << "the kernel IR fences global memory at Device "
                                "scope only";
  indent() << "mem_fence(CLK_GLOBAL_MEM_FENCE);\n";
  return success();
}

} // namespace opencl_c

bool isStoredTo(BlockArgument buffer) {
  return llvm::any_of(buffer.getUsers(), [&](Operation *user) {
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return store.getMemRef() == buffer;
    if (auto atomic = dyn_cast<memref::AtomicRMWOp>(user))
      return atomic.getMemref() == buffer;
    if (auto store = dyn_cast<vector::StoreOp>(user))
      return store.getBase() == buffer;
    return false;
  });
}

bool isLoadedFrom(BlockArgument buffer) {
  return llvm::any_of(buffer.getUsers(), [](Operation *user) {
    return !isa<memref::StoreOp, vector::StoreOp>(user);
  });
}

/// Replaces every arith operation whose operands are all constants by its
/// value, computed by MLIR's folders (APFloat: IEEE arithmetic), so that no
/// expression in the OpenCL C is constant. C leaves a division by zero
/// undefined (C11 6.5.5), and the device compiler's own folding uses that:
/// NVIDIA's (driver 580) took the NaN of `0.0f / 0.0f` for a number in a `v !=
/// v` beside it, also where the zeros came through a comparison of constants
/// and a select (difftest seeds 12003159, 13033938). Only all-constant arith
/// operations fold, and not maxnumf and minnumf: MLIR 19's folders of those are
/// not IEEE (maxnumf(NaN, 3.0) folds to NaN; tests/e2e/max_of_folded_nan.tile),
/// nor are its math folders (atan2(0, 0) folds to NaN, not 0; the device
/// computes a builtin of constants as C defines it), nor its folders of one
/// constant operand (maxnumf(x, -inf) folds to x, also for a NaN x). Vector
/// results stay: the printer prints scalar constants only.
static void foldConstantOperations(gpu::GPUModuleOp kernels) {
  OperationFolder folder(kernels.getContext());
  kernels.walk([&](Operation *op) {
    if (!isa<arith::ArithDialect>(op->getDialect()) ||
        op->getNumResults() != 1 ||
        !op->getResult(0).getType().isIntOrIndexOrFloat() ||
        isa<arith::MaxNumFOp, arith::MinNumFOp>(op) ||
        matchPattern(op, m_Constant()))
      return;
    if (llvm::all_of(op->getOperands(), [](Value operand) {
          return matchPattern(operand, m_Constant());
        }))
      (void)folder.tryToFold(op);
  });
}

LogicalResult printOpenCL(gpu::GPUModuleOp original, llvm::raw_ostream &os) {
  auto module = original->getParentOfType<ModuleOp>();
  auto indexBits =
      module ? module->getAttrOfType<IntegerAttr>("tile.index_bits") : nullptr;
  if (!indexBits || (indexBits.getInt() != 32 && indexBits.getInt() != 64))
    return original.emitError() << "expected the enclosing module to have "
                                   "'tile.index_bits' = 32 or 64";
  OwningOpRef<gpu::GPUModuleOp> kernels =
      cast<gpu::GPUModuleOp>(original->clone());
  opencl_c::splitVectorArithmetic(*kernels);
  foldConstantOperations(*kernels);

  // The kernels print first, so that the preamble knows what they need.
  opencl_c::ProgramRequirements requirements;
  std::string kernelText;
  llvm::raw_string_ostream kernelStream(kernelText);
  for (Operation &op : kernels->getBody()->getOperations()) {
    auto kernel = dyn_cast<gpu::GPUFuncOp>(op);
    if (!kernel) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      return op.emitError() << "'" << op.getName()
                            << "' is not part of the kernel IR's gpu.module";
    }
    opencl_c::KernelPrinter printer(kernelStream, indexBits.getInt(),
                                    requirements);
    if (failed(printer.printKernel(kernel)))
      return failure();
  }

  os << "// OpenCL C 1.2 printed by tilec from the kernel IR. Every operation\n"
        "// means exactly what it says: build it without "
        "-cl-fast-relaxed-math\n"
        "// or any other option that relaxes floating-point semantics.\n";
  if (requirements.usesFP64)
    os << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
  // Each op rounds on its own, as the reference does: no fused multiply-add
  // unless the IR asks for one (math.fma).
  os << "#pragma OPENCL FP_CONTRACT OFF\n\n";
  for (unsigned helper = 0; helper < opencl_c::kNumHelpers; ++helper)
    if (requirements.helpers.test(helper))
      opencl_c::printHelper(static_cast<opencl_c::Helper>(helper), os);
  os << kernelText;
  return success();
}

} // namespace tilec
