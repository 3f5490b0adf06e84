//===- BundleExtraction.cpp - The runtime's Bundle from the kernel IR -----===//
//
// Reads the buffers, kernels and launches of a kernel-IR module (see
// docs/kernel-ir.md for the conventions checked here) into a Bundle, whose
// OpenCL C comes from the printer when a target asks for it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Bundle/BundleExtraction.h"

#include "tilec/Target/OpenCL/OpenCL.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace tilec {

namespace {

/// The element type that buffers of `dtype` have in the kernel IR.
Type storageElementType(DType dtype, MLIRContext *context) {
  Builder builder(context);
  switch (dtype) {
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F32:
    return builder.getF32Type();
  case DType::F64:
    return builder.getF64Type();
  default:
    return builder.getIntegerType(dtypeSize(dtype) * 8);
  }
}

class BundleExtractor {
public:
  BundleExtractor(ModuleOp module, StringRef producer,
                  const CompileTargets &targets)
      : module(module), targets(targets) {
    bundle.producer = producer.str();
  }

  std::optional<Bundle> extract();

private:
  LogicalResult readKernels(gpu::GPUModuleOp kernels);
  /// Adds the buffer that `value` (a host argument or allocation with the
  /// tile.* attributes `attrs`) holds.
  LogicalResult addBuffer(Value value, Operation *at, DictionaryAttr attrs,
                          BundleBuffer::Kind kind);
  /// Adds a temporary (zeroed before the first run with `tile.zeroed`), or a
  /// piece of a split tensor (`tile.piece_of` names a buffer read before
  /// it, `tile.byte_offset` says where it starts).
  LogicalResult readAllocation(memref::AllocOp alloc);
  LogicalResult readHostFunction(func::FuncOp host);
  LogicalResult readLaunch(gpu::LaunchFuncOp launch);

  ModuleOp module;
  CompileTargets targets;
  Bundle bundle;
  gpu::GPUModuleOp kernelModule;
  llvm::DenseMap<Value, unsigned> bufferOf;
  llvm::DenseMap<StringAttr, unsigned> kernelIndex;
  SmallVector<gpu::GPUFuncOp> kernelOps;
};

std::optional<Bundle> BundleExtractor::extract() {
  auto kernelModules = module.getOps<gpu::GPUModuleOp>();
  auto hosts = module.getOps<func::FuncOp>();
  size_t kernelModuleCount = llvm::range_size(kernelModules);
  size_t hostCount = llvm::range_size(hosts);
  if (kernelModuleCount != 1 || hostCount != 1) {
    module.emitError() << "expected one gpu.module and one host func.func in "
                          "the kernel IR, found "
                       << kernelModuleCount << " and " << hostCount;
    return std::nullopt;
  }
  kernelModule = *kernelModules.begin();
  if (failed(readKernels(kernelModule)) ||
      failed(readHostFunction(*hosts.begin())))
    return std::nullopt;
  if (!targets.openCL)
    return std::move(bundle);
  llvm::raw_string_ostream source(bundle.openclSource);
  if (failed(printOpenCL(kernelModule, source)))
    return std::nullopt;
  return std::move(bundle);
}

LogicalResult BundleExtractor::readKernels(gpu::GPUModuleOp kernels) {
  for (auto kernel : kernels.getOps<gpu::GPUFuncOp>()) {
    BundleKernel entry;
    entry.name = kernel.getName().str();
    if (auto source = kernel->getAttrOfType<StringAttr>("tile.source"))
      entry.sourceLocation = source.str();
    auto flops = kernel->getAttrOfType<FloatAttr>("tile.flops");
    auto bytes = kernel->getAttrOfType<FloatAttr>("tile.bytes");
    if (!flops || !bytes)
      return kernel.emitError() << "expected the float attributes "
                                   "'tile.flops' and 'tile.bytes'";
    entry.flops = flops.getValueAsDouble();
    entry.bytes = bytes.getValueAsDouble();
    kernelIndex[kernel.getNameAttr()] = bundle.kernels.size();
    kernelOps.push_back(kernel);
    bundle.kernels.push_back(std::move(entry));
  }
  return success();
}

LogicalResult BundleExtractor::addBuffer(Value value, Operation *at,
                                         DictionaryAttr attrs,
                                         BundleBuffer::Kind kind) {
  auto fail = [&]() { return at->emitError(); };
  auto name = attrs ? attrs.getAs<StringAttr>("tile.name") : nullptr;
  auto dtypeName = attrs ? attrs.getAs<StringAttr>("tile.dtype") : nullptr;
  Attribute shapeAttr = attrs ? attrs.get("tile.shape") : nullptr;
  if (!name || !dtypeName || !shapeAttr)
    return fail() << "expected 'tile.name', 'tile.dtype' and 'tile.shape' on "
                     "every buffer";
  std::optional<DType> dtype = parseDType(dtypeName.getValue());
  if (!dtype)
    return fail() << "unknown dtype '" << dtypeName.getValue() << "'";

  BundleBuffer buffer;
  buffer.name = name.str();
  buffer.kind = kind;
  buffer.dtype = *dtype;
  if (auto dense = dyn_cast<DenseI64ArrayAttr>(shapeAttr)) {
    buffer.shape.assign(dense.asArrayRef().begin(), dense.asArrayRef().end());
  } else if (auto list = dyn_cast<ArrayAttr>(shapeAttr)) {
    for (Attribute extent : list) {
      auto number = dyn_cast<IntegerAttr>(extent);
      if (!number)
        return fail() << "'tile.shape' must list integers";
      buffer.shape.push_back(number.getInt());
    }
  } else {
    return fail() << "'tile.shape' must be an array of integers";
  }
  std::optional<int64_t> elements = numElements(buffer.shape);
  if (llvm::any_of(buffer.shape, [](int64_t extent) { return extent < 0; }))
    elements.reset();

  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || type.getMemorySpace())
    return fail() << "buffer '" << buffer.name
                  << "' is not a flat global buffer (a static 1-D memref)";
  if (type.getElementType() != storageElementType(*dtype, value.getContext()))
    return fail() << "buffer '" << buffer.name << "' of dtype "
                  << dtypeName.getValue() << " has elements of type "
                  << type.getElementType();
  if (!elements || *elements != type.getNumElements())
    return fail() << "buffer '" << buffer.name << "' has "
                  << type.getNumElements()
                  << " elements, which its 'tile.shape' does not";

  bufferOf[value] = bundle.buffers.size();
  bundle.buffers.push_back(std::move(buffer));
  return success();
}

LogicalResult BundleExtractor::readAllocation(memref::AllocOp alloc) {
  auto wholeName = alloc->getAttrOfType<StringAttr>("tile.piece_of");
  auto byteOffset = alloc->getAttrOfType<IntegerAttr>("tile.byte_offset");
  if (!wholeName && !byteOffset) {
    if (failed(addBuffer(alloc, alloc, alloc->getAttrDictionary(),
                         BundleBuffer::Kind::Temporary)))
      return failure();
    bundle.buffers.back().zeroed = alloc->hasAttr("tile.zeroed");
    return success();
  }
  if (!wholeName || !byteOffset || byteOffset.getInt() < 0)
    return alloc.emitError() << "a piece needs 'tile.piece_of' (a buffer's "
                                "name) and a non-negative 'tile.byte_offset'";
  auto whole = llvm::find_if(bundle.buffers, [&](const BundleBuffer &buffer) {
    return buffer.name == wholeName.getValue();
  });
  if (whole == bundle.buffers.end())
    return alloc.emitError()
           << "'tile.piece_of' names '" << wholeName.getValue()
           << "', which is not a buffer defined before it";
  BufferPiece piece{unsigned(whole - bundle.buffers.begin()),
                    uint64_t(byteOffset.getInt())};
  if (failed(addBuffer(alloc, alloc, alloc->getAttrDictionary(),
                       BundleBuffer::Kind::Piece)))
    return failure();
  bundle.buffers.back().pieceOf = piece;
  return success();
}

LogicalResult BundleExtractor::readHostFunction(func::FuncOp host) {
  bundle.function = host.getName().str();
  if (!host.getBody().hasOneBlock())
    return host.emitError() << "the host function must be one block";
  for (BlockArgument argument : host.getArguments()) {
    DictionaryAttr attrs = host.getArgAttrDict(argument.getArgNumber());
    auto kind = attrs ? attrs.getAs<StringAttr>("tile.kind") : nullptr;
    bool isInput = kind && kind.getValue() == "input";
    if (!kind || (!isInput && kind.getValue() != "output"))
      return host.emitError() << "argument #" << argument.getArgNumber()
                              << " needs 'tile.kind' = \"input\" or "
                                 "\"output\"";
    if (isInput && !bundle.outputs.empty())
      return host.emitError() << "input argument #" << argument.getArgNumber()
                              << " follows an output";
    (isInput ? bundle.inputs : bundle.outputs).push_back(bundle.buffers.size());
    if (failed(addBuffer(argument, host, attrs,
                         isInput ? BundleBuffer::Kind::Input
                                 : BundleBuffer::Kind::Output)))
      return failure();
  }

  for (Operation &op : host.front()) {
    LogicalResult read =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](memref::AllocOp alloc) { return readAllocation(alloc); })
            .Case([&](gpu::LaunchFuncOp launch) { return readLaunch(launch); })
            .Case<arith::ConstantOp, func::ReturnOp>(
                [](Operation *) { return success(); })
            .Default([](Operation *other) {
              return other->emitError()
                     << "'" << other->getName()
                     << "' is not part of the kernel IR's host function";
            });
    if (failed(read))
      return failure();
  }
  return success();
}

LogicalResult BundleExtractor::readLaunch(gpu::LaunchFuncOp launch) {
  if (launch.getKernelModuleName() != kernelModule.getNameAttr() ||
      !kernelIndex.count(launch.getKernelName()))
    return launch.emitError() << "launch of " << launch.getKernel()
                              << ", which is not a kernel of the gpu.module";
  if (launch.getDynamicSharedMemorySize() || launch.hasClusterSize() ||
      !launch.getAsyncDependencies().empty() || launch.getAsyncToken())
    return launch.emitError() << "a launch of the kernel IR has no dynamic "
                                 "shared memory, clusters or async tokens";
  BundleLaunch entry;
  entry.kernel = kernelIndex[launch.getKernelName()];
  gpu::GPUFuncOp kernel = kernelOps[entry.kernel];

  gpu::KernelDim3 blocks = launch.getGridSizeOperandValues();
  gpu::KernelDim3 threads = launch.getBlockSizeOperandValues();
  Value blockSizes[] = {blocks.x, blocks.y, blocks.z};
  Value threadSizes[] = {threads.x, threads.y, threads.z};
  std::optional<DenseI32ArrayAttr> required;
  if (spirv::EntryPointABIAttr abi = spirv::lookupEntryPointABI(kernel))
    required = abi.getWorkgroupSize();
  for (unsigned dim = 0; dim < 3; ++dim) {
    std::optional<int64_t> groups = getConstantIntValue(blockSizes[dim]);
    std::optional<int64_t> local = getConstantIntValue(threadSizes[dim]);
    if (!groups || !local || *groups < 1 || *local < 1)
      return launch.emitError()
             << "launch sizes must be positive arith.constant values";
    int64_t global;
    if (llvm::MulOverflow(*groups, *local, global))
      return launch.emitError() << "the launch's global size overflows";
    entry.globalSize[dim] = global;
    entry.localSize[dim] = *local;
    if (global > 1 || *local > 1)
      entry.dims = dim + 1;
    if (required && *required) {
      ArrayRef<int32_t> size = required->asArrayRef();
      if (*local != (dim < size.size() ? size[dim] : 1))
        return launch.emitError()
               << "the launch's work-group differs from the size that "
               << launch.getKernel() << " requires";
    }
  }

  if (launch.getKernelOperands().size() != kernel.getNumArguments())
    return launch.emitError()
           << "launch of " << launch.getKernel() << " with "
           << launch.getKernelOperands().size()
           << (launch.getKernelOperands().size() == 1 ? " argument"
                                                      : " arguments")
           << ", which takes " << kernel.getNumArguments();
  for (auto [position, value] : llvm::enumerate(launch.getKernelOperands())) {
    auto buffer = bufferOf.find(value);
    if (buffer == bufferOf.end())
      return launch.emitError() << "argument #" << position
                                << " is not a buffer of the host function";
    if (value.getType() != kernel.getArgument(position).getType())
      return launch.emitError()
             << "argument #" << position << " has type " << value.getType()
             << ", the kernel takes " << kernel.getArgument(position).getType();
    entry.args.push_back(buffer->second);
  }
  // What the kernel addresses through each argument and the geometry its
  // indexing assumes: the signature that the runtime checks every launch
  // against. A kernel launched again must be launched alike.
  BundleKernel &signature = bundle.kernels[entry.kernel];
  std::vector<KernelParam> params;
  for (auto [position, buffer] : llvm::enumerate(entry.args))
    params.push_back(
        {bundle.buffers[buffer].dtype,
         uint64_t(cast<MemRefType>(kernel.getArgument(position).getType())
                      .getNumElements()),
         isStoredTo(kernel.getArgument(position)),
         isLoadedFrom(kernel.getArgument(position))});
  bool launchedBefore = llvm::any_of(bundle.launches, [&](const auto &other) {
    return other.kernel == entry.kernel;
  });
  if (launchedBefore &&
      (signature.dims != entry.dims ||
       signature.globalSize != entry.globalSize ||
       signature.localSize != entry.localSize ||
       llvm::any_of(llvm::zip(signature.params, params), [](auto pair) {
         auto [a, b] = pair;
         return a.dtype != b.dtype || a.elements != b.elements;
       })))
    return launch.emitError() << "a second launch of " << launch.getKernel()
                              << " differs from the first in its geometry or "
                                 "its buffers";
  signature.params = std::move(params);
  signature.dims = entry.dims;
  signature.globalSize = entry.globalSize;
  signature.localSize = entry.localSize;

  // The kernel's arguments are restrict pointers: one that it writes must not
  // be passed twice.
  for (auto [position, buffer] : llvm::enumerate(entry.args))
    if (isStoredTo(kernel.getArgument(position)) &&
        llvm::count(entry.args, buffer) > 1)
      return launch.emitError()
             << "buffer '" << bundle.buffers[buffer].name
             << "' is written by the kernel and passed to it twice";
  bundle.launches.push_back(std::move(entry));
  return success();
}

} // namespace

std::optional<Bundle> extractBundle(ModuleOp module, StringRef producer,
                                    const CompileTargets &targets) {
  return BundleExtractor(module, producer, targets).extract();
}

} // namespace tilec
