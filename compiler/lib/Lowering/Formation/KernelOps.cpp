//===- KernelOps.cpp - Kernel plans as tile.kernel ops --------------------===//
//
// Kernel formation's decisions live in the IR as tile.kernel ops between
// the passes of lowering. A pass that needs the kernels as a plan reads
// them (the ops move back into the function, as kernel formation found
// them) and writes them again: the analyses see the values they always saw.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/KernelFormation.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// `type` is what a `tile` value may be: a statically shaped tensor of a
/// Tile dtype (TileOps.td's Tile_Tensor).
static bool isTileTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return false;
  Type element = tensor.getElementType();
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(element))
    return true;
  return llvm::any_of(ArrayRef<unsigned>{1, 8, 16, 32, 64}, [&](unsigned w) {
    return element.isSignlessInteger(w) ||
           (w > 1 && element.isUnsignedInteger(w));
  });
}

FailureOr<func::FuncOp> lowering::getTileFunction(ModuleOp module) {
  auto functions = module.getOps<func::FuncOp>();
  if (std::distance(functions.begin(), functions.end()) != 1)
    return emitError(module.getLoc())
           << "lowering expects a module with one func.func of tile ops";
  func::FuncOp function = *functions.begin();
  if (!function.getBody().hasOneBlock())
    return emitError(function.getLoc()) << "expected a single-block function";
  // The passes size buffers and kernels from the signature.
  FunctionType signature = function.getFunctionType();
  for (Type type :
       llvm::concat<const Type>(signature.getInputs(), signature.getResults()))
    if (!isTileTensor(type))
      return emitError(function.getLoc())
             << "lowering expects arguments and results that are tensors of "
                "static shape and a Tile dtype, found "
             << type;
  for (Operation &op : function.getBody().front()) {
    if (!isa<tile::TileDialect>(op.getDialect()) && !isa<func::ReturnOp>(op))
      return emitError(op.getLoc())
             << "lowering expects tile ops, found '" << op.getName() << "'";
  }
  return function;
}

void lowering::writeKernels(func::FuncOp function, const KernelPlan &plan) {
  Block &body = function.getBody().front();
  Operation *returnOp = body.getTerminator();
  // The ops left outside kernels (reshapes, recomputed generators), in
  // program order.
  llvm::DenseSet<Operation *> grouped;
  for (const KernelGroup &group : plan.groups)
    grouped.insert(group.ops.begin(), group.ops.end());
  SmallVector<Operation *> ungrouped;
  for (Operation &op : body.without_terminator())
    if (!grouped.count(&op))
      ungrouped.push_back(&op);

  OpBuilder builder(returnOp);
  MLIRContext *context = function.getContext();
  // The kernel result standing for each stored value outside its kernel.
  llvm::DenseMap<Value, Value> results;
  for (const KernelGroup &group : plan.groups) {
    bool copy = group.kind == KernelKind::Copy;
    // A kernel yields the values it stores and those only whose shape is
    // read outside it (by tile.shape), in program order.
    SmallVector<Value> yielded;
    if (copy) {
      Value source = results.lookup(group.copySource);
      yielded.push_back(source ? source : group.copySource);
    } else {
      llvm::DenseSet<Operation *> inGroup(group.ops.begin(), group.ops.end());
      llvm::DenseSet<Value> stored(group.stored.begin(), group.stored.end());
      for (Operation *op : group.ops) {
        Value value = op->getResult(0);
        if (stored.count(value) ||
            llvm::any_of(value.getUsers(),
                         [&](Operation *user) { return !inGroup.count(user); }))
          yielded.push_back(value);
      }
    }
    auto kernel = builder.create<tile::KernelOp>(
        *group.loc, ValueRange(yielded).getTypes(),
        tile::KernelKindAttr::get(context, group.kind),
        builder.getStringAttr(group.name),
        group.splitReason.empty() ? StringAttr()
                                  : builder.getStringAttr(group.splitReason),
        tile::ScheduleAttr(), DenseI64ArrayAttr(), DenseI64ArrayAttr());
    if (group.attributes)
      for (NamedAttribute attr : group.attributes)
        kernel->setAttr(attr.getName(), attr.getValue());
    Block *kernelBody = new Block();
    kernel.getRegion().push_back(kernelBody);
    for (Operation *op : group.ops)
      op->moveBefore(kernelBody, kernelBody->end());
    OpBuilder::atBlockEnd(kernelBody)
        .create<tile::YieldOp>(*group.loc, yielded);
    auto outside = [&](OpOperand &use) {
      return !kernel->isProperAncestor(use.getOwner());
    };
    if (copy) {
      returnOp->setOperand(group.copyOutput, kernel.getResult(0));
      continue;
    }
    for (auto [value, result] : llvm::zip(yielded, kernel.getResults())) {
      value.replaceUsesWithIf(result, outside);
      results[value] = result;
    }
  }
  // An op left outside follows the last definition it reads.
  for (Operation *op : ungrouped) {
    Operation *last = nullptr;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == &body &&
          (!last || last->isBeforeInBlock(producer)))
        last = producer;
    }
    if (last && op->isBeforeInBlock(last))
      op->moveAfter(last);
  }
}

FailureOr<KernelPlan> lowering::readKernels(func::FuncOp function) {
  KernelPlan plan;
  Block &body = function.getBody().front();
  Operation *returnOp = body.getTerminator();
  llvm::DenseSet<unsigned> copiedOutputs;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    auto kernel = dyn_cast<tile::KernelOp>(op);
    if (!kernel) {
      if (!isa<tile::ReshapeOp>(op) && !isGenerator(&op))
        return op.emitError("expected in a tile.kernel: run kernel formation "
                            "(--tile-form-kernels) first");
      continue;
    }
    unsigned index = plan.groups.size();
    KernelGroup &group = plan.groups.emplace_back();
    group.kind = kernel.getKind();
    group.name = kernel.getKernelName().str();
    group.splitReason = kernel.getSplitReason().value_or("").str();
    group.loc = kernel.getLoc();
    group.type = kernel.getIterationType();
    SmallVector<NamedAttribute> attributes;
    for (NamedAttribute attr : kernel->getAttrs())
      if (attr.getName() != kernel.getKindAttrName() &&
          attr.getName() != kernel.getKernelNameAttrName() &&
          attr.getName() != kernel.getSplitReasonAttrName())
        attributes.push_back(attr);
    group.attributes = DictionaryAttr::get(function.getContext(), attributes);
    SmallVector<Value> yielded(kernel.getYield().getValues());
    if (group.kind == KernelKind::Copy) {
      group.copySource = yielded[0];
      Value result = kernel.getResult(0);
      if (!result.hasOneUse() || result.use_begin()->getOwner() != returnOp)
        return kernel.emitError("the result of copy kernel ")
               << group.name << " must be returned, once";
      group.copyOutput = result.use_begin()->getOperandNumber();
      copiedOutputs.insert(group.copyOutput);
    } else {
      // What leaves the kernel only to have its shape read is not stored.
      for (auto [value, result] : llvm::zip(yielded, kernel.getResults()))
        if (llvm::any_of(result.getUsers(), [](Operation *user) {
              return !isa<tile::ShapeOp>(user);
            }))
          group.stored.push_back(value);
    }
    for (Operation &inner :
         llvm::make_early_inc_range(kernel.getBody()->without_terminator())) {
      inner.moveBefore(kernel);
      group.ops.push_back(&inner);
      plan.groupOf[inner.getResult(0)] = index;
    }
    kernel.replaceAllUsesWith(yielded);
    kernel.erase();
  }
  for (auto [position, value] : llvm::enumerate(returnOp->getOperands()))
    plan.outputIsOwned.push_back(!copiedOutputs.count(position) &&
                                 plan.groupOf.count(value));
  return plan;
}
