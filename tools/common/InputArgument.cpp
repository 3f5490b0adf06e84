//===- InputArgument.cpp - An input's data given on the command line ------===//

#include "InputArgument.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <vector>

using namespace tilec;

/// "2x3xf32", the way the argument spells a tensor type.
static std::string spellTensorType(DType dtype, const Shape &shape) {
  std::string text;
  for (int64_t extent : shape)
    text += std::to_string(extent) + "x";
  return text + dtypeName(dtype);
}

bool tilec::parseTensorType(std::string_view text, DType &dtype, Shape &shape,
                            std::string &error) {
  shape.clear();
  size_t start = 0;
  for (size_t x = text.find('x'); x != std::string_view::npos;
       start = x + 1, x = text.find('x', start)) {
    std::string extent(text.substr(start, x - start));
    char *end = nullptr;
    errno = 0;
    long long value = std::strtoll(extent.c_str(), &end, 10);
    if (extent.empty() || *end != '\0' || errno == ERANGE || value < 0 ||
        extent[0] == '+' || extent[0] == '-') {
      error = "'" + std::string(text) + "': '" + extent +
              "' is not a dimension (a non-negative integer)";
      return false;
    }
    shape.push_back(value);
  }
  std::string_view name = text.substr(start);
  std::optional<DType> parsed = parseDType(name);
  if (!parsed) {
    error = "'" + std::string(text) + "': unknown dtype '" + std::string(name) +
            "' (the dtypes: bool, i8, i16, i32, i64, u8, u16, u32, u64, f16, "
            "bf16, f32, f64)";
    return false;
  }
  if (!numElements(shape)) {
    error = "'" + std::string(text) + "': the element count overflows";
    return false;
  }
  dtype = *parsed;
  return true;
}

/// The values of `text`: tokens separated by commas, white space or
/// brackets.
static std::vector<std::string> splitValues(std::string_view text) {
  std::vector<std::string> values;
  std::string current;
  for (char c : text) {
    if (c == ',' || c == '[' || c == ']' || std::isspace((unsigned char)c)) {
      if (!current.empty())
        values.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty())
    values.push_back(std::move(current));
  return values;
}

/// Stores `value`, spelt as the dtype reads it, at element `index`; returns
/// false and sets `error` when it is not a value of the dtype.
static bool storeValue(HostTensor &tensor, int64_t index,
                       const std::string &value, std::string &error) {
  DType dtype = tensor.dtype();
  const char *text = value.c_str();
  char *end = nullptr;
  errno = 0;
  if (dtype == DType::Bool) {
    if (value == "1" || value == "true" || value == "True")
      tensor.setInt(index, 1);
    else if (value == "0" || value == "false" || value == "False")
      tensor.setInt(index, 0);
    else {
      error = "'" + value + "' is not a bool (true, false, 1 or 0)";
      return false;
    }
    return true;
  }
  if (isFloat(dtype)) {
    // f32 from the decimal directly: through double it could round twice.
    if (dtype == DType::F32) {
      float parsed = std::strtof(text, &end);
      if (*end == '\0' && end != text)
        tensor.setDouble(index, parsed);
    } else {
      double parsed = std::strtod(text, &end);
      if (*end == '\0' && end != text)
        tensor.setDouble(index, parsed);
    }
    if (*end != '\0' || end == text) {
      error = "'" + value + "' is not a number";
      return false;
    }
    return true;
  }
  unsigned bits = dtypeBits(dtype);
  if (isSignedInt(dtype)) {
    long long parsed = std::strtoll(text, &end, 10);
    long long max = bits == 64 ? std::numeric_limits<long long>::max()
                               : (1LL << (bits - 1)) - 1;
    long long min = -max - 1;
    if (*end != '\0' || end == text) {
      error = "'" + value + "' is not an integer";
      return false;
    }
    if (errno == ERANGE || parsed < min || parsed > max) {
      error = "'" + value + "' is out of the range of " + dtypeName(dtype) +
              " [" + std::to_string(min) + ", " + std::to_string(max) + "]";
      return false;
    }
    tensor.setInt(index, parsed);
    return true;
  }
  unsigned long long max = bits == 64
                               ? std::numeric_limits<unsigned long long>::max()
                               : (1ULL << bits) - 1;
  unsigned long long parsed = std::strtoull(text, &end, 10);
  if (*end != '\0' || end == text) {
    error = "'" + value + "' is not an integer";
    return false;
  }
  if (value[0] == '-' || errno == ERANGE || parsed > max) {
    error = "'" + value + "' is out of the range of " + dtypeName(dtype) +
            " [0, " + std::to_string(max) + "]";
    return false;
  }
  tensor.setUInt(index, parsed);
  return true;
}

static const char *const kInputForms =
    "NAME=SHAPExDTYPE=VALUES (2x3xf32=1,2,3,4,5,6), NAME=DTYPE=VALUE "
    "(f32=0.5) or NAME=@FILE.npy";

Expected<InputArgument> tilec::parseInputArgument(std::string_view text) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 ||
      equals + 1 == text.size())
    return Error("invalid --input '" + std::string(text) + "': expected " +
                 kInputForms);
  InputArgument input;
  input.name = std::string(text.substr(0, equals));
  std::string_view rest = text.substr(equals + 1);
  if (rest[0] == '@') {
    if (rest.size() == 1)
      return Error(input.name + ": no file after '@'");
    input.npyPath = std::string(rest.substr(1));
    return input;
  }

  size_t valuesStart = rest.find('=');
  std::string_view type = rest.substr(0, valuesStart);
  DType dtype;
  Shape shape;
  std::string error;
  if (!parseTensorType(type, dtype, shape, error))
    return Error(input.name + ": " + error + " (expected " + kInputForms + ")");
  std::string typeText = spellTensorType(dtype, shape);
  if (valuesStart == std::string_view::npos)
    return Error(input.name + ": no values after '" + std::string(type) +
                 "': give them as " + typeText +
                 "=V,V,... (one value fills the tensor), or the data's file "
                 "as " +
                 input.name + "=@FILE.npy");

  std::vector<std::string> values = splitValues(rest.substr(valuesStart + 1));
  int64_t count = *numElements(shape);
  if (static_cast<int64_t>(values.size()) != count &&
      !(values.size() == 1 && count > 0)) {
    return Error(input.name + ": " + typeText + " needs " +
                 std::to_string(count) + (count == 1 ? " value" : " values") +
                 ", got " + std::to_string(values.size()) +
                 (count > 1 ? " (or one, to fill the tensor)" : ""));
  }
  // A splat of one value may stand for more elements than the host holds.
  Expected<HostTensor> allocated = HostTensor::allocate(dtype, shape);
  if (!allocated)
    return Error(input.name + ": " + allocated.error().message());
  HostTensor &tensor = *allocated;
  bool splat = values.size() == 1;
  for (int64_t i = 0; i < count; ++i) {
    // A splat parses its value once, and copies the element's bytes.
    if (splat && i > 0) {
      size_t size = dtypeSize(dtype);
      std::copy(tensor.data(), tensor.data() + size, tensor.data() + i * size);
      continue;
    }
    if (!storeValue(tensor, i, values[splat ? 0 : i], error))
      return Error(input.name + ": value " + std::to_string(i) + " of " +
                   typeText + ": " + error);
  }
  input.tensor = std::move(tensor);
  return input;
}

Expected<InputArgument> tilec::parseInputFileArgument(std::string_view text) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 ||
      equals + 1 == text.size())
    return Error("invalid --in '" + std::string(text) +
                 "' (expected NAME=FILE.npy)");
  InputArgument input;
  input.name = std::string(text.substr(0, equals));
  input.npyPath = std::string(text.substr(equals + 1));
  return input;
}
