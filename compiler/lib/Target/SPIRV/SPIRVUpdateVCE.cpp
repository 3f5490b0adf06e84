//===- SPIRVUpdateVCE.cpp - A spirv.module's vce_triple -------------------===//
//
// MLIR 19's spirv-update-vce asks every operand and result type of every op
// for the capabilities and extensions it needs, which recurses into
// composite types and allocates vectors at each use: a twentieth of a
// kernel's translation (docs/codegen.md, "Compile time"). The requirements
// are gathered into sets that keep the order of insertion, the order of the
// OpCapability and OpExtension words; a type seen before has already put
// all of its requirements into them, so each type is asked once per module
// here, and the sets come out in the same order. An op's own requirements
// are asked once per name and attributes where those decide them
// (SPIRVOpRequirements.h), else at each op.
//
//===----------------------------------------------------------------------===//

#include "SPIRVUpdateVCE.h"
#include "SPIRVOpRequirements.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// Adds to `deduced` the first of each of `candidates`' alternatives that
/// `targetEnv` allows (a conjunction of disjunctions of capabilities or
/// extensions); an alternative of which it allows none is an error at `op`,
/// worded as spirv-update-vce words it.
template <typename Requirement>
static LogicalResult require(Operation *op, const spirv::TargetEnv &targetEnv,
                             ArrayRef<ArrayRef<Requirement>> candidates,
                             llvm::SetVector<Requirement> &deduced,
                             StringRef kind) {
  for (ArrayRef<Requirement> alternatives : candidates) {
    if (std::optional<Requirement> chosen = targetEnv.allows(alternatives)) {
      deduced.insert(*chosen);
      continue;
    }
    SmallVector<StringRef, 4> names;
    for (Requirement alternative : alternatives)
      names.push_back(spirv::stringifyEnum(alternative));
    return op->emitError("'") << op->getName() << "' requires at least one "
                              << kind << " in [" << llvm::join(names, ", ")
                              << "] but none allowed in target environment";
  }
  return success();
}

LogicalResult tilec::updateVCETriple(spirv::ModuleOp module) {
  spirv::TargetEnvAttr targetAttr = spirv::lookupTargetEnv(module);
  if (!targetAttr)
    return module.emitError("missing 'spirv.target_env' attribute");
  spirv::TargetEnv targetEnv(targetAttr);
  spirv::Version allowedVersion = targetAttr.getVersion();

  spirv::Version deducedVersion = spirv::Version::V_1_0;
  llvm::SetVector<spirv::Extension> deducedExtensions;
  llvm::SetVector<spirv::Capability> deducedCapabilities;
  llvm::DenseSet<Type> seenTypes;
  // A type's extensions, then its capabilities, as spirv-update-vce checks
  // them.
  auto requireType = [&](Operation *op, Type type) -> LogicalResult {
    if (!seenTypes.insert(type).second)
      return success();
    auto spirvType = cast<spirv::SPIRVType>(type);
    SmallVector<ArrayRef<spirv::Extension>, 4> extensions;
    spirvType.getExtensions(extensions);
    if (failed(require<spirv::Extension>(op, targetEnv, extensions,
                                         deducedExtensions, "extension")))
      return failure();
    SmallVector<ArrayRef<spirv::Capability>, 8> capabilities;
    spirvType.getCapabilities(capabilities);
    return require<spirv::Capability>(op, targetEnv, capabilities,
                                      deducedCapabilities, "capability");
  };

  llvm::DenseSet<OpRequirementsKey> seenOps;
  // An op's version, extensions and capabilities.
  auto requireOp = [&](Operation *op) -> LogicalResult {
    if (std::optional<OpRequirementsKey> key = getOpRequirementsKey(op))
      if (!seenOps.insert(*key).second)
        return success();
    if (auto minVersion = dyn_cast<spirv::QueryMinVersionInterface>(op)) {
      if (std::optional<spirv::Version> version = minVersion.getMinVersion()) {
        deducedVersion = std::max(deducedVersion, *version);
        if (deducedVersion > allowedVersion)
          return op->emitError("'")
                 << op->getName() << "' requires min version "
                 << spirv::stringifyVersion(deducedVersion)
                 << " but target environment allows up to "
                 << spirv::stringifyVersion(allowedVersion);
      }
    }
    if (auto extensions = dyn_cast<spirv::QueryExtensionInterface>(op))
      if (failed(require<spirv::Extension>(op, targetEnv,
                                           extensions.getExtensions(),
                                           deducedExtensions, "extension")))
        return failure();
    if (auto capabilities = dyn_cast<spirv::QueryCapabilityInterface>(op))
      return require<spirv::Capability>(op, targetEnv,
                                        capabilities.getCapabilities(),
                                        deducedCapabilities, "capability");
    return success();
  };

  WalkResult walked = module.walk([&](Operation *op) -> WalkResult {
    if (failed(requireOp(op)))
      return WalkResult::interrupt();
    for (Type type : op->getOperandTypes())
      if (failed(requireType(op, type)))
        return WalkResult::interrupt();
    for (Type type : op->getResultTypes())
      if (failed(requireType(op, type)))
        return WalkResult::interrupt();
    // A global variable's type is an attribute, not a value's.
    if (auto variable = dyn_cast<spirv::GlobalVariableOp>(op))
      if (failed(requireType(op, variable.getType())))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();

  module->setAttr(spirv::ModuleOp::getVCETripleAttrName(),
                  spirv::VerCapExtAttr::get(
                      deducedVersion, deducedCapabilities.getArrayRef(),
                      deducedExtensions.getArrayRef(), module.getContext()));
  return success();
}
