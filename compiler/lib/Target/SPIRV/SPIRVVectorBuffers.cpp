//===- SPIRVVectorBuffers.cpp - Buffers accessed as whole vectors ---------===//
//
// The OpenCL C printer loads and stores a vector<WxT> of the kernel IR as
// one float4 (one 128-bit LDG/LDS on NVIDIA); SPIR-V's logical addressing
// cannot point a vector at a scalar array, so a scalar array is accessed
// one element at a time (SPIRVScalarizeVectorAccessesPass) and a driver
// issues W times the load instructions. A buffer that the kernel only
// accesses through vectors of one width is therefore declared as an array
// of those vectors instead, and each access becomes one load or store of
// an element of it. A buffer accessed both ways keeps its scalars.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVVECTORBUFFERSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Whether SPIR-V stores vectors of `element` as the kernel IR's scalars
/// (f16 and bf16, which the kernel IR has no vectors of, are left out).
static bool hasStorageVectors(Type element) {
  return element.isF32() || element.isF64() ||
         llvm::any_of(ArrayRef<unsigned>{8, 16, 32, 64}, [&](unsigned width) {
           return element.isSignlessInteger(width);
         });
}

/// The width W of the vectors through which alone the kernel accesses
/// `buffer` (a flat memref of N elements, N a multiple of W), if it does.
static std::optional<int64_t> getAccessWidth(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() ||
      !hasStorageVectors(type.getElementType()))
    return std::nullopt;
  std::optional<int64_t> width;
  for (Operation *user : buffer.getUsers()) {
    VectorType vector;
    if (auto load = dyn_cast<vector::LoadOp>(user))
      vector = load.getVectorType();
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      vector = store.getVectorType();
    else
      return std::nullopt;
    if (vector.getRank() != 1 || (width && *width != vector.getNumElements()))
      return std::nullopt;
    width = vector.getNumElements();
  }
  if (!width || type.getDimSize(0) % *width != 0)
    return std::nullopt;
  return width;
}

/// Retypes `buffer` to an array of vector<WxT> and each of its accesses to
/// the element at %i / W: the kernel IR's %i is a multiple of W
/// (docs/kernel-ir.md, "Vectors").
static void accessAsVectors(Value buffer, int64_t width) {
  auto type = cast<MemRefType>(buffer.getType());
  auto vectorType = VectorType::get({width}, type.getElementType());
  buffer.setType(MemRefType::get({type.getDimSize(0) / width}, vectorType,
                                 MemRefLayoutAttrInterface(),
                                 type.getMemorySpace()));
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    ImplicitLocOpBuilder b(user->getLoc(), user);
    auto vectorIndex = [&](Value index) -> Value {
      return b.create<arith::DivUIOp>(index,
                                      b.create<arith::ConstantIndexOp>(width));
    };
    if (auto load = dyn_cast<vector::LoadOp>(user)) {
      Value vector = b.create<memref::LoadOp>(
          buffer, vectorIndex(load.getIndices().back()));
      load.replaceAllUsesWith(vector);
      load.erase();
      continue;
    }
    auto store = cast<vector::StoreOp>(user);
    Value vector = store.getValueToStore();
    // MLIR 19 does not convert vector.from_elements: its scalars are
    // inserted one by one (OpCompositeInsert).
    auto built = vector.getDefiningOp<vector::FromElementsOp>();
    if (built) {
      vector = b.create<arith::ConstantOp>(b.getZeroAttr(vectorType));
      for (auto [i, element] : llvm::enumerate(built.getElements()))
        vector = b.create<vector::InsertOp>(element, vector, i);
    }
    b.create<memref::StoreOp>(vector, buffer,
                              vectorIndex(store.getIndices().back()));
    store.erase();
    if (built && built->use_empty())
      built->erase();
  }
}

/// Widens every work-group array (memref.alloc) and every kernel argument
/// that getAccessWidth accepts.
static void declareVectorBuffers(gpu::GPUModuleOp kernels) {
  kernels.walk([](memref::AllocOp alloc) {
    if (std::optional<int64_t> width = getAccessWidth(alloc.getResult()))
      accessAsVectors(alloc.getResult(), *width);
  });
  for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
    SmallVector<Type> inputs;
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
      BlockArgument argument = kernel.getArgument(i);
      if (std::optional<int64_t> width = getAccessWidth(argument))
        accessAsVectors(argument, *width);
      inputs.push_back(argument.getType());
    }
    kernel.setFunctionType(FunctionType::get(
        kernel.getContext(), inputs, kernel.getFunctionType().getResults()));
  }
}

namespace {
struct SPIRVVectorBuffersPass
    : tilec::impl::SPIRVVectorBuffersPassBase<SPIRVVectorBuffersPass> {
  void runOnOperation() override { declareVectorBuffers(getOperation()); }
};
} // namespace
