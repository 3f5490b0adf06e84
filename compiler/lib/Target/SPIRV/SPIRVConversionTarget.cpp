//===- SPIRVConversionTarget.cpp - Which SPIR-V ops a device allows -------===//
//
// The dialect conversion asks the target whether each spirv op it creates is
// legal, and MLIR 19's SPIRVConversionTarget answers by asking each operand
// and result type for the capabilities and extensions it needs, which
// recurses into composite types and allocates vectors at each use: a
// twentieth of a kernel's translation (docs/codegen.md, "Compile time").
// Whether the environment allows a type depends on the type alone, so it is
// decided once per type here; an op's own requirements, once per name and
// attributes where those decide them (SPIRVOpRequirements.h), else at each
// op.
//
//===----------------------------------------------------------------------===//

#include "SPIRVConversionTarget.h"
#include "SPIRVOpRequirements.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace tilec;

namespace {
/// The target: its legality callback refers to the environment and the
/// types' answers, so it is neither copied nor moved.
class CachingSPIRVConversionTarget final : public ConversionTarget {
public:
  explicit CachingSPIRVConversionTarget(spirv::TargetEnvAttr targetAttr)
      : ConversionTarget(*targetAttr.getContext()), targetEnv(targetAttr),
        version(targetAttr.getVersion()) {
    // Each spirv op by its name rather than the dialect's: the target looks
    // an op's name up first, and its dialect's namespace, hashed as a
    // string, only after that misses, at every one of the conversion's
    // thousands of legality queries.
    DynamicLegalityCallbackFn isLegal = [this](Operation *op) {
      return isLegalOp(op);
    };
    auto *dialect =
        targetAttr.getContext()->getLoadedDialect<spirv::SPIRVDialect>();
    for (RegisteredOperationName name :
         targetAttr.getContext()->getRegisteredOperations())
      if (&name.getDialect() == dialect)
        addDynamicallyLegalOp(name, isLegal);
  }
  CachingSPIRVConversionTarget(const CachingSPIRVConversionTarget &) = delete;
  CachingSPIRVConversionTarget &
  operator=(const CachingSPIRVConversionTarget &) = delete;

private:
  /// Whether the environment allows one extension and one capability of each
  /// alternative in `candidates`.
  template <typename Requirement>
  bool allowsAll(ArrayRef<ArrayRef<Requirement>> candidates) const {
    return llvm::all_of(candidates, [&](ArrayRef<Requirement> alternatives) {
      return targetEnv.allows(alternatives).has_value();
    });
  }

  /// Whether `type` is a SPIR-V type that the environment allows. (MLIR 19
  /// takes a global variable's type for a SPIR-V one without asking, and
  /// the conversion only makes variables of pointers.)
  bool isAllowedType(Type type) {
    auto [known, inserted] = allowedTypes.try_emplace(type, false);
    if (!inserted)
      return known->second;
    auto spirvType = dyn_cast<spirv::SPIRVType>(type);
    if (!spirvType)
      return false;
    SmallVector<ArrayRef<spirv::Extension>, 4> extensions;
    spirvType.getExtensions(extensions);
    SmallVector<ArrayRef<spirv::Capability>, 8> capabilities;
    spirvType.getCapabilities(capabilities);
    known->second = allowsAll<spirv::Extension>(extensions) &&
                    allowsAll<spirv::Capability>(capabilities);
    return known->second;
  }

  bool isLegalOp(Operation *op) {
    bool allowed;
    if (std::optional<OpRequirementsKey> key = getOpRequirementsKey(op)) {
      auto [known, inserted] = allowedOps.try_emplace(*key, false);
      if (inserted)
        known->second = allowsOpRequirements(op);
      allowed = known->second;
    } else {
      allowed = allowsOpRequirements(op);
    }
    if (!allowed)
      return false;
    auto isAllowed = [&](Type type) { return isAllowedType(type); };
    if (!llvm::all_of(op->getOperandTypes(), isAllowed) ||
        !llvm::all_of(op->getResultTypes(), isAllowed))
      return false;
    // A global variable's type is an attribute, not a value's.
    if (auto variable = dyn_cast<spirv::GlobalVariableOp>(op))
      return isAllowedType(variable.getType());
    return true;
  }

  /// Whether the environment allows `op`'s own version range, extensions
  /// and capabilities.
  bool allowsOpRequirements(Operation *op) const {
    if (auto minVersion = dyn_cast<spirv::QueryMinVersionInterface>(op)) {
      std::optional<spirv::Version> required = minVersion.getMinVersion();
      if (required && *required > version)
        return false;
    }
    if (auto maxVersion = dyn_cast<spirv::QueryMaxVersionInterface>(op)) {
      std::optional<spirv::Version> required = maxVersion.getMaxVersion();
      if (required && *required < version)
        return false;
    }
    if (auto extensions = dyn_cast<spirv::QueryExtensionInterface>(op))
      if (!allowsAll<spirv::Extension>(extensions.getExtensions()))
        return false;
    if (auto capabilities = dyn_cast<spirv::QueryCapabilityInterface>(op))
      if (!allowsAll<spirv::Capability>(capabilities.getCapabilities()))
        return false;
    return true;
  }

  spirv::TargetEnv targetEnv;
  spirv::Version version;
  /// Whether each type asked about so far is a SPIR-V type that the
  /// environment allows.
  llvm::DenseMap<Type, bool> allowedTypes;
  /// Whether the environment allows the requirements of the ops of each
  /// name and attributes asked about so far (SPIRVOpRequirements.h).
  llvm::DenseMap<OpRequirementsKey, bool> allowedOps;
};
} // namespace

std::unique_ptr<ConversionTarget>
tilec::getSPIRVConversionTarget(spirv::TargetEnvAttr targetAttr) {
  return std::make_unique<CachingSPIRVConversionTarget>(targetAttr);
}
