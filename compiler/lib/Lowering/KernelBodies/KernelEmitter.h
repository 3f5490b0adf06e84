//===- KernelEmitter.h - Building blocks of kernel bodies -------*- C++ -*-===//
//
// What every kernel body is made of: how a Tile element type is stored and
// held, exact integer index arithmetic, loads and stores of flat buffers,
// scalar arithmetic with the language's semantics, and the evaluation of
// fused elementwise ops at one element. Internal to lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_KERNELEMITTER_H
#define TILEC_LOWERING_KERNELEMITTER_H

#include "tilec/Analysis/IndexSpace.h"
#include "tilec/Dialect/Tile/IR/TileOps.h"
#include "tilec/Runtime/DType.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <tuple>

namespace tilec {
namespace lowering {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The dtype a tile element type stands for.
DType getDType(mlir::Type tileType);
/// The element type of buffers holding `tileType`: i8 for bool, signless
/// integers for unsigned ones, the type itself otherwise.
mlir::Type getStorageType(mlir::Type tileType);
/// The type a kernel computes `tileType` values in: i1 for bool, signless
/// integers, f32 for f16 and bf16 (storage-only types), the type otherwise.
mlir::Type getComputeType(mlir::Type tileType);
bool isUnsignedTileType(mlir::Type tileType);
/// The flat 1-D buffer type of a tensor (a scalar is one element).
mlir::MemRefType getBufferType(mlir::RankedTensorType type);

//===----------------------------------------------------------------------===//
// Scalar semantics (ScalarOps.cpp)
//===----------------------------------------------------------------------===//

/// `value` (compute type of `from`) converted to `to` with the language's
/// rules: float to int truncates and saturates, NaN -> 0; to bool is != 0.
mlir::Value emitCast(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value value, mlir::Type from, mlir::Type to);
/// A compute value rounded to `tileType` (f16/bf16 round-trip; else itself).
mlir::Value emitRound(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value value, mlir::Type tileType);
/// The constant `attr` as a compute value.
mlir::Value emitConstant(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::TypedAttr attr);
/// `kind` applied to compute values whose tile types are `operandTypes`,
/// yielding a compute value of `resultType`, rounded to it.
mlir::Value emitElementwise(mlir::OpBuilder &builder, mlir::Location loc,
                            tile::ElementwiseKind kind,
                            mlir::ValueRange operands,
                            mlir::TypeRange operandTypes,
                            mlir::Type resultType);
/// The initial value of an aggregation over `tileType`.
mlir::Value emitIdentity(mlir::OpBuilder &builder, mlir::Location loc,
                         tile::AggregationKind kind, mlir::Type tileType);
/// accumulator AGG value, both compute values of `tileType`.
mlir::Value emitAggregate(mlir::OpBuilder &builder, mlir::Location loc,
                          tile::AggregationKind kind, mlir::Type tileType,
                          mlir::Value accumulator, mlir::Value value);
/// a == b of two compute values of `tileType`, as i1.
mlir::Value emitEqual(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value a, mlir::Value b, mlir::Type tileType);

//===----------------------------------------------------------------------===//
// Running aggregates (Aggregation.cpp)
//===----------------------------------------------------------------------===//

/// Builds a running aggregate of `kind` over compute values of `tileType` as
/// a list of values (what scf.for and scf.if carry): the aggregate alone, or
/// for a compensated float sum (Kahan-Babuska-Neumaier) the rounded sum and
/// the running sum of the rounding errors, so that the error of the result
/// does not grow with the number of terms.
class Aggregator {
public:
  Aggregator(mlir::OpBuilder &builder, mlir::Location loc,
             tile::AggregationKind kind, mlir::Type tileType, bool compensated);

  /// The number of values an aggregate is made of (2 when compensated).
  unsigned size() const { return compensated ? 2 : 1; }
  /// The type of each of them (the compute type).
  mlir::Type getType() const { return computeType; }
  /// The aggregate of no term, starting from `initial`.
  llvm::SmallVector<mlir::Value> start(mlir::Value initial);
  /// `state` with one more term.
  llvm::SmallVector<mlir::Value> add(mlir::ValueRange state, mlir::Value term);
  /// `state` with the term `a * b` (compute values of the aggregate's type):
  /// a float sum fuses the product into its sum with one correctly rounded
  /// fma, and a compensated one also carries the product's exact rounding
  /// error; otherwise add(state, a * b).
  llvm::SmallVector<mlir::Value> addProduct(mlir::ValueRange state,
                                            mlir::Value a, mlir::Value b);
  /// A float sum of the terms of `state`, each multiplied by `factor` (a
  /// compute value): an online sum's rescaling (OnlineSums.h).
  llvm::SmallVector<mlir::Value> scale(mlir::ValueRange state,
                                       mlir::Value factor);
  /// The aggregate of the terms of `a` and `b` (partials of two work-items).
  llvm::SmallVector<mlir::Value> combine(mlir::ValueRange a,
                                         mlir::ValueRange b);
  /// The aggregate's value.
  mlir::Value finish(mlir::ValueRange state);

private:
  /// a + b rounded, and its rounding error (exact unless the sum
  /// overflows).
  std::pair<mlir::Value, mlir::Value> sumWithError(mlir::Value a,
                                                   mlir::Value b);

  mlir::OpBuilder &builder;
  mlir::Location loc;
  tile::AggregationKind kind;
  mlir::Type tileType, computeType;
  bool compensated;
};

//===----------------------------------------------------------------------===//
// Index arithmetic and buffers
//===----------------------------------------------------------------------===//

/// Index arithmetic on `index` values, folded where operands are constant.
class IndexBuilder {
public:
  IndexBuilder(mlir::OpBuilder &builder, mlir::Location loc)
      : builder(builder), loc(loc) {}

  mlir::Value constant(int64_t value);
  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, int64_t factor);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  /// Exact floor(a / den) and ceil(a / den) for den > 0 and any sign of a.
  mlir::Value floorDiv(mlir::Value a, int64_t den);
  mlir::Value ceilDiv(mlir::Value a, int64_t den);
  /// a % den == 0.
  mlir::Value divides(mlir::Value a, int64_t den);
  mlir::Value cmp(mlir::arith::CmpIPredicate predicate, mlir::Value a,
                  mlir::Value b);
  mlir::Value lessThan(mlir::Value a, int64_t bound);
  /// The smaller of a and b (signed).
  mlir::Value min(mlir::Value a, mlir::Value b);
  mlir::Value land(mlir::Value a, mlir::Value b);
  /// sum_k coeffs[k] * vars[k] + constant (the numerator; den not applied).
  mlir::Value numerator(const QuasiAffine &expr,
                        mlir::ArrayRef<mlir::Value> vars);
  /// block_id * block_dim + thread_id along `dim`.
  mlir::Value globalId(mlir::gpu::Dimension dim);
  /// The C-order coordinates of `linear` in `shape`.
  llvm::SmallVector<mlir::Value> delinearize(mlir::Value linear,
                                             llvm::ArrayRef<int64_t> shape);
  /// The C-order linear position of `coords` in `shape`; size-1 extents
  /// read coordinate 0 and missing leading axes are dropped (NumPy
  /// broadcasting of a `shape` operand into `coords`' space).
  mlir::Value linearizeBroadcast(mlir::ArrayRef<mlir::Value> coords,
                                 llvm::ArrayRef<int64_t> shape);

  /// `OpTy(a, b)`, folded where `fold` is set and it folds (which puts a
  /// commutative op's constant operand second), or the op made before for
  /// the same operands where it dominates the insertion point.
  template <typename OpTy>
  mlir::Value create(mlir::Value a, mlir::Value b, bool fold = true) {
    BinaryKey key{mlir::TypeID::get<OpTy>(), a, b};
    if (mlir::Value known = findMade(key))
      return known;
    mlir::Value result = fold ? builder.createOrFold<OpTy>(loc, a, b)
                              : builder.create<OpTy>(loc, a, b).getResult();
    if (result.getDefiningOp<OpTy>())
      made[key] = result;
    return result;
  }

  mlir::OpBuilder &builder;
  mlir::Location loc;

private:
  using BinaryKey = std::tuple<mlir::TypeID, mlir::Value, mlir::Value>;
  mlir::Value findMade(const BinaryKey &key);

  // The emitters ask for the same constants and index arithmetic over and
  // over (an implicit GEMM's kernel for some 2,700 ops of which 800
  // differ); each made anew cost its creation and then the CSE's hashing
  // (docs/codegen.md, "Compile time"). The last op made of each constant,
  // and of each op kind and operands, is given again wherever it dominates
  // the insertion point, as the CSE would have merged the new one into it.
  llvm::DenseMap<int64_t, mlir::arith::ConstantIndexOp> constants;
  llvm::DenseMap<BinaryKey, mlir::Value> made;
};

/// A value loaded from a buffer of `tileType` as a compute value.
mlir::Value emitFromStorage(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value stored, mlir::Type tileType);
/// A compute value of `tileType` as stored in its buffers.
mlir::Value emitToStorage(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value value, mlir::Type tileType);
/// Loads element `index` of `buffer` holding `tileType` as a compute value.
mlir::Value emitLoad(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value buffer, mlir::Value index,
                     mlir::Type tileType);
/// Stores the compute value `value` of `tileType` at `index`.
void emitStore(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value value,
               mlir::Value buffer, mlir::Value index, mlir::Type tileType);

//===----------------------------------------------------------------------===//
// Elementwise evaluation at one element
//===----------------------------------------------------------------------===//

/// Computes tile values at one element of a kernel's iteration space: values
/// the kernel defined, recomputed generators, or loads (broadcast) from the
/// buffers `bufferOf` names.
class ElementEvaluator {
public:
  ElementEvaluator(IndexBuilder &index, llvm::ArrayRef<int64_t> shape,
                   llvm::ArrayRef<mlir::Value> coords,
                   llvm::function_ref<mlir::Value(mlir::Value)> bufferOf)
      : index(index), shape(shape), coords(coords.begin(), coords.end()),
        bufferOf(bufferOf) {}
  /// At the element `linear` of `shape` (C order): operands with as many
  /// elements are loaded there directly; `coords` (empty where no operand
  /// is broadcast and no generator needs them) serve the others.
  ElementEvaluator(IndexBuilder &index, llvm::ArrayRef<int64_t> shape,
                   mlir::Value linear, llvm::ArrayRef<mlir::Value> coords,
                   llvm::function_ref<mlir::Value(mlir::Value)> bufferOf)
      : ElementEvaluator(index, shape, coords, bufferOf) {
    this->linear = linear;
  }

  void define(mlir::Value tileValue, mlir::Value scalar) {
    values[tileValue] = scalar;
  }
  /// Evaluates the elementwise op `op` (tile.ew, tile.cast or a generator)
  /// and defines its result.
  void compute(mlir::Operation *op);
  mlir::Value get(mlir::Value tileValue);

private:
  /// The coordinates of this element in a broadcast operand of `operandShape`.
  llvm::SmallVector<mlir::Value>
  operandCoords(llvm::ArrayRef<int64_t> operandShape);
  mlir::Value generate(mlir::Operation *op);

  IndexBuilder &index;
  llvm::ArrayRef<int64_t> shape;
  llvm::SmallVector<mlir::Value> coords;
  mlir::Value linear;
  llvm::function_ref<mlir::Value(mlir::Value)> bufferOf;
  llvm::DenseMap<mlir::Value, mlir::Value> values;
};

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_KERNELEMITTER_H
