//===- HostLowering.cpp - Kernels, buffers and launches -------------------===//
//
// Rewrites the module into the kernel IR (docs/kernel-ir.md): a gpu.module
// of kernels, whose bodies KernelBodies/ emits, and a host function over
// flat buffers that allocates temporaries (and the pieces of split tensors)
// and launches the kernels in order, each chunk of a split launch on its
// own.
//
//===----------------------------------------------------------------------===//

#include "KernelIR/HostLowering.h"

#include "KernelBodies/KernelBodies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

/// The type of the temporary that holds the partial aggregates of a
/// two-pass schedule: its values (2 when compensated) for each element and
/// work-group (of a reduction) or part (of a split tiled schedule). Where
/// the last work-group combines them, they are the 32-bit words that its
/// atomics take.
static MemRefType getPartialsType(const KernelInfo &info,
                                  const KernelGroup &group) {
  const Schedule &s = info.schedule;
  int64_t values = s.compensated ? 2 : 1;
  Type computeType = getComputeType(group.type.getElementType());
  return MemRefType::get(
      {values * group.type.getNumElements() * s.partialGroups},
      s.lastGroupCombines ? IntegerType::get(computeType.getContext(), 32)
                          : computeType);
}

unsigned HostLowering::getIndexBits(gpu::GPUModuleOp kernels) {
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
    // A work-item's last step plus the stride must not wrap.
    if (s.kind == ScheduleKind::PerElement &&
        double(s.walk.steps) + double(s.numGroups[0] * s.localSize[0]) >= limit)
      return 64;
    // The positions in a two-pass schedule's partials.
    if (s.partialGroups > 1 &&
        double(getPartialsType(info, group).getNumElements()) >= limit)
      return 64;
    // A shared loop nest may walk an element's tuples as one linear range.
    if (s.kind == ScheduleKind::ReductionContraction &&
        info.tuples.perElement +
                double(s.localSize[0]) * double(s.partialGroups) >=
            limit)
      return 64;
  }
  // Last, as the one check that visits every op of the kernels: an index
  // constant of the source (a divisor of 2^63 - 1) that no i32 holds. The
  // SPIR-V conversion cannot make it 32-bit, and the OpenCL C's int
  // arithmetic would not be the kernel IR's.
  bool constantsFit = !kernels
                           .walk([](arith::ConstantIndexOp constant) {
                             return llvm::isInt<32>(constant.value())
                                        ? WalkResult::advance()
                                        : WalkResult::interrupt();
                           })
                           .wasInterrupted();
  return constantsFit ? 32 : 64;
}

/// `schedule` narrowed to `rows` rows of the group's outermost dimension,
/// each of `rowElements` elements: the same work-group and tile over fewer
/// work-groups.
static Schedule restrictToRows(Schedule schedule, int64_t rows,
                               int64_t rowElements) {
  switch (schedule.kind) {
  case ScheduleKind::PerElement:
  case ScheduleKind::GenericContraction:
    restrictLinearSchedule(schedule, rows * rowElements, rowElements);
    break;
  case ScheduleKind::TiledContraction: {
    DenseMatmul &matmul = *schedule.matmul;
    if (matmul.batched) {
      matmul.batch = rows;
      schedule.numGroups[2] = rows;
    } else {
      matmul.m = rows;
      schedule.numGroups[1] = llvm::divideCeil(rows, schedule.tile.blockM);
    }
    schedule.activeItems = matmul.batch * matmul.m * matmul.n;
    break;
  }
  case ScheduleKind::RowFused: {
    int64_t lanes = schedule.localSize[0] / schedule.rowsPerGroup;
    int64_t blocks = llvm::divideCeil(rows, schedule.rowsPerGroup);
    schedule.numGroups[0] = std::min(schedule.numGroups[0], blocks);
    schedule.activeItems = rows * lanes;
    break;
  }
  case ScheduleKind::ReductionContraction:
  case ScheduleKind::PartialCombination:
  case ScheduleKind::ImplicitGemm:
    llvm_unreachable("planChunks gives chunked reductions and implicit GEMMs "
                     "the generic schedule");
  }
  return schedule;
}

Value HostLowering::getChunkBuffer(Value hostBuffer, int64_t firstRow,
                                   int64_t viewRowElements) {
  auto it = hostPieces.find(hostBuffer);
  if (it == hostPieces.end())
    return hostBuffer;
  const HostPieces &split = it->second;
  int64_t pieceElements = split.layout.rowsPerPiece * split.layout.rowElements;
  int64_t piece = firstRow * viewRowElements / pieceElements;
  return split.pieces[std::min<int64_t>(piece, split.pieces.size() - 1)];
}

LogicalResult HostLowering::buildKernel(gpu::GPUModuleOp kernels,
                                        unsigned groupIndex, KernelInfo &info,
                                        unsigned chunk) {
  const KernelGroup &group = plan.groups[groupIndex];
  // A chunk of a split launch: its rows, schedule and share of the work.
  bool isChunk = !info.chunkBounds.empty();
  int64_t totalRows = group.type.getRank() ? group.type.getDimSize(0) : 1;
  int64_t rowElements =
      group.type.getNumElements() / std::max<int64_t>(1, totalRows);
  int64_t firstRow = isChunk ? info.chunkBounds[chunk] : 0;
  int64_t rows = isChunk ? info.chunkBounds[chunk + 1] - firstRow : totalRows;
  Schedule schedule = isChunk ? restrictToRows(info.schedule, rows, rowElements)
                              : info.schedule;
  std::string name =
      isChunk ? info.name + "_c" + std::to_string(chunk) : info.name;
  double share = double(rows) / double(totalRows);
  double flops = info.flops * share;

  // Arguments: one per distinct host buffer (or piece), reads then writes.
  auto chunkBuffer = [&](Value root, Value hostBuffer) {
    return getChunkBuffer(hostBuffer, firstRow,
                          info.viewRowElements.lookup(root));
  };
  // A chunk addresses each piece from the piece's start: its staging
  // vectors must be aligned from there.
  if (isChunk && schedule.kind == ScheduleKind::TiledContraction) {
    auto contract = cast<tile::ContractOp>(group.ops[0]);
    auto bufferStart = [&](const DenseMatmul::Operand &operand) {
      Value root = getRoot(contract.getInputs()[operand.input]);
      return pieceOffsets.lookup(chunkBuffer(root, hostBuffers.lookup(root)));
    };
    narrowStagingToChunk(schedule, firstRow, bufferStart(schedule.matmul->a),
                         bufferStart(schedule.matmul->b));
  }
  KernelArguments arguments;
  for (Value value : info.reads)
    arguments.add(chunkBuffer(value, hostBuffers.lookup(value)));
  for (Value value : info.writes)
    arguments.add(chunkBuffer(value, hostBuffers.lookup(value)));
  Value copyTarget;
  if (group.kind == KernelKind::Copy) {
    copyTarget = chunkBuffer(Value(), outputArgs[group.copyOutput]);
    arguments.add(copyTarget);
  }
  std::string chunkNote;
  if (isChunk) {
    SmallVector<std::string> chunkPieces;
    for (Value hostBuffer : arguments.values)
      if (pieceOffsets.count(hostBuffer))
        chunkPieces.push_back(hostBuffer.getDefiningOp()
                                  ->getAttrOfType<StringAttr>("tile.name")
                                  .str());
    chunkNote = "rows [" + std::to_string(firstRow) + ", " +
                std::to_string(firstRow + rows) +
                ") of the outermost dimension, chunk " +
                std::to_string(chunk + 1) + " of " +
                std::to_string(info.chunkBounds.size() - 1) + "; pieces " +
                llvm::join(chunkPieces, ", ");
  }

  // The minimum bytes: rows-aligned buffers in proportion, others whole.
  double bytes = info.bytes;
  if (isChunk) {
    bytes = 0;
    llvm::DenseSet<Value> counted;
    for (const BufferAccess &access : info.accesses) {
      Value root = access.view ? getRoot(access.view) : Value();
      if (root && !counted.insert(root).second)
        continue;
      MemRefType type = getBufferType(access.tensorType);
      double accessBytes =
          double(type.getNumElements()) *
          std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      bytes += access.aligned ? accessBytes * share : accessBytes;
    }
  }

  if (schedule.partialGroups == 1)
    return emitKernel(kernels, info, group, arguments,
                      {name, schedule, flops, bytes}, copyTarget, Value(),
                      Value(), firstRow, chunkNote);
  Value partials = partialBuffers.lookup(groupIndex);
  arguments.add(partials);
  if (schedule.lastGroupCombines) {
    Value counters = counterBuffers.lookup(groupIndex);
    arguments.add(counters);
    return emitKernel(kernels, info, group, arguments,
                      {name, schedule, flops, bytes}, copyTarget, partials,
                      counters, firstRow, chunkNote);
  }
  // Two passes: the work-groups of each element store their partials, then
  // one work-item per element combines them (both take the same buffers).
  // The first reads the inputs and writes the partials, the second reads
  // those, runs the epilogue and writes the outputs.
  int64_t elements = group.type.getNumElements();
  Schedule combination = scheduleCombination(
      schedule, elements, getComputeType(group.type.getElementType()), profile);
  auto partialsType = cast<MemRefType>(partials.getType());
  double partialBytes = double(partialsType.getNumElements()) *
                        double(partialsType.getElementTypeBitWidth() / 8);
  double writtenBytes = 0;
  for (Value value : info.writes)
    writtenBytes += getBufferBytes(value);
  double epilogueFlops =
      double(elements) * double(llvm::count_if(group.ops, [](Operation *op) {
        return isa<tile::ElementwiseOp>(op);
      }));
  if (failed(emitKernel(kernels, info, group, arguments,
                        {name + "_partials", schedule, flops - epilogueFlops,
                         bytes - writtenBytes + partialBytes},
                        copyTarget, partials, Value(), firstRow, chunkNote)))
    return failure();
  double combinationFlops =
      double(elements) * double(schedule.partialGroups) + epilogueFlops;
  return emitKernel(
      kernels, info, group, arguments,
      {name, combination, combinationFlops, partialBytes + writtenBytes},
      copyTarget, partials, Value(), firstRow, chunkNote);
}

/// Erases the ops of `root` whose results nothing reads and that have no
/// effects, from the last to the first, so that what only they read goes
/// too. The kernels' regions each have one block, so this leaves what
/// MLIR's region DCE would, at a fraction of its cost (its liveness
/// analysis was 1.5% of a convolution's compile).
static void eraseDeadOps(Operation *root) {
  root->walk<WalkOrder::PostOrder, ReverseIterator>([](Operation *op) {
    if (isOpTriviallyDead(op))
      op->erase();
  });
}

/// The name of the tensor that `hostBuffer` holds, for the kernel
/// arguments it feeds to be named after (docs/codegen.md): an input's or
/// output's, a temporary's, `A_p1` for piece 1 of A.
static std::string getHeldTensorName(Value hostBuffer) {
  if (auto argument = dyn_cast<BlockArgument>(hostBuffer)) {
    auto host = cast<func::FuncOp>(argument.getOwner()->getParentOp());
    auto name =
        host.getArgAttrOfType<StringAttr>(argument.getArgNumber(), "tile.name");
    return name ? name.str() : std::string();
  }
  Operation *alloc = hostBuffer.getDefiningOp();
  auto name = alloc->getAttrOfType<StringAttr>("tile.name");
  if (!name)
    return std::string();
  if (auto whole = alloc->getAttrOfType<StringAttr>("tile.piece_of"))
    return (whole.getValue() + "_p" + name.getValue().rsplit('.').second).str();
  return name.str();
}

LogicalResult HostLowering::emitKernel(
    gpu::GPUModuleOp kernels, const KernelInfo &info, const KernelGroup &group,
    const KernelArguments &arguments, const KernelLaunch &launch,
    Value copyTarget, Value partials, Value counters, int64_t firstRow,
    StringRef chunkNote) {
  MLIRContext *context = module.getContext();
  const Schedule &schedule = launch.schedule;
  StringRef name = launch.name;
  SmallVector<Type> argumentTypes;
  for (Value value : arguments.values)
    argumentTypes.push_back(value.getType());

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(kernels.getBody());
  if (Operation *terminator = kernels.getBody()->getTerminator())
    builder.setInsertionPoint(terminator);
  auto kernel = builder.create<gpu::GPUFuncOp>(
      info.loc, name, builder.getFunctionType(argumentTypes, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                  builder.getUnitAttr());
  SmallVector<int32_t> workgroup(schedule.localSize.begin(),
                                 schedule.localSize.end());
  kernel->setAttr(spirv::getEntryPointABIAttrName(),
                  spirv::EntryPointABIAttr::get(
                      context, builder.getDenseI32ArrayAttr(workgroup),
                      std::nullopt, std::nullopt));
  kernel->setAttr("tile.source", builder.getStringAttr(info.source));
  kernel->setAttr("tile.flops", builder.getF64FloatAttr(launch.flops));
  kernel->setAttr("tile.bytes", builder.getF64FloatAttr(launch.bytes));
  // Each argument's tensor, which the targets name the parameter after;
  // a reduction's partials and counters after the tensor it reduces into.
  for (auto [position, hostBuffer] : llvm::enumerate(arguments.values)) {
    std::string held = getHeldTensorName(hostBuffer);
    if (!info.writes.empty() &&
        (hostBuffer == partials || hostBuffer == counters))
      held = getHeldTensorName(hostBuffers.lookup(info.writes.front())) +
             (hostBuffer == partials ? "_partials" : "_counters");
    kernel.setArgAttr(position, "tile.name", builder.getStringAttr(held));
  }

  Block &entry = kernel.getBody().front();
  builder.setInsertionPointToStart(&entry);
  auto returnOp = builder.create<gpu::ReturnOp>(info.loc);
  builder.setInsertionPoint(returnOp);
  auto bufferOf = [&](Value value) -> Value {
    Value root = getRoot(value);
    return entry.getArgument(arguments.positions.lookup(
        getChunkBuffer(hostBuffers.lookup(root), firstRow,
                       info.viewRowElements.lookup(root))));
  };
  auto argumentFor = [&](Value hostBuffer) {
    return hostBuffer
               ? entry.getArgument(arguments.positions.lookup(hostBuffer))
               : Value();
  };
  KernelContext kernelContext{group,
                              schedule,
                              builder,
                              info.loc,
                              bufferOf,
                              info.space ? &*info.space : nullptr,
                              info.system ? &*info.system : nullptr,
                              argumentFor(copyTarget),
                              firstRow,
                              argumentFor(partials),
                              argumentFor(counters)};
  switch (schedule.kind) {
  case ScheduleKind::PerElement:
    emitPerElementKernel(kernelContext);
    break;
  case ScheduleKind::GenericContraction:
    emitGenericContraction(kernelContext);
    break;
  case ScheduleKind::TiledContraction:
  case ScheduleKind::ImplicitGemm:
    emitTiledContraction(kernelContext);
    break;
  case ScheduleKind::ReductionContraction:
    emitReductionContraction(kernelContext);
    break;
  case ScheduleKind::PartialCombination:
    emitPartialCombination(kernelContext);
    break;
  case ScheduleKind::RowFused:
    emitRowKernel(kernelContext);
    break;
  }
  // The emitters build each value where some use may need it; what no use
  // reads (the widening of a rounding that only feeds a store) goes.
  eraseDeadOps(kernel);

  // The emitters address a tensor's elements from its start; a piece holds
  // them from its offset on.
  for (auto [position, hostBuffer] : llvm::enumerate(arguments.values)) {
    auto offset = pieceOffsets.find(hostBuffer);
    if (offset == pieceOffsets.end() || offset->second == 0)
      continue;
    for (Operation *user :
         llvm::make_early_inc_range(entry.getArgument(position).getUsers())) {
      OpOperand *address = nullptr;
      if (auto load = dyn_cast<memref::LoadOp>(user))
        address = &load.getIndicesMutable()[0];
      else if (auto store = dyn_cast<memref::StoreOp>(user))
        address = &store.getIndicesMutable()[0];
      else if (auto load = dyn_cast<vector::LoadOp>(user))
        address = &load.getIndicesMutable()[0];
      else if (auto store = dyn_cast<vector::StoreOp>(user))
        address = &store.getIndicesMutable()[0];
      else
        return user->emitError()
               << "lowering cannot rebase this access to a piece of a split "
                  "tensor";
      builder.setInsertionPoint(user);
      IndexBuilder index(builder, info.loc);
      address->set(index.add(address->get(), index.constant(-offset->second)));
    }
  }

  // The launch, in the host function.
  builder.setInsertionPoint(hostInsertion);
  auto constant = [&](int64_t value) {
    Value &shared = hostConstants[value];
    if (!shared)
      shared = builder.create<arith::ConstantIndexOp>(info.loc, value);
    return shared;
  };
  gpu::KernelDim3 grid{constant(schedule.numGroups[0]),
                       constant(schedule.numGroups[1]),
                       constant(schedule.numGroups[2])};
  gpu::KernelDim3 block{constant(schedule.localSize[0]),
                        constant(schedule.localSize[1]),
                        constant(schedule.localSize[2])};
  builder.create<gpu::LaunchFuncOp>(info.loc, kernel, grid, block, Value(),
                                    arguments.values);

  if (explain)
    printExplanation(info, group, name, schedule, launch.flops, launch.bytes,
                     chunkNote);
  return success();
}

void HostLowering::addPieces(Value whole, RankedTensorType type, Value root,
                             StringRef name, Location loc) {
  std::optional<PieceLayout> layout = getPieceLayout(type, root);
  if (!layout)
    return;
  HostPieces &split = hostPieces[whole];
  split.name = name.str();
  split.type = type;
  split.layout = *layout;
  split.streamed = root && pieceLimits.count(root);
  for (int64_t piece = 0; piece < layout->getNumPieces(); ++piece) {
    int64_t firstRow = piece * layout->rowsPerPiece;
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = std::min(layout->rowsPerPiece, layout->rows - firstRow);
    auto alloc = builder.create<memref::AllocOp>(
        loc,
        getBufferType(RankedTensorType::get(shape, type.getElementType())));
    int64_t offset = firstRow * layout->rowElements;
    alloc->setAttr("tile.name",
                   builder.getStringAttr(name + "." + std::to_string(piece)));
    alloc->setAttr("tile.dtype", builder.getStringAttr(dtypeName(
                                     getDType(type.getElementType()))));
    alloc->setAttr("tile.shape", builder.getI64ArrayAttr(shape));
    alloc->setAttr("tile.piece_of", builder.getStringAttr(name));
    alloc->setAttr("tile.byte_offset",
                   builder.getI64IntegerAttr(offset * layout->elementBytes));
    split.pieces.push_back(alloc);
    pieceOffsets[alloc] = offset;
  }
}

void HostLowering::buildHost(func::FuncOp host) {
  Block *entry = host.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  hostInsertion = builder.create<func::ReturnOp>(function.getLoc());
  builder.setInsertionPoint(hostInsertion);
  auto getName = [](Attribute name) {
    auto text = dyn_cast_or_null<StringAttr>(name);
    return text ? text.str() : std::string();
  };
  unsigned numInputs = function.getNumArguments();
  for (BlockArgument argument : function.getArguments()) {
    unsigned position = argument.getArgNumber();
    Value input = entry->getArgument(position);
    hostBuffers[argument] = input;
    addPieces(input, cast<RankedTensorType>(argument.getType()), argument,
              getName(function.getArgAttr(position, "tile.name")),
              argument.getLoc());
  }
  Operation *returnOp = function.getBody().front().getTerminator();
  for (auto [position, value] : llvm::enumerate(returnOp->getOperands())) {
    Value output = entry->getArgument(numInputs + position);
    outputArgs.push_back(output);
    if (plan.outputIsOwned[position])
      hostBuffers[value] = output;
    addPieces(output, cast<RankedTensorType>(value.getType()),
              plan.outputIsOwned[position] ? value : Value(),
              getName(function.getResultAttr(position, "tile.name")),
              returnOp->getLoc());
  }
  // Temporaries: every other stored value.
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
      addPieces(alloc, type, value, name, loc);
    }
  }
  // The partial aggregates of reductions over several work-groups per
  // element, and the counters of those whose last group combines them:
  // both start zeroed (tile.zeroed), and that group leaves them so.
  auto allocate = [&](const KernelInfo &info, MemRefType type, StringRef suffix,
                      bool zeroed) {
    auto alloc = builder.create<memref::AllocOp>(info.loc, type);
    alloc->setAttr("tile.name", builder.getStringAttr(info.name + suffix));
    alloc->setAttr("tile.dtype", builder.getStringAttr(dtypeName(
                                     getDType(type.getElementType()))));
    alloc->setAttr("tile.shape", builder.getI64ArrayAttr(type.getShape()));
    if (zeroed)
      alloc->setAttr("tile.zeroed", builder.getUnitAttr());
    return alloc;
  };
  for (auto [index, info] : llvm::enumerate(infos)) {
    const Schedule &s = info.schedule;
    if (s.partialGroups == 1)
      continue;
    const KernelGroup &group = plan.groups[index];
    partialBuffers[index] = allocate(info, getPartialsType(info, group),
                                     "_partials", s.lastGroupCombines);
    // One counter per block of elements (per element, unless a column
    // reduction's work-group takes several).
    if (s.lastGroupCombines)
      counterBuffers[index] =
          allocate(info,
                   MemRefType::get({s.numGroups[0] / s.partialGroups},
                                   builder.getI32Type()),
                   "_counters", /*zeroed=*/true);
  }
}

LogicalResult HostLowering::run() {
  if (failed(analyse(/*chooseSchedules=*/false)) || failed(readMemoryPlan()))
    return failure();

  MLIRContext *context = module.getContext();
  context
      ->loadDialect<arith::ArithDialect, gpu::GPUDialect, memref::MemRefDialect,
                    spirv::SPIRVDialect, vector::VectorDialect>();
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  builder.getUnitAttr());

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

  if (explain)
    printSplitTensors();
  for (auto [index, info] : llvm::enumerate(infos)) {
    if (info.schedule.activeItems == 0)
      continue;
    size_t launches =
        info.chunkBounds.empty() ? 1 : info.chunkBounds.size() - 1;
    for (size_t chunk = 0; chunk < launches; ++chunk)
      if (failed(buildKernel(kernels, index, info, chunk)))
        return failure();
  }
  // Once the kernels are built: their constants decide too.
  module->setAttr("tile.index_bits",
                  builder.getI64IntegerAttr(getIndexBits(kernels)));
  function.erase();

  // The emitters build index arithmetic locally; share what repeats and
  // drop what folding left unused. Only in the kernels: CSE and DCE would
  // erase a split tensor's whole allocation, which no launch takes but its
  // pieces name. The host drops the allocations nothing takes (the
  // temporary of a kernel without work, the pieces of an unused input).
  IRRewriter rewriter(context);
  DominanceInfo dominance(kernels);
  eliminateCommonSubExpressions(rewriter, dominance, kernels);
  eraseDeadOps(kernels);
  for (Operation &op : llvm::make_early_inc_range(host.getBody().front()))
    if (isa<memref::AllocOp>(op) && op.use_empty() &&
        !hostPieces.count(op.getResult(0)))
      op.erase();
  return success();
}
