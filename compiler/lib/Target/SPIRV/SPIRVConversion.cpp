//===- SPIRVConversion.cpp - The kernel IR to a SPIR-V binary -------------===//
//
// A kernel, cloned alone into a scratch module and prepared by the passes
// of tilec/Target/SPIRV/Passes.h, is converted by MLIR's upstream GPU, SCF,
// arith, math, memref, vector and index conversions to a spirv.module; its ABI
// attributes become interface variables and entry points, the float widths
// it computes in keep their signed zeros, infinities and NaNs where the
// device allows, its version/capability/extension triple shrinks to what it
// uses, and the serialised words are validated by SPIRV-Tools.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/ParameterNames.h"
#include "tilec/Target/SPIRV/Passes.h"
#include "tilec/Target/SPIRV/SPIRV.h"

#include "SPIRVConversionTarget.h"
#include "SPIRVEntryPoints.h"
#include "SPIRVInPlaceConversion.h"
#include "SPIRVTools.h"
#include "SPIRVUpdateVCE.h"
#include "SPIRVVectorRows.h"

#include "mlir/Conversion/ArithToSPIRV/ArithToSPIRV.h"
#include "mlir/Conversion/FuncToSPIRV/FuncToSPIRV.h"
#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRV.h"
#include "mlir/Conversion/IndexToSPIRV/IndexToSPIRV.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRV.h"
#include "mlir/Conversion/MemRefToSPIRV/MemRefToSPIRV.h"
#include "mlir/Conversion/SCFToSPIRV/SCFToSPIRV.h"
#include "mlir/Conversion/VectorToSPIRV/VectorToSPIRV.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "mlir/Dialect/SPIRV/Transforms/SPIRVConversion.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/SPIRV/Serialization.h"

#include <set>

using namespace mlir;

namespace tilec {

/// Vulkan 1.2 (SPIR-V 1.5, where 8- and 16-bit storage are core) with every
/// capability that some dtype needs; updateVCETriple then keeps only those
/// a module uses, so a device needs exactly the features its program uses.
/// The resource limits only bound what the conversion may assume; the
/// scheduler already fitted every kernel to the device's profile.
static spirv::TargetEnvAttr getVulkanTargetEnv(MLIRContext *context) {
  using spirv::Capability;
  Capability capabilities[] = {
      Capability::Shader,
      Capability::Int8,
      Capability::Int16,
      Capability::Int64,
      Capability::Float16,
      Capability::Float64,
      Capability::StorageBuffer8BitAccess,
      Capability::StorageBuffer16BitAccess,
      Capability::SignedZeroInfNanPreserve,
      Capability::DenormPreserve,
  };
  // Core in SPIR-V 1.4, but MLIR 19's spirv-update-vce, which
  // updateVCETriple follows, still asks for the extension of the
  // float-controls execution modes.
  spirv::Extension extensions[] = {spirv::Extension::SPV_KHR_float_controls};
  auto triple = spirv::VerCapExtAttr::get(spirv::Version::V_1_5, capabilities,
                                          extensions, context);
  Builder b(context);
  auto limits = spirv::ResourceLimitsAttr::get(
      context, /*max_compute_shared_memory_size=*/65536,
      /*max_compute_workgroup_invocations=*/1024,
      /*max_compute_workgroup_size=*/b.getI32ArrayAttr({1024, 1024, 64}),
      /*subgroup_size=*/32, /*min_subgroup_size=*/std::nullopt,
      /*max_subgroup_size=*/std::nullopt,
      /*cooperative_matrix_properties_khr=*/b.getArrayAttr({}),
      /*cooperative_matrix_properties_nv=*/b.getArrayAttr({}));
  return spirv::TargetEnvAttr::get(triple, limits, spirv::ClientAPI::Vulkan);
}

/// The kernel IR's memory spaces: global buffers (no space) are storage
/// buffers, space 3 is work-group memory.
static std::optional<spirv::StorageClass> mapMemorySpace(Attribute space) {
  if (!space)
    return spirv::StorageClass::StorageBuffer;
  if (auto number = dyn_cast<IntegerAttr>(space)) {
    if (number.getInt() == 0)
      return spirv::StorageClass::StorageBuffer;
    if (number.getInt() == 3)
      return spirv::StorageClass::Workgroup;
  }
  return std::nullopt;
}

namespace {
/// A math op to its GLSL.std.450 instruction, for the builtins that MLIR
/// 19's math-to-SPIR-V patterns leave out (16 and 32 bits: the preparation
/// has built the f64 ones, and asin, acos and atan for f32, from
/// arithmetic), and for fma ahead of them: MLIR's patterns try OpenCL's
/// instruction first, which the Vulkan target rejects only after building
/// it, and rolling that back took half of the conversion of the thousands
/// of fmas of an unrolled product (docs/codegen.md, "Compile time").
template <typename MathOp, typename GLOp>
struct GLSLPattern final : OpConversionPattern<MathOp> {
  using OpConversionPattern<MathOp>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(MathOp op, typename MathOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<GLOp>(op, type, adaptor.getOperands());
    return success();
  }
};

/// The kernel IR's atomics (docs/kernel-ir.md, "Atomics") at Device scope
/// and relaxed, as OpenCL C 1.2's are: the kernel orders memory with its
/// own fences. MLIR 19's pattern gives every atomic AcquireRelease
/// semantics, which NVIDIA's Vulkan driver (580) compiles to a fence each:
/// with them the sum of 2^24 f32, whose last work-group reads 2 x 1056
/// partials by atomics, took 0.039 ms on the H200; relaxed, 0.030 ms.
struct RelaxedAtomicPattern final : OpConversionPattern<memref::AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(memref::AtomicRMWOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto &converter = *getTypeConverter<SPIRVTypeConverter>();
    Type type = converter.convertType(op.getType());
    Value pointer =
        spirv::getElementPtr(converter, op.getMemRefType(), adaptor.getMemref(),
                             adaptor.getIndices(), op.getLoc(), rewriter);
    if (!type || !pointer)
      return failure();
    auto scope = spirv::Scope::Device;
    auto relaxed = spirv::MemorySemantics::None;
    Value value = adaptor.getValue();
    switch (op.getKind()) {
    case arith::AtomicRMWKind::addi:
      rewriter.replaceOpWithNewOp<spirv::AtomicIAddOp>(op, type, pointer, scope,
                                                       relaxed, value);
      return success();
    case arith::AtomicRMWKind::ori:
      rewriter.replaceOpWithNewOp<spirv::AtomicOrOp>(op, type, pointer, scope,
                                                     relaxed, value);
      return success();
    case arith::AtomicRMWKind::andi:
      rewriter.replaceOpWithNewOp<spirv::AtomicAndOp>(op, type, pointer, scope,
                                                      relaxed, value);
      return success();
    default:
      return rewriter.notifyMatchFailure(op, "not an atomic of the kernel IR");
    }
  }
};
} // namespace

/// Gives every memref of `kernels` its storage class for its memory space,
/// as MLIR 19's convertMemRefTypesAndAttrs does. A memref type is a value's
/// type, or in a kernel's function type; the attributes of other ops hold
/// none, and MLIR's walk of them, which builds each op's properties into a
/// dictionary to visit it, took 2% of a kernel's translation.
static void mapMemorySpaces(gpu::GPUModuleOp kernels) {
  spirv::MemorySpaceToStorageClassConverter memorySpaces(mapMemorySpace);
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [&](BaseMemRefType type) -> std::optional<BaseMemRefType> {
        return memorySpaces.convertType<BaseMemRefType>(type);
      });
  kernels.walk([&](Operation *op) {
    replacer.replaceElementsIn(op,
                               /*replaceAttrs=*/isa<FunctionOpInterface>(op),
                               /*replaceLocs=*/false, /*replaceTypes=*/true);
  });
}

/// Converts the prepared gpu.module (in its scratch module) to a
/// spirv.module in its place.
static LogicalResult convertToSPIRVDialect(gpu::GPUModuleOp kernels,
                                           bool use64BitIndex) {
  MLIRContext *context = kernels.getContext();
  mapMemorySpaces(kernels);

  spirv::TargetEnvAttr targetEnv = spirv::lookupTargetEnv(kernels);
  std::unique_ptr<ConversionTarget> target =
      getSPIRVConversionTarget(targetEnv);
  SPIRVConversionOptions options;
  options.use64bitIndex = use64BitIndex;
  // The environment has 8- and 16-bit types; never pack them into i32.
  options.emulateLT32BitScalarTypes = false;
  SPIRVTypeConverter typeConverter(targetEnv, options);
  convertOpsInPlace(kernels, typeConverter,
                    cast<IntegerType>(typeConverter.getIndexType()));
  ScfToSPIRVContext scfContext;
  RewritePatternSet patterns(context);
  populateGPUToSPIRVPatterns(typeConverter, patterns);
  populateSCFToSPIRVPatterns(typeConverter, scfContext, patterns);
  arith::populateArithToSPIRVPatterns(typeConverter, patterns);
  populateMathToSPIRVPatterns(typeConverter, patterns);
  patterns.add<GLSLPattern<math::TanOp, spirv::GLTanOp>,
               GLSLPattern<math::SinhOp, spirv::GLSinhOp>,
               GLSLPattern<math::CoshOp, spirv::GLCoshOp>,
               GLSLPattern<math::AsinOp, spirv::GLAsinOp>,
               GLSLPattern<math::AcosOp, spirv::GLAcosOp>,
               GLSLPattern<math::AtanOp, spirv::GLAtanOp>>(typeConverter,
                                                           context);
  patterns.add<GLSLPattern<math::FmaOp, spirv::GLFmaOp>>(typeConverter, context,
                                                         /*benefit=*/2);
  patterns.add<RelaxedAtomicPattern>(typeConverter, context,
                                     /*benefit=*/2);
  populateMemRefToSPIRVPatterns(typeConverter, patterns);
  populateVectorRowPatterns(typeConverter, patterns);
  populateVectorToSPIRVPatterns(typeConverter, patterns);
  index::populateIndexToSPIRVPatterns(typeConverter, patterns);
  populateFuncToSPIRVPatterns(typeConverter, patterns);
  return applyFullConversion(kernels, *target, std::move(patterns));
}

/// Decorates the float arithmetic NoContraction: the language rounds every
/// operation (OpenCL: FP_CONTRACT OFF), and without the decoration a Vulkan
/// driver may fuse a product and a sum into an fma or reassociate them
/// (Mesa does), which loses compensated sums and double roundings the
/// reference computes.
static void forbidContraction(spirv::ModuleOp module) {
  UnitAttr unit = UnitAttr::get(module.getContext());
  module.walk([&](Operation *op) {
    if (isa<spirv::FAddOp, spirv::FSubOp, spirv::FMulOp, spirv::FDivOp,
            spirv::FRemOp, spirv::FModOp, spirv::FNegateOp,
            spirv::VectorTimesScalarOp>(op))
      op->setAttr("no_contraction", unit);
  });
}

/// The ops that refer to each global variable of `module`. A SPIR-V kernel
/// reaches a variable only through the pointer of a `spirv.mlir.addressof`,
/// which names it, as does its entry point's interface list (a variable's
/// initializer could name another; the conversion makes none). Looking at
/// those ops alone replaced SymbolTable's query of the module's symbol uses,
/// which visits every attribute of every op: a twentieth of a kernel's
/// translation (docs/codegen.md, "Compile time").
using VariableUsers = llvm::DenseMap<Operation *, SmallVector<Operation *>>;
static VariableUsers findVariableUsers(spirv::ModuleOp module,
                                       SymbolTable &symbols) {
  VariableUsers users;
  auto addUser = [&](Operation *user, FlatSymbolRefAttr variable) {
    if (auto found =
            symbols.lookup<spirv::GlobalVariableOp>(variable.getAttr()))
      users[found].push_back(user);
  };
  module.walk([&](Operation *op) {
    if (auto address = dyn_cast<spirv::AddressOfOp>(op))
      addUser(op, address.getVariableAttr());
    else if (auto entryPoint = dyn_cast<spirv::EntryPointOp>(op))
      for (Attribute variable : entryPoint.getInterface())
        addUser(op, cast<FlatSymbolRefAttr>(variable));
  });
  return users;
}

/// Names the variable of each buffer (binding i holds argument i) after
/// the tensor it holds, as OpenCL C names the parameter: the OpName that
/// debuggers show and SPIRV-Cross takes for the MSL parameter.
static LogicalResult nameParameters(spirv::ModuleOp module,
                                    gpu::GPUFuncOp kernel, SymbolTable &symbols,
                                    const VariableUsers &users) {
  std::vector<std::string> names = getParameterNames(kernel);
  for (auto variable : module.getOps<spirv::GlobalVariableOp>()) {
    std::optional<uint32_t> binding = variable.getBinding();
    if (!binding || *binding >= names.size())
      continue;
    StringAttr name = StringAttr::get(module.getContext(), names[*binding]);
    if (symbols.lookup(name))
      return kernel.emitError("internal error: the buffer of argument #")
             << *binding << " of kernel '" << kernel.getName()
             << "' cannot be named '" << name << "' in its SPIR-V module";
    StringAttr old = variable.getSymNameAttr();
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](SymbolRefAttr ref) -> std::optional<Attribute> {
      if (ref.getRootReference() != old)
        return std::nullopt;
      return SymbolRefAttr::get(name, ref.getNestedReferences());
    });
    for (Operation *user : users.lookup(variable))
      replacer.replaceElementsIn(user);
    symbols.remove(variable);
    variable.setSymName(name);
    symbols.insert(variable);
  }
  return success();
}

/// Whether the kernel only reads through `pointer` (a storage buffer's
/// address, or an element of it): every use is a load from it or selects
/// an element that is only loaded from. Anything else (a store, an atomic,
/// a copy) may write.
static bool isOnlyLoadedFrom(Value pointer) {
  return llvm::all_of(pointer.getUsers(), [&](Operation *user) {
    if (auto load = dyn_cast<spirv::LoadOp>(user))
      return load.getPtr() == pointer;
    if (auto element = dyn_cast<spirv::AccessChainOp>(user))
      return element.getBasePtr() == pointer &&
             isOnlyLoadedFrom(element.getResult());
    return false;
  });
}

/// Decorates each storage buffer Restrict, and NonWritable where the kernel
/// only reads it: what OpenCL C says with `const T *restrict` (docs/codegen.md,
/// "Vulkan and OpenCL speed"). Drivers take read-only, unaliased buffers
/// through the non-coherent read-only cache path (NVIDIA's ld.global.nc)
/// and may reorder their loads across stores. Restrict is sound for the
/// reason OpenCL C's restrict is: extractBundle refuses a launch that passes
/// a buffer the kernel writes as two arguments. The decorations go on the
/// variables: buffers of one shape share their struct type.
static void declareBufferAccess(spirv::ModuleOp module,
                                const VariableUsers &users) {
  UnitAttr unit = UnitAttr::get(module.getContext());
  for (auto variable : module.getOps<spirv::GlobalVariableOp>()) {
    auto type = cast<spirv::PointerType>(variable.getType());
    if (type.getStorageClass() != spirv::StorageClass::StorageBuffer)
      continue;
    variable->setAttr("restrict", unit);
    if (llvm::all_of(users.lookup(variable), [](Operation *user) {
          auto address = dyn_cast<spirv::AddressOfOp>(user);
          return address && isOnlyLoadedFrom(address.getPointer());
        }))
      variable->setAttr("non_writable", unit);
  }
}

/// Declares the float-controls execution modes on every entry point, for
/// each float width that the module computes in and the profile holds:
/// SignedZeroInfNanPreserve (without it Vulkan lets the driver assume that
/// no float is an infinity or a NaN and ignore the sign of zeros, the Vulkan
/// spec's "Precision and Operation of SPIR-V Instructions", and drivers fold
/// accordingly) and DenormPreserve (without it a driver may flush subnormal
/// values to zero, as NVIDIA's does for f32).
static void declareFloatControls(spirv::ModuleOp module,
                                 const DeviceProfile &profile) {
  std::set<unsigned> computed;
  module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type)))
        computed.insert(element.getWidth());
  });
  std::pair<spirv::ExecutionMode, const FloatWidths &> modes[] = {
      {spirv::ExecutionMode::SignedZeroInfNanPreserve,
       profile.signedZeroInfNanPreserve},
      {spirv::ExecutionMode::DenormPreserve, profile.denormPreserve}};
  SmallVector<spirv::EntryPointOp> entryPoints(
      module.getOps<spirv::EntryPointOp>());
  OpBuilder builder(module.getContext());
  for (spirv::EntryPointOp entryPoint : entryPoints) {
    builder.setInsertionPointAfter(entryPoint);
    for (auto [mode, widths] : modes)
      for (unsigned width : computed)
        if (widths.contains(width))
          builder.create<spirv::ExecutionModeOp>(
              entryPoint.getLoc(), entryPoint.getFn(), mode,
              builder.getI32ArrayAttr({static_cast<int32_t>(width)}));
  }
}

void loadSPIRVTranslationDialects(MLIRContext &context) {
  DialectRegistry registry;
  OpPassManager prepare(gpu::GPUModuleOp::getOperationName());
  addSPIRVPreparationPasses(prepare);
  prepare.getDependentDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadDialect<spirv::SPIRVDialect>();
  for (StringRef name : registry.getDialectNames())
    context.getOrLoadDialect(name);
}

FailureOr<std::vector<uint32_t>>
translateToSPIRV(gpu::GPUFuncOp kernel, const DeviceProfile &profile) {
  auto kernels = kernel->getParentOfType<gpu::GPUModuleOp>();
  if (!kernels)
    return kernel.emitError("a kernel to translate must be in a gpu.module");
  MLIRContext *context = kernel.getContext();
  context->loadDialect<spirv::SPIRVDialect>();
  auto parent = kernels->getParentOfType<ModuleOp>();
  auto indexBits =
      parent ? parent->getAttrOfType<IntegerAttr>("tile.index_bits") : nullptr;
  if (!indexBits || (indexBits.getInt() != 32 && indexBits.getInt() != 64))
    return kernels.emitError("the kernel IR's module needs tile.index_bits, "
                             "32 or 64");

  OwningOpRef<ModuleOp> scratch = ModuleOp::create(kernels.getLoc());
  OpBuilder builder(context);
  builder.setInsertionPointToStart(scratch->getBody());
  // The kernel alone in a module of its own: the module then declares only
  // its Workgroup memory, which Vulkan charges per module, not per entry
  // point.
  auto clone =
      builder.create<gpu::GPUModuleOp>(kernels.getLoc(), kernels.getName());
  clone->setAttrs(kernels->getAttrs());
  builder.setInsertionPointToStart(clone.getBody());
  builder.clone(*kernel);
  clone->setAttr(spirv::getTargetEnvAttrName(), getVulkanTargetEnv(context));
  // No pass is verified: what checks the translation is SPIRV-Tools'
  // validation of the words below, which covers what MLIR's verifier of the
  // spirv.module would (types, dominance, structured control flow) and what
  // the driver is given. A kernel of unrolled loops has thousands of ops:
  // verifying them after each of the preparation's 20 passes took more time
  // than the passes themselves, and the one verification before
  // serialization a twelfth of the translation (docs/codegen.md, "Compile
  // time"). tile-opt, which the lit tests of each pass run, verifies after
  // every pass.
  PassManager prepare(context);
  prepare.enableVerifier(false);
  addSPIRVPreparationPasses(prepare.nest<gpu::GPUModuleOp>());
  if (failed(prepare.run(*scratch)) ||
      failed(convertToSPIRVDialect(clone, indexBits.getInt() == 64)))
    return failure();

  auto spirvModules = scratch->getOps<spirv::ModuleOp>();
  if (llvm::range_size(spirvModules) != 1)
    return kernels.emitError("the SPIR-V conversion did not produce one "
                             "spirv.module");
  spirv::ModuleOp spirvModule = *spirvModules.begin();
  forbidContraction(spirvModule);
  // The entry points come from the ABI attributes; the execution modes then
  // go on them, before updateVCETriple keeps the capabilities they need.
  if (failed(lowerEntryPointABI(spirvModule)))
    return failure();
  SymbolTable symbols(spirvModule);
  VariableUsers users = findVariableUsers(spirvModule, symbols);
  if (failed(nameParameters(spirvModule, kernel, symbols, users)))
    return failure();
  declareBufferAccess(spirvModule, users);
  declareFloatControls(spirvModule, profile);
  if (failed(updateVCETriple(spirvModule)))
    return failure();

  SmallVector<uint32_t> words;
  if (failed(spirv::serialize(spirvModule, words)))
    return failure();
  std::string error;
  if (failed(validateSPIRV(words, error)))
    return kernel.emitError("internal error: the SPIR-V module of kernel '")
           << kernel.getName() << "' is invalid for " << kSPIRVTargetEnvName
           << ": " << error;
  return std::vector<uint32_t>(words.begin(), words.end());
}

} // namespace tilec
