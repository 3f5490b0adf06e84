//===- SpirvInfo.cpp - Entry points and feature needs of a SPIR-V module --===//
//
// Reads just enough of a SPIR-V binary to check a bundle before the driver
// sees it: the entry points, their LocalSize, and which of the module's
// capabilities each entry point's code needs (the types it touches), so that
// a missing feature is reported against the kernel that needs it, as is a
// float-controls execution mode that needs a device property.
//
//===----------------------------------------------------------------------===//

#include "Failure.h"

#include <map>
#include <set>
#include <tuple>

using namespace tilec;
using namespace tilec::vulkan;

namespace {

// The SPIR-V opcodes, capabilities and execution modes read here.
enum Opcode : uint32_t {
  OpEntryPoint = 15,
  OpExecutionMode = 16,
  OpCapability = 17,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpTypeVector = 23,
  OpTypeMatrix = 24,
  OpTypeArray = 28,
  OpTypeRuntimeArray = 29,
  OpTypeStruct = 30,
  OpTypePointer = 32,
  OpConstant = 43,
  OpConstantComposite = 44,
  OpSpecConstant = 50,
  OpFunction = 54,
  OpFunctionEnd = 56,
  OpFunctionCall = 57,
  OpVariable = 59,
};
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kExecutionModeDenormPreserve = 4459;
constexpr uint32_t kExecutionModeSignedZeroInfNanPreserve = 4461;

/// A scalar type by kind and width: what a capability is about.
struct Scalar {
  bool isFloat;
  uint32_t width;
  bool operator<(const Scalar &other) const {
    return std::tie(isFloat, width) < std::tie(other.isFloat, other.width);
  }
};

/// A capability that needs a device feature, and the scalars whose use by a
/// kernel means the kernel needs it (none: every kernel does).
struct CapabilityFeature {
  uint32_t capability;
  const char *feature;
  std::vector<Scalar> scalars;
};

const CapabilityFeature kCapabilityFeatures[] = {
    {9, "shaderFloat16", {{true, 16}}},
    {10, "shaderFloat64", {{true, 64}}},
    {11, "shaderInt64", {{false, 64}}},
    {22, "shaderInt16", {{false, 16}}},
    {39, "shaderInt8", {{false, 8}}},
    {4433, "storageBuffer16BitAccess", {{false, 16}, {true, 16}}},
    {4448, "storageBuffer8BitAccess", {{false, 8}}},
    {5345, "vulkanMemoryModel", {}},
};

struct EntryRecord {
  SpirvEntryPoint entry;
  uint32_t function = 0;
  std::vector<uint32_t> interface;
};

/// What the module's instructions say, by id.
struct ModuleFacts {
  std::set<uint32_t> capabilities;
  std::vector<EntryRecord> entries;
  std::map<uint32_t, std::array<uint32_t, 3>> localSizes;
  /// Per entry function: the features its execution modes need.
  std::map<uint32_t, std::vector<std::string>> modeFeatures;
  std::map<uint32_t, Scalar> scalarTypes;
  /// Composite and pointer types: the types they are made of.
  std::map<uint32_t, std::vector<uint32_t>> typeParts;
  /// Variables and constants: their types.
  std::map<uint32_t, uint32_t> valueTypes;
  /// Per function: every word of its instructions' operands, and the
  /// functions it calls.
  std::map<uint32_t, std::vector<uint32_t>> functionWords;
  std::map<uint32_t, std::vector<uint32_t>> callees;
};

/// Decodes the nul-terminated string of `words`; sets `used` to the words
/// it takes.
std::string decodeString(const uint32_t *words, size_t count, size_t &used) {
  std::string text;
  for (used = 0; used < count;) {
    uint32_t word = words[used++];
    for (unsigned byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((word >> (8 * byte)) & 0xFF);
      if (c == '\0')
        return text;
      text += c;
    }
  }
  return text;
}

} // namespace

/// Every scalar type that `id` (a type, variable or constant) is built of.
static void collectScalars(const ModuleFacts &facts, uint32_t id,
                           std::set<uint32_t> &visited,
                           std::set<Scalar> &scalars) {
  if (!visited.insert(id).second)
    return;
  if (auto scalar = facts.scalarTypes.find(id);
      scalar != facts.scalarTypes.end())
    scalars.insert(scalar->second);
  if (auto parts = facts.typeParts.find(id); parts != facts.typeParts.end())
    for (uint32_t part : parts->second)
      collectScalars(facts, part, visited, scalars);
  if (auto type = facts.valueTypes.find(id); type != facts.valueTypes.end())
    collectScalars(facts, type->second, visited, scalars);
}

/// The scalar types that entry point `record`'s code and interface touch:
/// a word of an instruction of a function it reaches may be an id of a
/// type, variable or constant (a literal that happens to equal such an id
/// over-approximates, which is harmless).
static std::set<Scalar> scalarsUsedBy(const ModuleFacts &facts,
                                      const EntryRecord &record) {
  std::set<Scalar> scalars;
  std::set<uint32_t> visitedIds, visitedFunctions;
  std::vector<uint32_t> work = {record.function};
  for (uint32_t id : record.interface)
    collectScalars(facts, id, visitedIds, scalars);
  while (!work.empty()) {
    uint32_t function = work.back();
    work.pop_back();
    if (!visitedFunctions.insert(function).second)
      continue;
    if (auto words = facts.functionWords.find(function);
        words != facts.functionWords.end())
      for (uint32_t word : words->second)
        collectScalars(facts, word, visitedIds, scalars);
    if (auto calls = facts.callees.find(function); calls != facts.callees.end())
      work.insert(work.end(), calls->second.begin(), calls->second.end());
  }
  return scalars;
}

Expected<std::vector<SpirvEntryPoint>>
vulkan::inspectSpirv(const std::vector<uint32_t> &words,
                     std::string_view name) {
  std::string what = "the SPIR-V of " + quoted(name);
  if (words.size() < 5 || words[0] != kMagic)
    return Error(what + " is not a SPIR-V module (no SPIR-V header)");
  ModuleFacts facts;
  // The function whose instructions are being read; 0 (never an id)
  // outside functions.
  uint32_t currentFunction = 0;
  for (size_t at = 5; at < words.size();) {
    uint32_t opcode = words[at] & 0xFFFF;
    uint32_t count = words[at] >> 16;
    if (count == 0 || count > words.size() - at)
      return Error(what + " is malformed: the instruction at word " +
                   std::to_string(at) + " runs past the end of the module");
    const uint32_t *operands = words.data() + at + 1;
    size_t numOperands = count - 1;
    at += count;
    auto operand = [&](size_t i) { return i < numOperands ? operands[i] : 0; };

    if (currentFunction) {
      if (opcode == OpFunctionEnd) {
        currentFunction = 0;
        continue;
      }
      std::vector<uint32_t> &body = facts.functionWords[currentFunction];
      body.insert(body.end(), operands, operands + numOperands);
      if (opcode == OpFunctionCall)
        facts.callees[currentFunction].push_back(operand(2));
      continue;
    }
    switch (opcode) {
    case OpCapability:
      facts.capabilities.insert(operand(0));
      break;
    case OpEntryPoint: {
      EntryRecord record;
      record.function = operand(1);
      size_t used = 0;
      if (numOperands > 2)
        record.entry.name = decodeString(operands + 2, numOperands - 2, used);
      record.interface.assign(operands + 2 + used, operands + numOperands);
      facts.entries.push_back(std::move(record));
      break;
    }
    case OpExecutionMode:
      if (operand(1) == kExecutionModeLocalSize && numOperands >= 5)
        facts.localSizes[operand(0)] = {operand(2), operand(3), operand(4)};
      if (operand(1) == kExecutionModeSignedZeroInfNanPreserve &&
          numOperands >= 3)
        facts.modeFeatures[operand(0)].push_back(
            "shaderSignedZeroInfNanPreserveFloat" + std::to_string(operand(2)));
      if (operand(1) == kExecutionModeDenormPreserve && numOperands >= 3)
        facts.modeFeatures[operand(0)].push_back("shaderDenormPreserveFloat" +
                                                 std::to_string(operand(2)));
      break;
    case OpTypeInt:
    case OpTypeFloat:
      facts.scalarTypes[operand(0)] = {opcode == OpTypeFloat, operand(1)};
      break;
    case OpTypeVector:
    case OpTypeMatrix:
    case OpTypeArray:
    case OpTypeRuntimeArray:
      facts.typeParts[operand(0)] = {operand(1)};
      break;
    case OpTypeStruct:
      facts.typeParts[operand(0)].assign(operands + 1, operands + numOperands);
      break;
    case OpTypePointer:
      facts.typeParts[operand(0)] = {operand(2)};
      break;
    case OpConstant:
    case OpConstantComposite:
    case OpSpecConstant:
    case OpVariable:
      facts.valueTypes[operand(1)] = operand(0);
      break;
    case OpFunction:
      currentFunction = operand(1);
      break;
    default:
      break;
    }
  }

  std::vector<SpirvEntryPoint> entries;
  for (EntryRecord &record : facts.entries) {
    if (auto size = facts.localSizes.find(record.function);
        size != facts.localSizes.end())
      record.entry.localSize = size->second;
    std::set<Scalar> used = scalarsUsedBy(facts, record);
    for (const CapabilityFeature &need : kCapabilityFeatures) {
      if (!facts.capabilities.count(need.capability))
        continue;
      bool needed = need.scalars.empty();
      for (const Scalar &scalar : need.scalars)
        needed |= used.count(scalar) != 0;
      if (needed)
        record.entry.features.push_back(need.feature);
    }
    if (auto modes = facts.modeFeatures.find(record.function);
        modes != facts.modeFeatures.end())
      record.entry.features.insert(record.entry.features.end(),
                                   modes->second.begin(), modes->second.end());
    entries.push_back(std::move(record.entry));
  }
  return entries;
}

const SpirvEntryPoint *
ShaderModule::findEntryPoint(std::string_view name) const {
  for (const SpirvEntryPoint &entry : entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}
