//===- SPIRVEntryPoints.cpp - Entry points from the ABI attributes --------===//
//
// MLIR's spirv-lower-abi-attrs replaces an entry function's arguments
// through a dialect conversion of the whole module, which asks every op of
// the function whether it is legal: for an unrolled kernel, thousands of
// ops to move a few arguments, 2.6% of the kernel's compile (callgrind, the
// grouped convolution: 2.9 of 111.6 million instructions; docs/codegen.md,
// "Compile time"). The same rewrite done directly costs a walk for the
// variables the function addresses.
//
//===----------------------------------------------------------------------===//

#include "SPIRVEntryPoints.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Utils/LayoutUtils.h"
#include "llvm/ADT/SetVector.h"

#include <string>

using namespace mlir;

namespace tilec {

/// The global variable that replaces argument `index` of `function`: a
/// pointer to the argument's block (a scalar or vector argument wrapped in a
/// block of one member), laid out for Vulkan, declared before the function.
static FailureOr<spirv::GlobalVariableOp>
createArgumentVariable(OpBuilder &builder, spirv::FuncOp function,
                       unsigned index, spirv::InterfaceVarABIAttr abi) {
  Type type = function.getArgument(index).getType();
  if (cast<spirv::SPIRVType>(type).isScalarOrVector()) {
    std::optional<spirv::StorageClass> storage = abi.getStorageClass();
    if (!storage)
      return function.emitError("internal error: scalar argument ")
             << index << " has no storage class";
    type = spirv::PointerType::get(spirv::StructType::get(type), *storage);
  }
  auto pointer = cast<spirv::PointerType>(type);
  auto block = dyn_cast<spirv::StructType>(pointer.getPointeeType());
  if (!block)
    return function.emitError("internal error: argument ")
           << index << " is not a pointer to a block";
  spirv::StructType laidOut = VulkanLayoutUtils::decorateType(block);
  if (!laidOut)
    return function.emitError("internal error: argument ")
           << index << " has no Vulkan layout";
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(function);
  return builder.create<spirv::GlobalVariableOp>(
      function.getLoc(),
      spirv::PointerType::get(laidOut, pointer.getStorageClass()),
      (function.getName() + "_arg_" + std::to_string(index)).str(),
      abi.getDescriptorSet(), abi.getBinding());
}

/// Replaces the arguments of entry function `function` by global variables
/// (see lowerEntryPointABI).
static LogicalResult replaceArguments(spirv::FuncOp function) {
  OpBuilder builder(function.getContext());
  Block &entry = function.front();
  StringRef abiName = spirv::getInterfaceVarABIAttrName();
  for (unsigned index = 0, e = function.getNumArguments(); index < e; ++index) {
    auto abi =
        function.getArgAttrOfType<spirv::InterfaceVarABIAttr>(index, abiName);
    if (!abi)
      return function.emitError("internal error: argument ")
             << index << " of an entry point has no " << abiName;
    FailureOr<spirv::GlobalVariableOp> variable =
        createArgumentVariable(builder, function, index, abi);
    if (failed(variable))
      return failure();
    BlockArgument argument = function.getArgument(index);
    Location loc = function.getLoc();
    // Each argument's ops go before those of the arguments before it, where
    // MLIR's pass puts them.
    builder.setInsertionPointToStart(&entry);
    Value replacement = builder.create<spirv::AddressOfOp>(loc, *variable);
    // A scalar or vector is loaded from its block once, at the start.
    if (cast<spirv::SPIRVType>(argument.getType()).isScalarOrVector()) {
      // MLIR 19's pass converts types with its own default converter, whose
      // index type is i32.
      Value zero =
          spirv::ConstantOp::getZero(builder.getI32Type(), loc, builder);
      Value member = builder.create<spirv::AccessChainOp>(loc, replacement,
                                                          ValueRange{zero});
      replacement = builder.create<spirv::LoadOp>(loc, member);
    }
    if (replacement.getType() != argument.getType())
      return function.emitError("internal error: argument ")
             << index << " is not of its variable's laid-out type";
    argument.replaceAllUsesWith(replacement);
  }
  entry.eraseArguments(0, entry.getNumArguments());
  function.setType(builder.getFunctionType({}, {}));
  return success();
}

/// The `spirv.EntryPoint` of `function` and its execution modes, from its
/// `spirv.entry_point_abi` attribute `abi`, which then goes.
static LogicalResult declareEntryPoint(spirv::FuncOp function,
                                       spirv::EntryPointABIAttr abi) {
  spirv::TargetEnvAttr targetEnvAttr = spirv::lookupTargetEnv(function);
  FailureOr<spirv::ExecutionModel> model =
      spirv::getExecutionModel(targetEnvAttr);
  if (failed(model))
    return function.emitError("internal error: no execution model for "
                              "the target environment");
  spirv::TargetEnv targetEnv(targetEnvAttr);
  auto module = function->getParentOfType<spirv::ModuleOp>();

  // The interface lists the Input and Output variables the function uses
  // (the built-in ids), which every SPIR-V version allows; from 1.4 it may
  // list every variable, but updateVCETriple may yet lower the version.
  // An address has its variable's type, so no symbol need be looked up.
  llvm::SetVector<Attribute> interface;
  function.walk([&](spirv::AddressOfOp address) {
    spirv::StorageClass storage =
        cast<spirv::PointerType>(address.getPointer().getType())
            .getStorageClass();
    if (storage == spirv::StorageClass::Input ||
        storage == spirv::StorageClass::Output)
      interface.insert(address.getVariableAttr());
  });

  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = function.getLoc();
  builder.create<spirv::EntryPointOp>(loc, *model, function,
                                      interface.getArrayRef());
  auto allows = [&](spirv::ExecutionMode mode) {
    std::optional<ArrayRef<spirv::Capability>> needs =
        spirv::getCapabilities(mode);
    return !needs || targetEnv.allows(*needs);
  };
  DenseI32ArrayAttr workgroupSize = abi.getWorkgroupSize();
  std::optional<int> subgroupSize = abi.getSubgroupSize();
  std::optional<int> targetWidth = abi.getTargetWidth();
  if (workgroupSize && allows(spirv::ExecutionMode::LocalSize)) {
    builder.create<spirv::ExecutionModeOp>(loc, function,
                                           spirv::ExecutionMode::LocalSize,
                                           workgroupSize.asArrayRef());
    workgroupSize = {};
  }
  if (subgroupSize && allows(spirv::ExecutionMode::SubgroupSize)) {
    builder.create<spirv::ExecutionModeOp>(
        loc, function, spirv::ExecutionMode::SubgroupSize, *subgroupSize);
    subgroupSize.reset();
  }
  if (targetWidth && allows(spirv::ExecutionMode::SignedZeroInfNanPreserve)) {
    builder.create<spirv::ExecutionModeOp>(
        loc, function, spirv::ExecutionMode::SignedZeroInfNanPreserve,
        *targetWidth);
    targetWidth.reset();
  }
  StringRef abiName = spirv::getEntryPointABIAttrName();
  // What the environment does not allow stays on the function, as upstream.
  if (workgroupSize || subgroupSize || targetWidth)
    function->setAttr(abiName, spirv::EntryPointABIAttr::get(
                                   function.getContext(), workgroupSize,
                                   subgroupSize, targetWidth));
  else
    function->removeAttr(abiName);
  return success();
}

LogicalResult lowerEntryPointABI(spirv::ModuleOp module) {
  SmallVector<std::pair<spirv::FuncOp, spirv::EntryPointABIAttr>> entries;
  for (auto function : module.getOps<spirv::FuncOp>())
    if (auto abi = function->getAttrOfType<spirv::EntryPointABIAttr>(
            spirv::getEntryPointABIAttrName()))
      entries.emplace_back(function, abi);
  for (auto [function, abi] : entries)
    if (failed(replaceArguments(function)))
      return failure();
  for (auto [function, abi] : entries)
    if (failed(declareEntryPoint(function, abi)))
      return failure();
  return success();
}

} // namespace tilec
