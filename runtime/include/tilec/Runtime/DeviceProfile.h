//===- DeviceProfile.h - What the compiler may assume of a device -*- C++
//-*-===//
//
// The limits and preferences of a device that code generation and launch
// checks depend on. A profile is read from the driver, and a JSON profile
// file can override any subset of its fields, so that a test (or a user
// compiling ahead of time) can pretend to be another device.
//
// The JSON form is one object whose keys are the snake_case field names
// below (the per-dtype vector widths are "preferred_vector_width_<class>",
// "type" is "gpu", "cpu" or "other", "subgroup_size" may be null, and
// "signed_zero_inf_nan_preserve" and "denorm_preserve" list float widths:
// [16, 32, 64]).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICEPROFILE_H
#define TILEC_RUNTIME_DEVICEPROFILE_H

#include "tilec/Runtime/Status.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tilec {

enum class DeviceType : uint8_t { GPU, CPU, Other };

/// "gpu", "cpu" or "other".
const char *deviceTypeName(DeviceType type);

/// The native vector width the device prefers for each scalar class, in
/// elements (OpenCL's CL_DEVICE_PREFERRED_VECTOR_WIDTH_*); 0 means the type
/// is unsupported.
struct PreferredVectorWidths {
  uint32_t charWidth = 1;
  uint32_t shortWidth = 1;
  uint32_t intWidth = 1;
  uint32_t longWidth = 1;
  uint32_t floatWidth = 1;
  uint32_t doubleWidth = 0;
  uint32_t halfWidth = 0;

  bool operator==(const PreferredVectorWidths &other) const;
  bool operator!=(const PreferredVectorWidths &other) const {
    return !(*this == other);
  }
};

/// A set of float widths: f16, f32, f64.
struct FloatWidths {
  bool f16 = false;
  bool f32 = false;
  bool f64 = false;

  /// Whether `bits` (16, 32 or 64) is in the set.
  bool contains(unsigned bits) const;
  bool operator==(const FloatWidths &other) const;
  bool operator!=(const FloatWidths &other) const { return !(*this == other); }
};

struct DeviceProfile {
  std::string name;
  std::string vendor;
  std::string driverVersion;
  DeviceType type = DeviceType::Other;
  /// Work-items in one work-group, at most, for any kernel.
  uint64_t maxWorkGroupSize = 1;
  /// Whether every kernel may be launched with maxWorkGroupSize work-items.
  /// Vulkan promises it (maxComputeWorkGroupInvocations binds every
  /// pipeline: the driver spills registers where it must). OpenCL does not:
  /// a built kernel has its own maximum (CL_KERNEL_WORK_GROUP_SIZE), which
  /// the compiler cannot know in advance, and NVIDIA's driver reports 256
  /// for every kernel, whatever its registers. So false by default; only
  /// where it is set does a row kernel take more than 256 work-items
  /// (docs/scheduler.md, "Row kernels").
  bool maxWorkGroupSizeGuaranteed = false;
  /// Work-items per dimension of a work-group, at most.
  std::array<uint64_t, 3> maxWorkItemSizes = {1, 1, 1};
  /// Local (work-group shared) memory in bytes.
  uint64_t localMemBytes = 0;
  uint32_t computeUnits = 1;
  PreferredVectorWidths preferredVectorWidth;
  /// The subgroup (warp, wavefront, SIMD) width where the driver exposes it;
  /// unset where it depends on the kernel or is not reported.
  std::optional<uint32_t> subgroupSize;
  /// The largest single buffer, in bytes.
  uint64_t maxAllocBytes = 0;
  uint64_t globalMemBytes = 0;
  uint32_t clockMHz = 0;
  bool supportsFp64 = false;
  bool supportsFp16 = false;
  /// Loop passes after which the device's shader compiler stops a kernel's
  /// loops early, counted per work-item over all its loops together; 0 for
  /// no limit. llvmpipe (lavapipe) ends every loop of an invocation once
  /// 65535 passes of all its loops have run (LP_MAX_TGSI_LOOP_ITERATIONS),
  /// silently: the scheduler keeps every kernel's count below it.
  uint64_t maxLoopIterations = 0;
  /// Work-groups per dimension of one launch, at most; 0 for no limit other
  /// than the index type's (OpenCL). Vulkan guarantees only 65535
  /// (maxComputeWorkGroupCount): the scheduler keeps every launch within it.
  std::array<uint64_t, 3> maxWorkGroupCount = {0, 0, 0};
  /// The float widths whose signed zeros, infinities and NaNs the device
  /// keeps when a kernel asks it to: where the SPIR-V target may declare
  /// SPIR-V's SignedZeroInfNanPreserve execution mode (Vulkan:
  /// VkPhysicalDeviceFloatControlsProperties::
  /// shaderSignedZeroInfNanPreserveFloat16/32/64). Without it a Vulkan driver
  /// may assume that no float is an infinity or a NaN and ignore the sign of
  /// zeros (docs/codegen.md). OpenCL C keeps them always (tilec never passes
  /// -cl-finite-math-only), hence every width by default.
  FloatWidths signedZeroInfNanPreserve = {true, true, true};
  /// The float widths whose subnormal (denormal) values the device keeps
  /// when a kernel asks it to: where the SPIR-V target may declare SPIR-V's
  /// DenormPreserve execution mode (Vulkan: VkPhysicalDeviceFloatControls-
  /// Properties::shaderDenormPreserveFloat16/32/64). Without it a Vulkan
  /// driver may flush them to zero (NVIDIA's does for f32). None by default:
  /// many devices lack the property (lavapipe does, and keeps subnormals
  /// anyway), and a SPIR-V module that declares the mode runs only where the
  /// device has it, so only a profile read from such a device (or a file)
  /// asks for it. OpenCL C keeps subnormals regardless (tilec never passes
  /// -cl-denorms-are-zero).
  FloatWidths denormPreserve;

  bool operator==(const DeviceProfile &other) const;
  bool operator!=(const DeviceProfile &other) const {
    return !(*this == other);
  }
};

/// Identifies the device and the driver that compiles for it, for keys of
/// caches of compiled code: "vendor|name|driverVersion".
std::string deviceFingerprint(const DeviceProfile &profile);

/// The profile as a pretty-printed JSON object with every field.
std::string profileToJson(const DeviceProfile &profile);

/// Overrides the fields of `profile` named in the JSON object `jsonText`;
/// other fields keep their values. `sourceName` (a file name) prefixes every
/// message. Malformed JSON, a non-object, an unknown key or a value of the
/// wrong type or range is an error that names the key; `profile` is then
/// left unchanged.
Status applyProfileOverrides(DeviceProfile &profile, std::string_view jsonText,
                             std::string_view sourceName);

/// Reads the file at `path` and applies it with applyProfileOverrides.
Status applyProfileFile(DeviceProfile &profile, const std::string &path);

/// A few lines that summarise the profile for people, each starting with
/// `indent` (used by `tilec devices`).
std::string formatProfileSummary(const DeviceProfile &profile,
                                 std::string_view indent);

} // namespace tilec

#endif // TILEC_RUNTIME_DEVICEPROFILE_H
