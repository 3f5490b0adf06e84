//===- SPIRVIntegerMerging.cpp - Integer arithmetic computed once ---------===//
//
// The preparation's passes (the vector buffers' term-by-term division above
// all) compute some addresses again that the kernel already has, and the
// unrolled loops make the kernel thousands of ops long. MLIR's CSE hashes
// every op of it, the float ones included, at some 8,000 instructions an op:
// 15% of a matrix product's translation, to merge some twenty integer ops
// (docs/codegen.md, "Compile time"). This merge hashes only integer ops.
//
//===----------------------------------------------------------------------===//

#include "SPIRVIntegerMerging.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/ScopedHashTable.h"
#include "llvm/Support/RecyclingAllocator.h"

using namespace mlir;

namespace {
/// Ops keyed by what they compute: their name, operands, attributes,
/// properties (a constant's value) and result types.
struct ComputedValueInfo : llvm::DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *key) {
    auto *op = const_cast<Operation *>(key);
    return llvm::hash_combine(
        op->getName(), op->getRawDictionaryAttrs(), op->hashProperties(),
        llvm::hash_combine_range(op->result_type_begin(),
                                 op->result_type_end()),
        llvm::hash_combine_range(op->operand_begin(), op->operand_end()));
  }
  static bool isEqual(const Operation *lhs, const Operation *rhs) {
    if (lhs == rhs)
      return true;
    if (lhs == getEmptyKey() || lhs == getTombstoneKey() ||
        rhs == getEmptyKey() || rhs == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(
        const_cast<Operation *>(lhs), const_cast<Operation *>(rhs),
        OperationEquivalence::IgnoreLocations);
  }
};

using KnownValues = llvm::ScopedHashTable<
    Operation *, Operation *, ComputedValueInfo,
    llvm::RecyclingAllocator<
        llvm::BumpPtrAllocator,
        llvm::ScopedHashTableVal<Operation *, Operation *>>>;
} // namespace

/// An op whose one result only its operands and attributes decide.
static bool isMergeable(Operation &op) {
  return op.getNumRegions() == 0 && op.getNumResults() == 1 &&
         op.getResult(0).getType().isIntOrIndex() &&
         llvm::all_of(op.getOperandTypes(),
                      [](Type type) { return type.isIntOrIndex(); }) &&
         isMemoryEffectFree(&op);
}

static void mergeInRegion(Region &region, KnownValues &known) {
  for (Block &block : region) {
    // What a block computes is known in the regions inside it, not in the
    // blocks after it, which it may not dominate.
    KnownValues::ScopeTy scope(known);
    for (Operation &op : llvm::make_early_inc_range(block)) {
      for (Region &nested : op.getRegions())
        mergeInRegion(nested, known);
      if (!isMergeable(op))
        continue;
      if (Operation *first = known.lookup(&op)) {
        op.replaceAllUsesWith(first);
        op.erase();
        continue;
      }
      known.insert(&op, &op);
    }
  }
}

void tilec::mergeEqualIntegerArithmetic(Operation *root) {
  KnownValues known;
  for (Region &region : root->getRegions())
    mergeInRegion(region, known);
}
