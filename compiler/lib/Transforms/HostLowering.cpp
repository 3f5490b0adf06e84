//===- HostLowering.cpp - Kernels, buffers and launches -------------------===//
//
// lowerToKernels: forms kernels, analyses and schedules each, proves that
// they and their buffers fit the device, then rewrites the module into the
// kernel IR (docs/kernel-ir.md): a gpu.module of kernels and a host function
// over flat buffers that allocates temporaries and launches the kernels in
// order.
//
//===----------------------------------------------------------------------===//

#include "KernelBodies.h"
#include "KernelCost.h"

#include "tilec/Transforms/Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {

/// What lowering knows about one kernel before it builds it.
struct KernelInfo {
  Location loc;
  std::string name;
  std::string source;
  std::optional<IndexSystem> system;
  std::optional<ContractionSpace> space;
  TupleCount tuples;
  Schedule schedule;
  /// The tile values whose buffers the kernel takes, reads then writes.
  llvm::SetVector<Value> reads, writes;
  double flops = 0, bytes = 0;
};

class HostLowering {
public:
  HostLowering(ModuleOp module, const DeviceProfile &profile,
               llvm::raw_ostream *explain)
      : module(module), profile(profile), explain(explain),
        builder(module.getContext()) {}

  LogicalResult run();

private:
  LogicalResult analyse();
  LogicalResult checkMemory();
  void collectBuffers(KernelInfo &info, const KernelGroup &group);
  Value getRoot(Value value);
  int64_t getBufferBytes(Value value);
  unsigned getIndexBits();
  void buildHost(func::FuncOp host);
  gpu::GPUFuncOp buildKernel(gpu::GPUModuleOp kernels, unsigned group,
                             KernelInfo &info);
  void printExplanation(const KernelInfo &info, const KernelGroup &group);
  /// How a reduction work-group shares an element's loop nest.
  void printSharing(const KernelInfo &info);

  ModuleOp module;
  const DeviceProfile &profile;
  llvm::raw_ostream *explain;
  OpBuilder builder;
  func::FuncOp function;
  KernelPlan plan;
  std::vector<KernelInfo> infos;
  /// The host buffer of each root value (arguments, outputs, temporaries).
  llvm::DenseMap<Value, Value> hostBuffers;
  SmallVector<Value> outputArgs;
  /// Launches go before the host function's return.
  Operation *hostInsertion = nullptr;
};

} // namespace

/// "file:line:col" of `loc`, if it has one.
static std::optional<std::string> formatLocation(Location loc) {
  auto fileLoc = loc->findInstanceOf<FileLineColLoc>();
  if (!fileLoc)
    return std::nullopt;
  return (fileLoc.getFilename().getValue() + ":" +
          llvm::Twine(fileLoc.getLine()) + ":" +
          llvm::Twine(fileLoc.getColumn()))
      .str();
}

/// The Tile name an op's NameLoc gives its result, if any.
static std::optional<std::string> getTensorName(Location loc) {
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

Value HostLowering::getRoot(Value value) {
  while (auto reshape = value.getDefiningOp<tile::ReshapeOp>())
    value = reshape.getInput();
  return value;
}

int64_t HostLowering::getBufferBytes(Value value) {
  MemRefType type = getBufferType(cast<RankedTensorType>(value.getType()));
  return type.getNumElements() *
         std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
}

void HostLowering::collectBuffers(KernelInfo &info, const KernelGroup &group) {
  if (group.kind == KernelKind::Copy) {
    info.reads.insert(getRoot(group.copySource));
    return;
  }
  for (Operation *op : group.ops) {
    if (isa<tile::ShapeOp>(op))
      continue;
    auto contract = dyn_cast<tile::ContractOp>(op);
    for (Value operand : op->getOperands()) {
      auto it = plan.groupOf.find(operand);
      bool inGroup =
          it != plan.groupOf.end() && &plan.groups[it->second] == &group;
      Operation *producer = operand.getDefiningOp();
      // Generators are recomputed by elementwise evaluation (the init of a
      // contraction included); contraction inputs are read from memory.
      bool recomputed = producer && isGenerator(producer) &&
                        (!contract || operand == contract.getInit());
      if (!inGroup && !recomputed)
        info.reads.insert(getRoot(operand));
    }
  }
  for (Value value : group.stored)
    info.writes.insert(value);
}

LogicalResult HostLowering::analyse() {
  for (auto [index, group] : llvm::enumerate(plan.groups)) {
    Operation *anchor = group.ops.empty() ? nullptr : group.ops.front();
    Location loc = anchor ? anchor->getLoc() : function.getLoc();
    KernelInfo info{loc, "", "", std::nullopt, std::nullopt, {}, {}, {}, {}};
    if (group.kind == KernelKind::Copy) {
      if (Operation *producer = group.copySource.getDefiningOp())
        info.loc = producer->getLoc();
    }

    // Name and source: the named statements the kernel computes.
    SmallVector<std::string> sources;
    std::string lastName;
    for (Operation *op : group.ops) {
      if (auto name = getTensorName(op->getLoc())) {
        lastName = *name;
        if (auto source = formatLocation(op->getLoc()))
          sources.push_back(*source);
      }
    }
    if (sources.empty())
      if (auto source = formatLocation(info.loc))
        sources.push_back(*source);
    info.source = llvm::join(sources, ",");
    if (group.kind == KernelKind::Copy)
      lastName = "copy_" + std::to_string(group.copyOutput);
    info.name = "k" + std::to_string(index) +
                (lastName.empty() ? "" : "_" + sanitize(lastName));

    int64_t elements = group.type.getNumElements();
    unsigned ewOps = llvm::count_if(
        group.ops, [](Operation *op) { return isa<tile::ElementwiseOp>(op); });
    if (group.kind == KernelKind::Contraction) {
      auto contract = cast<tile::ContractOp>(anchor);
      info.system = getIndexSystem(contract);
      std::string error;
      info.space = analyzeIndexSpace(*info.system, error);
      if (!info.space)
        return emitError(loc) << error;
      std::optional<int64_t> tuplesPerElement = info.space->tuplesPerElement();
      if (contract.getAggregation() == tile::AggregationKind::Assign &&
          elements > 0 && tuplesPerElement && *tuplesPerElement > 1)
        return emitError(loc)
               << "`=` assigns every output element " << *tuplesPerElement
               << " times, but each element may have at most one valid "
                  "index tuple; aggregate with `+`, `>`, ... to combine them";
      info.tuples = countTuples(*info.space, *info.system);
      info.schedule = scheduleContraction(contract, *info.space, *info.system,
                                          info.tuples, profile);
      double perTuple =
          contract.getCombination() == tile::CombinationKind::None ? 1 : 2;
      info.flops = info.tuples.tuples * perTuple;
    } else {
      info.schedule =
          schedulePerElement(elements, 16 + int64_t(group.ops.size()), profile);
    }
    info.flops += double(elements) * ewOps;
    if (failed(verifyScheduleFits(info.schedule, profile, info.loc)))
      return failure();
    collectBuffers(info, group);
    for (Value value : info.reads)
      info.bytes += getBufferBytes(value);
    for (Value value : info.writes)
      info.bytes += getBufferBytes(value);
    if (group.kind == KernelKind::Copy)
      info.bytes += getBufferBytes(group.copySource);
    infos.push_back(std::move(info));
  }
  return success();
}

LogicalResult HostLowering::checkMemory() {
  // Every buffer the program needs: arguments, outputs, temporaries.
  SmallVector<std::pair<Value, Location>> buffers;
  for (BlockArgument argument : function.getArguments())
    buffers.emplace_back(argument, argument.getLoc());
  for (const KernelGroup &group : plan.groups)
    for (Value value : group.stored)
      buffers.emplace_back(value, value.getDefiningOp()->getLoc());
  double total = 0;
  for (auto [value, loc] : buffers) {
    int64_t bytes = getBufferBytes(value);
    total += bytes;
    if (profile.maxAllocBytes && uint64_t(bytes) > profile.maxAllocBytes) {
      std::string name = getTensorName(loc).value_or("a temporary");
      return emitError(loc)
             << "tensor '" << name << "' needs " << bytes
             << " bytes, more than the largest buffer device '" << profile.name
             << "' allows (" << profile.maxAllocBytes
             << " bytes); splitting a tensor over several buffers is not "
                "supported";
    }
  }
  if (profile.globalMemBytes && total > double(profile.globalMemBytes))
    return emitError(function.getLoc())
           << "the program's buffers need " << int64_t(total)
           << " bytes, more than the memory of device '" << profile.name
           << "' (" << profile.globalMemBytes << " bytes)";
  return success();
}

unsigned HostLowering::getIndexBits() {
  constexpr double limit = double(int64_t(1) << 31);
  for (BlockArgument argument : function.getArguments())
    if (cast<RankedTensorType>(argument.getType()).getNumElements() >= limit)
      return 64;
  for (auto [group, info] : llvm::zip(plan.groups, infos)) {
    if (group.type.getNumElements() >= limit ||
        info.tuples.maxMagnitude >= limit)
      return 64;
    const Schedule &s = info.schedule;
    for (unsigned dim = 0; dim < 3; ++dim)
      if (double(s.numGroups[dim]) * double(s.localSize[dim]) >= limit)
        return 64;
    // A shared loop nest may walk an element's tuples as one linear range.
    if (s.kind == ScheduleKind::ReductionContraction &&
        info.tuples.perElement + double(s.localSize[0]) >= limit)
      return 64;
  }
  return 32;
}

gpu::GPUFuncOp HostLowering::buildKernel(gpu::GPUModuleOp kernels,
                                         unsigned groupIndex,
                                         KernelInfo &info) {
  const KernelGroup &group = plan.groups[groupIndex];
  MLIRContext *context = module.getContext();
  // Arguments: one per distinct host buffer, reads then writes.
  SmallVector<Value> argumentValues;
  llvm::DenseMap<Value, unsigned> argumentOf;
  auto addArgument = [&](Value hostBuffer) {
    if (argumentOf.try_emplace(hostBuffer, argumentValues.size()).second)
      argumentValues.push_back(hostBuffer);
  };
  for (Value value : info.reads)
    addArgument(hostBuffers.lookup(value));
  for (Value value : info.writes)
    addArgument(hostBuffers.lookup(value));
  Value copyTarget;
  if (group.kind == KernelKind::Copy) {
    copyTarget = outputArgs[group.copyOutput];
    addArgument(copyTarget);
  }
  SmallVector<Type> argumentTypes;
  for (Value value : argumentValues)
    argumentTypes.push_back(value.getType());

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(kernels.getBody());
  if (Operation *terminator = kernels.getBody()->getTerminator())
    builder.setInsertionPoint(terminator);
  auto kernel = builder.create<gpu::GPUFuncOp>(
      info.loc, info.name, builder.getFunctionType(argumentTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  const Schedule &schedule = info.schedule;
  SmallVector<int32_t> workgroup(schedule.localSize.begin(),
                                 schedule.localSize.end());
  kernel->setAttr(spirv::getEntryPointABIAttrName(),
                  spirv::EntryPointABIAttr::get(
                      context, builder.getDenseI32ArrayAttr(workgroup),
                      std::nullopt, std::nullopt));
  kernel->setAttr("tile.source", builder.getStringAttr(info.source));
  kernel->setAttr("tile.flops", builder.getF64FloatAttr(info.flops));
  kernel->setAttr("tile.bytes", builder.getF64FloatAttr(info.bytes));

  Block &entry = kernel.getBody().front();
  builder.setInsertionPointToStart(&entry);
  auto returnOp = builder.create<gpu::ReturnOp>(info.loc);
  builder.setInsertionPoint(returnOp);
  auto bufferOf = [&](Value value) -> Value {
    return entry.getArgument(
        argumentOf.lookup(hostBuffers.lookup(getRoot(value))));
  };
  KernelContext kernelContext{
      group,
      schedule,
      builder,
      info.loc,
      bufferOf,
      info.space ? &*info.space : nullptr,
      info.system ? &*info.system : nullptr,
      copyTarget ? entry.getArgument(argumentOf.lookup(copyTarget)) : Value()};
  switch (schedule.kind) {
  case ScheduleKind::PerElement:
    emitPerElementKernel(kernelContext);
    break;
  case ScheduleKind::GenericContraction:
    emitGenericContraction(kernelContext);
    break;
  case ScheduleKind::TiledContraction:
    emitTiledContraction(kernelContext);
    break;
  case ScheduleKind::ReductionContraction:
    emitReductionContraction(kernelContext);
    break;
  }

  // The launch, in the host function.
  builder.setInsertionPoint(hostInsertion);
  auto constant = [&](int64_t value) -> Value {
    return builder.create<arith::ConstantIndexOp>(info.loc, value);
  };
  gpu::KernelDim3 grid{constant(schedule.numGroups[0]),
                       constant(schedule.numGroups[1]),
                       constant(schedule.numGroups[2])};
  gpu::KernelDim3 block{constant(schedule.localSize[0]),
                        constant(schedule.localSize[1]),
                        constant(schedule.localSize[2])};
  builder.create<gpu::LaunchFuncOp>(info.loc, kernel, grid, block, Value(),
                                    argumentValues);
  return kernel;
}

void HostLowering::buildHost(func::FuncOp host) {
  Block *entry = host.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  hostInsertion = builder.create<func::ReturnOp>(function.getLoc());
  unsigned numInputs = function.getNumArguments();
  for (BlockArgument argument : function.getArguments())
    hostBuffers[argument] = entry->getArgument(argument.getArgNumber());
  Operation *returnOp = function.getBody().front().getTerminator();
  for (auto [position, value] : llvm::enumerate(returnOp->getOperands())) {
    Value output = entry->getArgument(numInputs + position);
    outputArgs.push_back(output);
    if (plan.outputIsOwned[position])
      hostBuffers[value] = output;
  }
  // Temporaries: every other stored value.
  builder.setInsertionPoint(hostInsertion);
  unsigned unnamed = 0;
  for (const KernelGroup &group : plan.groups) {
    for (Value value : group.stored) {
      if (hostBuffers.count(value))
        continue;
      auto type = cast<RankedTensorType>(value.getType());
      Location loc = value.getDefiningOp()->getLoc();
      auto alloc = builder.create<memref::AllocOp>(loc, getBufferType(type));
      std::string name =
          getTensorName(loc).value_or("_t" + std::to_string(unnamed++));
      alloc->setAttr("tile.name", builder.getStringAttr(name));
      alloc->setAttr("tile.dtype", builder.getStringAttr(dtypeName(
                                       getDType(type.getElementType()))));
      alloc->setAttr("tile.shape", builder.getI64ArrayAttr(type.getShape()));
      hostBuffers[value] = alloc;
    }
  }
}

static const char *getScheduleName(ScheduleKind kind) {
  switch (kind) {
  case ScheduleKind::PerElement:
    return "per element";
  case ScheduleKind::GenericContraction:
    return "generic contraction";
  case ScheduleKind::TiledContraction:
    return "tiled";
  case ScheduleKind::ReductionContraction:
    return "reduction";
  }
  llvm_unreachable("unknown schedule kind");
}

void HostLowering::printSharing(const KernelInfo &info) {
  llvm::raw_ostream &os = *explain;
  const Schedule &s = info.schedule;
  const WorkSplit &split = s.split;
  const std::vector<double> &trips = info.tuples.levelTrips;
  os << "  sharing: the " << s.localSize[0] << " work-items stride over ";
  if (split.stridedLevel < split.mergedLevels) {
    double total = 1;
    for (unsigned level = 0; level < split.mergedLevels; ++level)
      total *= trips[level];
    os << "loops 0.." << split.mergedLevels - 1 << " merged into one range of "
       << llvm::format("%.0f", total) << " tuples";
  } else {
    os << "loop " << split.stridedLevel << " (up to "
       << llvm::format("%.0f", trips[split.stridedLevel]) << " iterations)";
  }
  unsigned steps = llvm::Log2_64(uint64_t(s.localSize[0]));
  os << "; the other loops run whole in each; then " << steps
     << " tree steps in local memory\n";
}

void HostLowering::printExplanation(const KernelInfo &info,
                                    const KernelGroup &group) {
  llvm::raw_ostream &os = *explain;
  const Schedule &s = info.schedule;
  os << "kernel " << info.name << " (" << info.source << ")\n";
  unsigned fused = group.ops.size() > 1 ? group.ops.size() - 1 : 0;
  switch (group.kind) {
  case KernelKind::Contraction:
    os << "  computes: a contraction";
    if (fused)
      os << " with " << fused << " elementwise op(s) fused into its epilogue";
    break;
  case KernelKind::Elementwise:
    os << "  computes: " << group.ops.size() << " fused elementwise op(s)";
    break;
  case KernelKind::Copy:
    os << "  computes: a copy into output " << group.copyOutput;
    break;
  }
  os << " over " << group.type << "\n";
  const char *kind = getScheduleName(s.kind);
  int64_t threads = s.localSize[0] * s.localSize[1] * s.localSize[2];
  os << "  schedule: " << kind << "; work-groups " << s.numGroups[0] << "x"
     << s.numGroups[1] << "x" << s.numGroups[2] << " of " << s.localSize[0]
     << "x" << s.localSize[1] << "x" << s.localSize[2] << " (" << threads
     << " work-items; device maximum " << profile.maxWorkGroupSize << ")\n";
  if (s.kind == ScheduleKind::TiledContraction)
    os << "  tile: " << s.tile.blockM << "x" << s.tile.blockN
       << " outputs per work-group, " << s.tile.regM << "x" << s.tile.regN
       << " per work-item (registers), reduction slices of " << s.tile.blockK
       << "\n";
  if (s.kind == ScheduleKind::ReductionContraction)
    printSharing(info);
  if (s.compensated)
    os << "  accumulation: compensated float sum (Kahan-Babuska-Neumaier): the "
          "rounding "
          "error does not grow with the number of terms\n";
  os << "  local memory: " << s.localMemBytes
     << " bytes (device: " << profile.localMemBytes << "); registers: about "
     << s.registers << " per work-item (budget " << kRegisterBudget << ")\n";
  os << "  flops: " << llvm::format("%.6g", info.flops)
     << (info.tuples.exact ? " (exact)"
                           : " (upper bound: the index space is "
                             "not a dense box)")
     << "; bytes: " << llvm::format("%.6g", info.bytes)
     << " (minimum); arithmetic intensity: "
     << llvm::format("%.3g", info.bytes > 0 ? info.flops / info.bytes : 0.0)
     << " flop/byte\n";
  os << "  why: " << s.reason << "\n";
}

LogicalResult HostLowering::run() {
  auto functions = module.getOps<func::FuncOp>();
  if (std::distance(functions.begin(), functions.end()) != 1)
    return emitError(module.getLoc())
           << "lowering expects a module with one func.func of tile ops";
  function = *functions.begin();
  if (!function.getBody().hasOneBlock())
    return emitError(function.getLoc()) << "expected a single-block function";
  for (Operation &op : function.getBody().front()) {
    if (!isa<tile::TileDialect>(op.getDialect()) && !isa<func::ReturnOp>(op))
      return emitError(op.getLoc())
             << "lowering expects tile ops, found '" << op.getName() << "'";
  }

  plan = formKernels(function);
  if (failed(analyse()) || failed(checkMemory()))
    return failure();

  MLIRContext *context = module.getContext();
  context
      ->loadDialect<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
                    spirv::SPIRVDialect, vector::VectorDialect>();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());
  module->setAttr("tile.index_bits", builder.getI64IntegerAttr(getIndexBits()));

  // The host function replaces the tile function under its name.
  SmallVector<Type> argumentTypes;
  SmallVector<DictionaryAttr> argumentAttrs;
  auto describe = [&](Type type, Attribute name, StringRef kind) {
    auto tensorType = cast<RankedTensorType>(type);
    argumentTypes.push_back(getBufferType(tensorType));
    SmallVector<NamedAttribute> attrs{
        builder.getNamedAttr("tile.name",
                             name ? name : builder.getStringAttr("")),
        builder.getNamedAttr("tile.dtype",
                             builder.getStringAttr(dtypeName(
                                 getDType(tensorType.getElementType())))),
        builder.getNamedAttr("tile.shape",
                             builder.getI64ArrayAttr(tensorType.getShape())),
        builder.getNamedAttr("tile.kind", builder.getStringAttr(kind))};
    argumentAttrs.push_back(builder.getDictionaryAttr(attrs));
  };
  for (unsigned i = 0; i < function.getNumArguments(); ++i)
    describe(function.getArgumentTypes()[i],
             function.getArgAttr(i, "tile.name"), "input");
  for (unsigned i = 0; i < function.getNumResults(); ++i)
    describe(function.getResultTypes()[i],
             function.getResultAttr(i, "tile.name"), "output");

  std::string name = function.getName().str();
  function.setName("__tile_source");
  builder.setInsertionPointToEnd(module.getBody());
  auto kernels = builder.create<gpu::GPUModuleOp>(module.getLoc(), "kernels");
  builder.setInsertionPointToEnd(module.getBody());
  auto host = builder.create<func::FuncOp>(
      function.getLoc(), name, builder.getFunctionType(argumentTypes, {}));
  for (auto [index, attrs] : llvm::enumerate(argumentAttrs))
    host.setArgAttrs(index, attrs);
  buildHost(host);

  for (auto [index, info] : llvm::enumerate(infos)) {
    if (info.schedule.activeItems == 0)
      continue;
    buildKernel(kernels, index, info);
    if (explain)
      printExplanation(info, plan.groups[index]);
  }
  function.erase();

  // The emitters build index arithmetic locally; share what repeats and
  // drop what folding left unused.
  IRRewriter rewriter(context);
  DominanceInfo dominance(module);
  eliminateCommonSubExpressions(rewriter, dominance, module);
  (void)runRegionDCE(rewriter, module->getRegions());
  return success();
}

LogicalResult tilec::lowerToKernels(ModuleOp module,
                                    const DeviceProfile &profile,
                                    llvm::raw_ostream *explain) {
  return HostLowering(module, profile, explain).run();
}
