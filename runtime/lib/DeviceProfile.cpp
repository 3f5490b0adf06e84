//===- DeviceProfile.cpp - Device profiles and their JSON form ------------===//

#include "tilec/Runtime/DeviceProfile.h"

#include "FileIO.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <limits>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

using namespace tilec;
using nlohmann::json;

const char *tilec::deviceTypeName(DeviceType type) {
  switch (type) {
  case DeviceType::GPU:
    return "gpu";
  case DeviceType::CPU:
    return "cpu";
  case DeviceType::Other:
    return "other";
  }
  return "other";
}

bool PreferredVectorWidths::operator==(
    const PreferredVectorWidths &other) const {
  auto asTuple = [](const PreferredVectorWidths &w) {
    return std::tie(w.charWidth, w.shortWidth, w.intWidth, w.longWidth,
                    w.floatWidth, w.doubleWidth, w.halfWidth);
  };
  return asTuple(*this) == asTuple(other);
}

bool FloatWidths::contains(unsigned bits) const {
  return (bits == 16 && f16) || (bits == 32 && f32) || (bits == 64 && f64);
}

bool FloatWidths::operator==(const FloatWidths &other) const {
  return std::tie(f16, f32, f64) == std::tie(other.f16, other.f32, other.f64);
}

bool DeviceProfile::operator==(const DeviceProfile &other) const {
  auto asTuple = [](const DeviceProfile &p) {
    return std::tie(p.name, p.vendor, p.driverVersion, p.type,
                    p.maxWorkGroupSize, p.maxWorkGroupSizeGuaranteed,
                    p.maxWorkItemSizes, p.localMemBytes, p.computeUnits,
                    p.preferredVectorWidth, p.subgroupSize, p.maxAllocBytes,
                    p.globalMemBytes, p.clockMHz, p.supportsFp64,
                    p.supportsFp16, p.maxLoopIterations, p.maxWorkGroupCount,
                    p.signedZeroInfNanPreserve, p.denormPreserve);
  };
  return asTuple(*this) == asTuple(other);
}

std::string tilec::deviceFingerprint(const DeviceProfile &profile) {
  return profile.vendor + "|" + profile.name + "|" + profile.driverVersion;
}

//===----------------------------------------------------------------------===//
// JSON form
//===----------------------------------------------------------------------===//

/// Calls `visit(key, field)` for every field of `profile`, in the order of
/// the JSON form. The one list of keys that writing, reading and the check
/// for unknown keys share.
template <class Profile, class Visitor>
static void visitFields(Profile &profile, Visitor &&visit) {
  visit("name", profile.name);
  visit("vendor", profile.vendor);
  visit("driver_version", profile.driverVersion);
  visit("type", profile.type);
  visit("max_work_group_size", profile.maxWorkGroupSize);
  visit("max_work_group_size_guaranteed", profile.maxWorkGroupSizeGuaranteed);
  visit("max_work_item_sizes", profile.maxWorkItemSizes);
  visit("local_mem_bytes", profile.localMemBytes);
  visit("compute_units", profile.computeUnits);
  auto &widths = profile.preferredVectorWidth;
  visit("preferred_vector_width_char", widths.charWidth);
  visit("preferred_vector_width_short", widths.shortWidth);
  visit("preferred_vector_width_int", widths.intWidth);
  visit("preferred_vector_width_long", widths.longWidth);
  visit("preferred_vector_width_float", widths.floatWidth);
  visit("preferred_vector_width_double", widths.doubleWidth);
  visit("preferred_vector_width_half", widths.halfWidth);
  visit("subgroup_size", profile.subgroupSize);
  visit("max_alloc_bytes", profile.maxAllocBytes);
  visit("global_mem_bytes", profile.globalMemBytes);
  visit("clock_mhz", profile.clockMHz);
  visit("supports_fp64", profile.supportsFp64);
  visit("supports_fp16", profile.supportsFp16);
  visit("max_loop_iterations", profile.maxLoopIterations);
  visit("max_work_group_count", profile.maxWorkGroupCount);
  visit("signed_zero_inf_nan_preserve", profile.signedZeroInfNanPreserve);
  visit("denorm_preserve", profile.denormPreserve);
}

/// The widths of `widths`, ascending.
static std::vector<unsigned> listWidths(const FloatWidths &widths) {
  std::vector<unsigned> bits;
  for (unsigned width : {16u, 32u, 64u})
    if (widths.contains(width))
      bits.push_back(width);
  return bits;
}

static json toJson(const std::string &value) { return value; }
static json toJson(uint64_t value) { return value; }
static json toJson(uint32_t value) { return value; }
static json toJson(bool value) { return value; }
static json toJson(DeviceType value) { return deviceTypeName(value); }
static json toJson(const std::array<uint64_t, 3> &value) {
  return json::array({value[0], value[1], value[2]});
}
static json toJson(const std::optional<uint32_t> &value) {
  return value ? json(*value) : json(nullptr);
}
static json toJson(const FloatWidths &value) { return listWidths(value); }

// Each fromJson stores `value` into `out` and returns nullptr, or returns
// what was expected when `value` has the wrong type or range.
static const char *fromJson(const json &value, std::string &out) {
  if (!value.is_string())
    return "a string";
  out = value.get<std::string>();
  return nullptr;
}
static const char *fromJson(const json &value, uint64_t &out) {
  if (!value.is_number_unsigned())
    return "a non-negative integer";
  out = value.get<uint64_t>();
  return nullptr;
}
static const char *fromJson(const json &value, uint32_t &out) {
  if (!value.is_number_unsigned() ||
      value.get<uint64_t>() > std::numeric_limits<uint32_t>::max())
    return "a non-negative integer below 2^32";
  out = value.get<uint32_t>();
  return nullptr;
}
static const char *fromJson(const json &value, bool &out) {
  if (!value.is_boolean())
    return "true or false";
  out = value.get<bool>();
  return nullptr;
}
static const char *fromJson(const json &value, DeviceType &out) {
  for (DeviceType type : {DeviceType::GPU, DeviceType::CPU, DeviceType::Other})
    if (value == deviceTypeName(type)) {
      out = type;
      return nullptr;
    }
  return "\"gpu\", \"cpu\" or \"other\"";
}
static const char *fromJson(const json &value, std::array<uint64_t, 3> &out) {
  const char *expected = "an array of 3 non-negative integers";
  if (!value.is_array() || value.size() != 3)
    return expected;
  std::array<uint64_t, 3> sizes;
  for (size_t i = 0; i < 3; ++i)
    if (fromJson(value[i], sizes[i]))
      return expected;
  out = sizes;
  return nullptr;
}
static const char *fromJson(const json &value, std::optional<uint32_t> &out) {
  if (value.is_null()) {
    out.reset();
    return nullptr;
  }
  uint32_t size;
  if (fromJson(value, size))
    return "null or a non-negative integer below 2^32";
  out = size;
  return nullptr;
}

static const char *fromJson(const json &value, FloatWidths &out) {
  const char *expected = "an array of float widths (16, 32, 64)";
  if (!value.is_array())
    return expected;
  FloatWidths widths;
  for (const json &width : value) {
    uint64_t bits = width.is_number_unsigned() ? width.get<uint64_t>() : 0;
    if (bits == 16)
      widths.f16 = true;
    else if (bits == 32)
      widths.f32 = true;
    else if (bits == 64)
      widths.f64 = true;
    else
      return expected;
  }
  out = widths;
  return nullptr;
}

std::string tilec::profileToJson(const DeviceProfile &profile) {
  // An ordered_json keeps the keys in the order visitFields lists them.
  nlohmann::ordered_json object = nlohmann::ordered_json::object();
  visitFields(profile, [&](const char *key, const auto &field) {
    object[key] = toJson(field);
  });
  return object.dump(2) + "\n";
}

/// nlohmann's parse errors read "[json.exception.parse_error.101] parse
/// error at line 1, column 2: ..."; the bracketed id means nothing to users.
static std::string withoutExceptionId(const std::string &what) {
  size_t end = what.find("] ");
  return what.rfind("[json.exception", 0) == 0 && end != std::string::npos
             ? what.substr(end + 2)
             : what;
}

/// Applies the parsed profile `object`; `prefix` starts every message.
static Status applyProfileObject(DeviceProfile &profile, const json &object,
                                 const std::string &prefix) {
  if (!object.is_object())
    return Error(prefix + "a device profile must be a JSON object, not " +
                 object.dump());

  std::set<std::string> knownKeys;
  visitFields(profile,
              [&](const char *key, const auto &) { knownKeys.insert(key); });
  for (const auto &item : object.items())
    if (!knownKeys.count(item.key()))
      return Error(prefix + "unknown key '" + item.key() +
                   "' in a device profile");

  DeviceProfile updated = profile;
  std::optional<Error> failure;
  visitFields(updated, [&](const char *key, auto &field) {
    auto found = object.find(key);
    if (failure || found == object.end())
      return;
    if (const char *expected = fromJson(*found, field))
      failure = Error(prefix + "key '" + key + "': expected " + expected +
                      ", got " + found->dump());
  });
  if (failure)
    return *failure;
  profile = std::move(updated);
  return Status::success();
}

Status tilec::applyProfileOverrides(DeviceProfile &profile,
                                    std::string_view jsonText,
                                    std::string_view sourceName) {
  std::string prefix = std::string(sourceName) + ": ";
  // The runtime is built with exceptions, and nlohmann reports by throwing:
  // a syntax error (with its position), a number out of range, running out
  // of memory. A profile is external data, so every exception stops here.
  try {
    return applyProfileObject(profile, json::parse(jsonText), prefix);
  } catch (const std::exception &error) {
    return Error(prefix + withoutExceptionId(error.what()));
  } catch (...) {
    return Error(prefix + "not a valid device profile");
  }
}

Status tilec::applyProfileFile(DeviceProfile &profile,
                               const std::string &path) {
  std::string error;
  std::optional<std::string> text = readWholeFile(path, error);
  if (!text)
    return Error(error + " (the device profile file)");
  return applyProfileOverrides(profile, *text, path);
}

//===----------------------------------------------------------------------===//
// Summary for people
//===----------------------------------------------------------------------===//

/// "512 KiB", "7.6 GiB": the largest binary unit that keeps a leading digit.
static std::string formatBytes(uint64_t bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  if (value == static_cast<double>(static_cast<uint64_t>(value)))
    std::snprintf(text, sizeof(text), "%llu %s",
                  static_cast<unsigned long long>(value), units[unit]);
  else
    std::snprintf(text, sizeof(text), "%.1f %s", value, units[unit]);
  return text;
}

std::string tilec::formatProfileSummary(const DeviceProfile &profile,
                                        std::string_view indent) {
  const PreferredVectorWidths &widths = profile.preferredVectorWidth;
  std::ostringstream out;
  out << indent << "type " << deviceTypeName(profile.type) << ", "
      << profile.computeUnits << " compute units at " << profile.clockMHz
      << " MHz, driver " << profile.driverVersion << "\n";
  out << indent << "global memory " << formatBytes(profile.globalMemBytes)
      << ", max allocation " << formatBytes(profile.maxAllocBytes)
      << ", local memory " << formatBytes(profile.localMemBytes) << "\n";
  out << indent << "work-group up to " << profile.maxWorkGroupSize << " items ("
      << profile.maxWorkItemSizes[0] << " x " << profile.maxWorkItemSizes[1]
      << " x " << profile.maxWorkItemSizes[2] << ")"
      << (profile.maxWorkGroupSizeGuaranteed ? " for every kernel" : "")
      << ", subgroup size ";
  if (profile.subgroupSize)
    out << *profile.subgroupSize;
  else
    out << "not exposed";
  out << "\n";
  out << indent << "fp64 " << (profile.supportsFp64 ? "yes" : "no") << ", fp16 "
      << (profile.supportsFp16 ? "yes" : "no")
      << "; preferred vector widths: char " << widths.charWidth << ", short "
      << widths.shortWidth << ", int " << widths.intWidth << ", long "
      << widths.longWidth << ", float " << widths.floatWidth << ", double "
      << widths.doubleWidth << ", half " << widths.halfWidth << "\n";
  auto describeKept = [&](const char *what, const FloatWidths &widths) {
    out << indent << what << " kept for ";
    std::vector<unsigned> kept = listWidths(widths);
    if (kept.empty())
      out << "no float type";
    for (size_t i = 0; i < kept.size(); ++i)
      out << (i ? ", f" : "f") << kept[i];
    out << "\n";
  };
  describeKept("signed zeros, infinities and NaNs",
               profile.signedZeroInfNanPreserve);
  describeKept("subnormals", profile.denormPreserve);
  if (profile.maxLoopIterations != 0)
    out << indent << "loops stop after " << profile.maxLoopIterations
        << " passes per work-item\n";
  const std::array<uint64_t, 3> &groups = profile.maxWorkGroupCount;
  if (groups[0] || groups[1] || groups[2]) {
    auto count = [](uint64_t limit) {
      return limit ? std::to_string(limit) : std::string("unlimited");
    };
    out << indent << "work-groups per launch up to " << count(groups[0])
        << " x " << count(groups[1]) << " x " << count(groups[2]) << "\n";
  }
  return out.str();
}
