//===- OpenCLVectors.cpp - The kernel IR's vector ops in OpenCL C ---------===//
//
// vector.load and vector.store move a whole vector through a pointer to the
// OpenCL vector type, `*(__global const float4 *)(arg0 + i)`. The kernel IR
// guarantees that `i` is a multiple of the width (docs/kernel-ir.md), every
// buffer starts at CL_DEVICE_MEM_BASE_ADDR_ALIGN (at least the size of the
// largest built-in type, long16: 128 bytes), and local arrays accessed by
// vectors are declared aligned to the vector: so the access is aligned, and
// a compiler emits one wide load (a 128-bit LDG/LDS on NVIDIA). vloadn would
// only promise element alignment, which compilers that cannot prove more
// split into scalar loads. An f16 vector is a float vector in C, as an f16
// value is a float. Its bits move as one `ushort4` access, aligned like the
// others, and convert in private memory (`vload_half4`, `vstore_half4_rte`
// on a `__private half *`, which compilers keep in registers): NVIDIA's
// OpenCL ran an f16 add with `vloada_half4(0, arg0 + i)` and
// `vstorea_half4_rte` on the buffer 0.79x as fast as Vulkan's f16vec4
// accesses, and as fast with these (docs/codegen.md).
// vector.from_elements is the vector literal `(float4)(a, b, c, d)`.
//
//===----------------------------------------------------------------------===//

#include "OpenCLEmitter.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace tilec::opencl_c {

FailureOr<std::string> KernelPrinter::vectorPointer(Operation *op, Value memref,
                                                    ValueRange indices,
                                                    VectorType type,
                                                    bool isConst) {
  auto memrefType = cast<MemRefType>(memref.getType());
  if (indices.size() != 1 || memrefType.getRank() != 1)
    return op->emitError() << "a vector access to a buffer that is not flat";
  if (type.getRank() != 1)
    return op->emitError() << "a vector access of " << type
                           << " is not part of the kernel IR (1-D only)";
  FailureOr<std::string> cType = valueType(op->getLoc(), type);
  if (failed(cType))
    return failure();
  std::string space =
      isWorkgroupSpace(memrefType.getMemorySpace()) ? "__local " : "__global ";
  return "*(" + space + (isConst ? "const " : "") + *cType + " *)(" +
         operand(memref) + " + " + operand(indices.front()) + ")";
}

std::string KernelPrinter::halfBitsPointer(Value memref, Value index,
                                           unsigned width, bool isConst) {
  std::string space =
      isWorkgroupSpace(cast<MemRefType>(memref.getType()).getMemorySpace())
          ? "__local "
          : "__global ";
  return "*(" + space + (isConst ? "const " : "") + "ushort" +
         std::to_string(width) + " *)(" + halfPointer(memref) + " + " +
         operand(index) + ")";
}

LogicalResult KernelPrinter::printVectorLoad(Operation *op) {
  auto load = cast<vector::LoadOp>(op);
  VectorType type = load.getVectorType();
  if (type.getElementType().isF16() && load.getIndices().size() == 1) {
    if (failed(valueType(op->getLoc(), type)))
      return failure();
    unsigned width = type.getNumElements();
    std::string bits = "h" + std::to_string(nextName++);
    indent() << "ushort" << width << " " << bits << " = "
             << halfBitsPointer(load.getBase(), load.getIndices().front(),
                                width, /*isConst=*/true)
             << ";\n";
    return declare(load, "vload_half" + std::to_string(width) +
                             "(0, (__private const half *)&" + bits + ")");
  }
  FailureOr<std::string> pointer =
      vectorPointer(op, load.getBase(), load.getIndices(), load.getVectorType(),
                    /*isConst=*/true);
  if (failed(pointer))
    return failure();
  return declare(load, *pointer);
}

LogicalResult KernelPrinter::printVectorStore(Operation *op) {
  auto store = cast<vector::StoreOp>(op);
  VectorType type = store.getVectorType();
  if (type.getElementType().isF16() && store.getIndices().size() == 1) {
    if (failed(valueType(op->getLoc(), type)))
      return failure();
    unsigned width = type.getNumElements();
    std::string bits = "h" + std::to_string(nextName++);
    indent() << "ushort" << width << " " << bits << ";\n";
    indent() << "vstore_half" << width << "_rte("
             << operand(store.getValueToStore()) << ", 0, (__private half *)&"
             << bits << ");\n";
    indent() << halfBitsPointer(store.getBase(), store.getIndices().front(),
                                width, /*isConst=*/false)
             << " = " << bits << ";\n";
    return success();
  }
  FailureOr<std::string> pointer = vectorPointer(
      op, store.getBase(), store.getIndices(), store.getVectorType(),
      /*isConst=*/false);
  if (failed(pointer))
    return failure();
  indent() << *pointer << " = " << operand(store.getValueToStore()) << ";\n";
  return success();
}

FailureOr<std::string> KernelPrinter::translateVector(Operation *op) {
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    ArrayRef<int64_t> position = extract.getStaticPosition();
    if (position.size() != 1 || ShapedType::isDynamic(position.front()))
      return op->emitError() << "'vector.extract' is part of the kernel IR "
                                "with one constant position only";
    if (failed(valueType(op->getLoc(), extract.getSourceVectorType())))
      return failure();
    // Components are .s0 to .s3 (the kernel IR's vectors have 2 or 4).
    return operand(extract.getVector()) + ".s" +
           std::to_string(position.front());
  }
  if (auto broadcast = dyn_cast<vector::BroadcastOp>(op)) {
    if (isa<VectorType>(broadcast.getSourceType()))
      return op->emitError() << "'vector.broadcast' is part of the kernel IR "
                                "from a scalar only";
    FailureOr<std::string> cType = valueType(op->getLoc(), broadcast.getType());
    if (failed(cType))
      return failure();
    return "(" + *cType + ")(" + operand(broadcast.getSource()) + ")";
  }
  if (auto build = dyn_cast<vector::FromElementsOp>(op)) {
    FailureOr<std::string> cType = valueType(op->getLoc(), build.getType());
    if (failed(cType))
      return failure();
    std::string elements;
    for (Value element : build.getElements())
      elements += (elements.empty() ? "" : ", ") + operand(element);
    return "(" + *cType + ")(" + elements + ")";
  }
  return op->emitError() << "'" << op->getName()
                         << "' is not part of the kernel IR; the OpenCL "
                            "printer cannot translate it";
}

} // namespace tilec::opencl_c
