//===- KernelFormation.cpp - Grouping tile ops into kernels ---------------===//
//
// Greedy fusion in program order. Groups launch in the order they were
// created, so an op may join an earlier group only when everything else it
// reads is ready before that group runs: a function argument, a generator it
// recomputes, or a buffer written by a group created before it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/KernelFormation.h"
#include "tilec/Lowering/Schedule.h"

#include "Formation/RowFusion.h"

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

std::optional<std::string> lowering::formatLocation(Location loc) {
  auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
  if (!fileLoc)
    return std::nullopt;
  return (fileLoc.getFilename().getValue() + ":" +
          llvm::Twine(fileLoc.getLine()) + ":" +
          llvm::Twine(fileLoc.getColumn()))
      .str();
}

std::optional<std::string> lowering::getTensorName(Location loc) {
  if (auto nameLoc = loc->findInstanceOf<NameLoc>())
    return nameLoc.getName().str();
  return std::nullopt;
}

/// `text` reduced to an OpenCL C identifier fragment.
static std::string sanitize(StringRef text) {
  std::string result;
  for (char c : text)
    result += llvm::isAlnum(c) ? c : '_';
  return result;
}

bool lowering::isGenerator(Operation *op) {
  return isa<tile::ConstantOp, tile::IndexOp, tile::ShapeOp>(op);
}

bool lowering::isElementwise(Operation *op) {
  return isa<tile::ElementwiseOp, tile::CastOp>(op) || isGenerator(op);
}

namespace {

/// Whether `user` reads the buffer of its operands (tile.shape only reads
/// the shape, which is static).
bool readsOperands(Operation *user) { return !isa<tile::ShapeOp>(user); }

class Former {
public:
  Former(func::FuncOp function, const DeviceProfile &profile)
      : function(function), profile(profile) {}
  KernelPlan run();

private:
  /// The group whose buffer `value` is read from, or -1 when reading it
  /// needs no earlier kernel (an argument or a recomputed generator).
  int getProducerGroup(Value value);
  /// True when `op` may join group `group` given its other operands.
  bool canJoin(Operation *op, unsigned group);
  /// True when group `group` can take no more ops within the register
  /// budget.
  bool isFull(unsigned group);
  void addToGroup(Operation *op, unsigned group);
  unsigned startGroup(Operation *op, KernelKind kind);
  /// Generators need a buffer when something reads them as a whole tensor.
  bool needsBuffer(Operation *generator);
  void markStoredValues(func::ReturnOp returnOp);
  /// Each group's name and location.
  void nameGroups();

  func::FuncOp function;
  const DeviceProfile &profile;
  KernelPlan plan;
};

} // namespace

int Former::getProducerGroup(Value value) {
  auto it = plan.groupOf.find(value);
  if (it != plan.groupOf.end())
    return it->second;
  Operation *op = value.getDefiningOp();
  if (auto reshape = dyn_cast_or_null<tile::ReshapeOp>(op))
    return getProducerGroup(reshape.getInput());
  return -1;
}

bool Former::canJoin(Operation *op, unsigned group) {
  const KernelGroup &target = plan.groups[group];
  if (target.kind == KernelKind::Copy || target.kind == KernelKind::Row)
    return false;
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (type.getShape() != target.type.getShape())
    return false;
  for (Value operand : op->getOperands()) {
    auto it = plan.groupOf.find(operand);
    if (it != plan.groupOf.end() && it->second == group)
      continue;
    if (getProducerGroup(operand) >= static_cast<int>(group))
      return false;
  }
  return true;
}

bool Former::isFull(unsigned group) {
  const KernelGroup &target = plan.groups[group];
  return target.kind == KernelKind::Elementwise &&
         estimateElementwiseRegisters(target.ops.size() + 1) > kRegisterBudget;
}

void Former::addToGroup(Operation *op, unsigned group) {
  plan.groups[group].ops.push_back(op);
  plan.groupOf[op->getResult(0)] = group;
}

unsigned Former::startGroup(Operation *op, KernelKind kind) {
  KernelGroup group;
  group.kind = kind;
  group.type = cast<RankedTensorType>(op->getResult(0).getType());
  plan.groups.push_back(std::move(group));
  addToGroup(op, plan.groups.size() - 1);
  return plan.groups.size() - 1;
}

bool Former::needsBuffer(Operation *generator) {
  for (Operation *user : generator->getUsers())
    if (!isElementwise(user))
      return true;
  return false;
}

void Former::markStoredValues(func::ReturnOp returnOp) {
  for (auto [index, group] : llvm::enumerate(plan.groups)) {
    for (Operation *op : group.ops) {
      Value value = op->getResult(0);
      bool leaves = llvm::any_of(value.getUsers(), [&](Operation *user) {
        if (!readsOperands(user))
          return false;
        auto it = user->getNumResults() == 1
                      ? plan.groupOf.find(user->getResult(0))
                      : plan.groupOf.end();
        return it == plan.groupOf.end() || it->second != index;
      });
      if (leaves)
        group.stored.push_back(value);
    }
  }

  // The first return of a value computed by a group writes the output
  // buffer directly; anything else is copied in at the end.
  llvm::DenseSet<Value> owned;
  for (auto [position, value] : llvm::enumerate(returnOp.getOperands())) {
    bool ownsOutput = plan.groupOf.count(value) && owned.insert(value).second;
    plan.outputIsOwned.push_back(ownsOutput);
    if (ownsOutput)
      continue;
    KernelGroup copy;
    copy.kind = KernelKind::Copy;
    copy.type = cast<RankedTensorType>(value.getType());
    copy.copySource = value;
    copy.copyOutput = position;
    plan.groups.push_back(std::move(copy));
  }
}

KernelPlan Former::run() {
  Block &body = function.getBody().front();
  // Row kernels take their chains whole, from the chain's first op; a chain
  // whose rows do not fit on chip says why at its reduction's kernel.
  llvm::DenseMap<Operation *, const RowChain *> chainStarts;
  llvm::DenseSet<Operation *> inRowKernel;
  std::vector<RowChain> chains = findRowChains(function, profile);
  for (const RowChain &chain : chains) {
    chainStarts[chain.ops.front()] = &chain;
    if (chain.whyNotFused.empty())
      inRowKernel.insert(chain.ops.begin(), chain.ops.end());
  }
  for (Operation &op : body.without_terminator()) {
    if (const RowChain *chain = chainStarts.lookup(&op);
        chain && chain->whyNotFused.empty()) {
      unsigned group = startGroup(&op, KernelKind::Row);
      plan.groups[group].type = chain->rowType;
      for (Operation *member : llvm::drop_begin(chain->ops))
        addToGroup(member, group);
      continue;
    }
    if (inRowKernel.count(&op))
      continue;
    if (isa<tile::ReshapeOp>(op))
      continue;
    if (isa<tile::ContractOp>(op)) {
      unsigned group = startGroup(&op, KernelKind::Contraction);
      if (const RowChain *chain = chainStarts.lookup(&op))
        plan.groups[group].splitReason =
            "not a row kernel with the " +
            std::to_string(chain->ops.size() - 1) +
            " ops after it that use its rows: " + chain->whyNotFused;
      continue;
    }
    if (isGenerator(&op)) {
      if (needsBuffer(&op))
        startGroup(&op, KernelKind::Elementwise);
      continue;
    }
    // Join the latest producer's group that admits the op: that keeps the
    // longest chain in one kernel.
    std::optional<unsigned> target, full;
    for (Value operand : op.getOperands()) {
      auto it = plan.groupOf.find(operand);
      if (it == plan.groupOf.end() || (target && *target >= it->second))
        continue;
      if (cast<RankedTensorType>(operand.getType()).getShape() !=
          cast<RankedTensorType>(op.getResult(0).getType()).getShape())
        continue;
      if (!canJoin(&op, it->second))
        continue;
      if (isFull(it->second))
        full = it->second;
      else
        target = it->second;
    }
    if (target) {
      addToGroup(&op, *target);
      continue;
    }
    unsigned group = startGroup(&op, KernelKind::Elementwise);
    if (full)
      plan.groups[group].splitReason =
          "a new kernel: the op would fuse into kernel k" +
          std::to_string(*full) + ", which already has " +
          std::to_string(plan.groups[*full].ops.size()) +
          " ops, the most whose estimated registers (16 + 1 per op) stay "
          "within the budget of " +
          std::to_string(kRegisterBudget);
  }
  markStoredValues(cast<func::ReturnOp>(body.getTerminator()));
  nameGroups();
  return std::move(plan);
}

void Former::nameGroups() {
  for (auto [index, group] : llvm::enumerate(plan.groups)) {
    group.loc = group.ops.empty() ? function.getLoc() : group.ops[0]->getLoc();
    if (group.kind == KernelKind::Copy)
      if (Operation *producer = group.copySource.getDefiningOp())
        group.loc = producer->getLoc();
    // After the last named statement the kernel computes.
    std::string lastName;
    for (Operation *op : group.ops)
      if (auto name = getTensorName(op->getLoc()))
        lastName = *name;
    if (group.kind == KernelKind::Copy)
      lastName = "copy_" + std::to_string(group.copyOutput);
    group.name = "k" + std::to_string(index) +
                 (lastName.empty() ? "" : "_" + sanitize(lastName));
  }
}

KernelPlan lowering::formKernels(func::FuncOp function,
                                 const DeviceProfile &profile) {
  return Former(function, profile).run();
}
