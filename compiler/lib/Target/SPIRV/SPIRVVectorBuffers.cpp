//===- SPIRVVectorBuffers.cpp - Buffers accessed as whole vectors ---------===//
//
// The OpenCL C printer loads and stores a vector<WxT> of the kernel IR as
// one float4 (one 128-bit LDG/LDS on NVIDIA); SPIR-V's logical addressing
// cannot point a vector at a scalar array, so a scalar array is accessed
// one element at a time (SPIRVScalarizeVectorAccessesPass) and a driver
// issues W times the load instructions. A buffer that the kernel only
// accesses through vectors of one width is therefore declared as an array
// of those vectors instead, and each access becomes one load or store of
// an element of it. A work-group array accessed both ways (the tiled
// product's A tile: stored one element at a time, read as vectors) becomes
// its rows of W, an array of vectors whose scalar accesses reach one
// component (SPIRVVectorRows.cpp); a kernel argument accessed both ways
// keeps its scalars.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/SPIRV/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace tilec {
#define GEN_PASS_DEF_SPIRVVECTORBUFFERSPASS
#include "tilec/Target/SPIRV/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

/// Whether SPIR-V stores vectors of `element` as the kernel IR's scalars
/// (bf16, which the kernel IR has no vectors of, is left out).
static bool hasStorageVectors(Type element) {
  return element.isF16() || element.isF32() || element.isF64() ||
         llvm::any_of(ArrayRef<unsigned>{8, 16, 32, 64}, [&](unsigned width) {
           return element.isSignlessInteger(width);
         });
}

namespace {
/// How the kernel accesses a buffer that it reads or writes through vectors
/// of one width W: only through them, or (a work-group array) through
/// scalars as well.
struct VectorAccess {
  int64_t width;
  bool scalarsToo;
};
} // namespace

/// Whether `type` is work-group memory (space 3 in the kernel IR).
static bool isWorkgroupMemory(MemRefType type) {
  auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
  return space && space.getInt() == 3;
}

/// How the kernel accesses `buffer` (a flat memref of N elements, N a
/// multiple of W), if through vectors of one width W: only through them, or
/// through them and scalars where `buffer` is a work-group array.
static std::optional<VectorAccess> getVectorAccess(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  if (!type || type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() ||
      !hasStorageVectors(type.getElementType()))
    return std::nullopt;
  std::optional<int64_t> width;
  bool scalars = false;
  for (Operation *user : buffer.getUsers()) {
    VectorType vector;
    if (auto load = dyn_cast<vector::LoadOp>(user))
      vector = load.getVectorType();
    else if (auto store = dyn_cast<vector::StoreOp>(user))
      vector = store.getVectorType();
    else if (isa<memref::LoadOp, memref::StoreOp>(user)) {
      scalars = true;
      continue;
    } else
      return std::nullopt;
    if (vector.getRank() != 1 || (width && *width != vector.getNumElements()))
      return std::nullopt;
    width = vector.getNumElements();
  }
  if (!width || type.getDimSize(0) % *width != 0 ||
      (scalars && !isWorkgroupMemory(type)))
    return std::nullopt;
  return VectorAccess{*width, scalars};
}

/// The vector that `store` stores, built where it is a vector.from_elements
/// (which MLIR 19 does not convert) by inserting its scalars one by one
/// (OpCompositeInsert) into a zero vector.
static Value getStoredVector(ImplicitLocOpBuilder &b, vector::StoreOp store) {
  Value vector = store.getValueToStore();
  auto built = vector.getDefiningOp<vector::FromElementsOp>();
  if (!built)
    return vector;
  vector = b.create<arith::ConstantOp>(b.getZeroAttr(store.getVectorType()));
  for (auto [i, element] : llvm::enumerate(built.getElements()))
    vector = b.create<vector::InsertOp>(element, vector, i);
  return vector;
}

/// Erases `store` and the vector.from_elements that only it used.
static void eraseVectorStore(vector::StoreOp store) {
  auto built = store.getValueToStore().getDefiningOp<vector::FromElementsOp>();
  store.erase();
  if (built && built->use_empty())
    built->erase();
}

namespace {
/// Builds the indexes of one buffer's vectors (`%i / W`) and of their
/// components (`%i mod W`) before each access, giving again what it made
/// for an earlier access where that dominates the new one. An unrolled
/// kernel reads its tiles at a few bases plus many constant offsets; built
/// anew for each access, the quotients of those bases and their constants
/// near doubled the kernel's ops (the grouped convolution's 2,033 to 3,673)
/// for the folds and merges after to take away again.
class VectorIndexBuilder {
public:
  VectorIndexBuilder(MLIRContext *context, int64_t width)
      : b(UnknownLoc::get(context), context), width(width) {}

  /// The builder, set to build before `access`, at its location.
  ImplicitLocOpBuilder &before(Operation *access) {
    this->access = access;
    b.setLoc(access->getLoc());
    b.setInsertionPoint(access);
    return b;
  }

  /// `index` / `width`, where the access's `index` is a multiple of `width`.
  /// A sum of multiples is divided term by term (`k * 33 + ty + 16`): the
  /// driver then adds constant offsets to a loop-invariant base, as it does
  /// for the OpenCL C's `tile + k * 132 + ty * 4 + 64`, where a division of
  /// the sum would leave it a shift per access (it cannot distribute the
  /// division over an add that might wrap). Exact because the kernels' index
  /// arithmetic never overflows its width (docs/kernel-ir.md, "The module").
  /// Any other index is divided unsigned.
  Value quotient(Value index) {
    if (isSumOfMultiples(index))
      return divideTerms(index);
    return reuseOr({index, Kind::UnsignedQuotient, 0}, [&] {
      return b.create<arith::DivUIOp>(index, constant(width));
    });
  }

  /// `index` mod `width`: 0 for a sum of multiples of it.
  Value remainder(Value index) {
    if (isSumOfMultiples(index))
      return constant(0);
    return reuseOr({index, Kind::Remainder, 0}, [&] {
      return b.create<arith::RemUIOp>(index, constant(width));
    });
  }

  Value constant(int64_t value) {
    return reuseOr({Value(), Kind::Constant, value},
                   [&] { return b.create<arith::ConstantIndexOp>(value); });
  }

private:
  enum class Kind { Constant, TermQuotient, UnsignedQuotient, Remainder };
  /// The index divided (none for a constant), what is made of it, and the
  /// constant's value.
  using Key = std::tuple<Value, Kind, int64_t>;

  /// What was made for `key` where it dominates the access, else what
  /// `make` makes, then kept for `key`.
  template <typename Make> Value reuseOr(const Key &key, Make make) {
    auto found = madeFor.find(key);
    if (found != madeFor.end() && dominatesAccess(found->second))
      return found->second;
    // `make` may add to the map (a sum's terms), so the entry is written
    // after it.
    Value made = make();
    madeFor[key] = made;
    return made;
  }

  /// Whether `value` (an op's result, or a block argument: a product's
  /// factor, a loop's counter) is defined before the access, in its block
  /// or in a block around it.
  bool dominatesAccess(Value value) const {
    Operation *ancestor =
        value.getParentBlock()->findAncestorOpInBlock(*access);
    if (!ancestor)
      return false;
    Operation *definition = value.getDefiningOp();
    return !definition || definition->isBeforeInBlock(ancestor);
  }

  /// Whether `index` is a sum of terms that are each a multiple of `width`
  /// by construction: constants, and products with one (`k * 132 + ty * 4 +
  /// 64` for a width of 4). Kept for each index: the accesses at a base plus
  /// constant offsets ask it of the same base again and again.
  bool isSumOfMultiples(Value index) {
    auto found = isMultiple.find(index);
    if (found != isMultiple.end())
      return found->second;
    bool result = false;
    if (std::optional<int64_t> constant = getConstantIntValue(index))
      result = *constant % width == 0;
    else if (auto sum = index.getDefiningOp<arith::AddIOp>())
      result = isSumOfMultiples(sum.getLhs()) && isSumOfMultiples(sum.getRhs());
    else if (auto product = index.getDefiningOp<arith::MulIOp>())
      result = isSumOfMultiples(product.getLhs()) ||
               isSumOfMultiples(product.getRhs());
    isMultiple[index] = result;
    return result;
  }

  /// The quotient of `index` (isSumOfMultiples) by `width`, term by term: a
  /// product by `width` itself is its other factor.
  Value divideTerms(Value index) {
    if (std::optional<int64_t> value = getConstantIntValue(index))
      return constant(*value / width);
    return reuseOr({index, Kind::TermQuotient, 0}, [&]() -> Value {
      if (auto sum = index.getDefiningOp<arith::AddIOp>()) {
        Value lhs = divideTerms(sum.getLhs());
        return b.create<arith::AddIOp>(lhs, divideTerms(sum.getRhs()));
      }
      auto product = index.getDefiningOp<arith::MulIOp>();
      bool lhsIsMultiple = isSumOfMultiples(product.getLhs());
      Value factor = lhsIsMultiple ? product.getRhs() : product.getLhs();
      Value multiple = lhsIsMultiple ? product.getLhs() : product.getRhs();
      if (isConstantIntValue(multiple, width))
        return factor;
      return lhsIsMultiple
                 ? b.create<arith::MulIOp>(divideTerms(multiple), factor)
                 : b.create<arith::MulIOp>(factor, divideTerms(multiple));
    });
  }

  ImplicitLocOpBuilder b;
  int64_t width;
  Operation *access = nullptr;
  DenseMap<Key, Value> madeFor;
  DenseMap<Value, bool> isMultiple;
};
} // namespace

/// The users of `buffer` in the order their uses were made, which is the
/// kernel's order (a value's use list holds the latest first): what the
/// VectorIndexBuilder makes for an access then comes before the later
/// accesses, which take it again.
static SmallVector<Operation *> usersInOrder(Value buffer) {
  SmallVector<Operation *> users(buffer.getUsers());
  std::reverse(users.begin(), users.end());
  return users;
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
  VectorIndexBuilder indexes(buffer.getContext(), width);
  for (Operation *user : usersInOrder(buffer)) {
    ImplicitLocOpBuilder &b = indexes.before(user);
    if (auto load = dyn_cast<vector::LoadOp>(user)) {
      Value vector = b.create<memref::LoadOp>(
          buffer, indexes.quotient(load.getIndices().back()));
      load.replaceAllUsesWith(vector);
      load.erase();
      continue;
    }
    auto store = cast<vector::StoreOp>(user);
    Value vector = getStoredVector(b, store);
    b.create<memref::StoreOp>(vector, buffer,
                              indexes.quotient(store.getIndices().back()));
    eraseVectorStore(store);
  }
}

/// Retypes the work-group array `buffer`, accessed through vectors of width
/// W and through scalars, to its rows of W: memref<N/W x W x T, 3>, which the
/// conversion declares as an array of N/W vector<WxT> (SPIRVVectorRows.cpp).
/// A vector access at %i (a multiple of W, docs/kernel-ir.md, "Vectors")
/// becomes the row %i / W, a scalar access at %i the element %i mod W of
/// the row %i / W: its component.
static void accessAsVectorRows(Value buffer, int64_t width) {
  auto type = cast<MemRefType>(buffer.getType());
  buffer.setType(MemRefType::get(
      {type.getDimSize(0) / width, width}, type.getElementType(),
      MemRefLayoutAttrInterface(), type.getMemorySpace()));
  VectorIndexBuilder indexes(buffer.getContext(), width);
  for (Operation *user : usersInOrder(buffer)) {
    ImplicitLocOpBuilder &b = indexes.before(user);
    auto elementOf = [&](Value index) -> SmallVector<Value> {
      Value row = indexes.quotient(index);
      return {row, indexes.remainder(index)};
    };
    if (auto load = dyn_cast<vector::LoadOp>(user)) {
      Value row = indexes.quotient(load.getIndices().back());
      Value vector = b.create<vector::LoadOp>(
          load.getVectorType(), buffer, ValueRange{row, indexes.constant(0)});
      load.replaceAllUsesWith(vector);
      load.erase();
    } else if (auto store = dyn_cast<vector::StoreOp>(user)) {
      Value vector = getStoredVector(b, store);
      Value row = indexes.quotient(store.getIndices().back());
      b.create<vector::StoreOp>(vector, buffer,
                                ValueRange{row, indexes.constant(0)});
      eraseVectorStore(store);
    } else if (auto load = dyn_cast<memref::LoadOp>(user)) {
      Value element =
          b.create<memref::LoadOp>(buffer, elementOf(load.getIndices()[0]));
      load.replaceAllUsesWith(element);
      load.erase();
    } else {
      auto store = cast<memref::StoreOp>(user);
      b.create<memref::StoreOp>(store.getValueToStore(), buffer,
                                elementOf(store.getIndices()[0]));
      store.erase();
    }
  }
}

/// Widens every work-group array (memref.alloc) and every kernel argument
/// that getVectorAccess accepts.
static void declareVectorBuffers(gpu::GPUModuleOp kernels) {
  auto widen = [](Value buffer) {
    std::optional<VectorAccess> access = getVectorAccess(buffer);
    if (!access)
      return;
    if (access->scalarsToo)
      accessAsVectorRows(buffer, access->width);
    else
      accessAsVectors(buffer, access->width);
  };
  kernels.walk([&](memref::AllocOp alloc) { widen(alloc.getResult()); });
  for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
    SmallVector<Type> inputs;
    for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
      BlockArgument argument = kernel.getArgument(i);
      widen(argument);
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
