//===- NumpyFormat.cpp - Tensors printed the way NumPy prints them --------===//
//
// Follows numpy/core/arrayprint.py (NumPy 1.24, default options): the
// element formatters (FloatingFormat with floatmode 'maxprec', IntegerFormat,
// BoolFormat) are built from the elements shown, and _formatArray lays
// them out.
//
//===----------------------------------------------------------------------===//

#include "NumpyFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

using namespace tilec;

namespace {

/// NumPy's defaults: np.get_printoptions().
constexpr int kLineWidth = 75;
constexpr int kPrecision = 8;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

/// A finite float in decimal: sign, digits d1 d2 ... dn (no trailing zeros
/// unless the value is 0) and the exponent of d1, so that the value is
/// d1.d2...dn * 10^exponent.
struct Decimal {
  bool negative = false;
  std::string digits;
  int exponent = 0;
};

} // namespace

/// Whether `text` reads back as `value` in `dtype`.
static bool readsBackAs(const char *text, double value, DType dtype) {
  switch (dtype) {
  case DType::F32:
    return std::strtof(text, nullptr) == static_cast<float>(value);
  case DType::F16:
    return doubleToHalf(std::strtod(text, nullptr)) == doubleToHalf(value);
  case DType::BF16:
    return doubleToBFloat16(std::strtod(text, nullptr)) ==
           doubleToBFloat16(value);
  default:
    return std::strtod(text, nullptr) == value;
  }
}

/// Parses printf's "%.Ne" form.
static Decimal parseScientific(const char *text) {
  Decimal decimal;
  const char *p = text;
  if (*p == '-') {
    decimal.negative = true;
    ++p;
  }
  for (; *p && *p != 'e'; ++p)
    if (*p != '.')
      decimal.digits += *p;
  decimal.exponent = *p == 'e' ? std::atoi(p + 1) : 0;
  while (decimal.digits.size() > 1 && decimal.digits.back() == '0')
    decimal.digits.pop_back();
  return decimal;
}

/// The fewest significant digits that read back as `value` of `dtype`
/// (what NumPy's Dragon4 prints in its 'unique' mode), at most
/// 1 + maxFractionDigits when given: then `value` rounded to that.
static Decimal shortestScientific(double value, DType dtype,
                                  int maxFractionDigits = 16) {
  char text[64];
  for (int precision = 0;; ++precision) {
    std::snprintf(text, sizeof text, "%.*e", precision, value);
    if (precision >= maxFractionDigits || precision >= 16 ||
        readsBackAs(text, value, dtype))
      break;
  }
  return parseScientific(text);
}

/// Removes the zeros that end the fraction of "12.3400", keeping the point.
static std::string trimFractionZeros(std::string text) {
  while (!text.empty() && text.back() == '0')
    text.pop_back();
  return text;
}

/// The value in positional notation with the fraction digits that make it
/// unique among the dtype's values, at most `maxFractionDigits` (rounded to
/// them if it needs more), "12.5", "-3." or "0.00012": NumPy's
/// dragon4_positional with unique=True and trim='.'. The digits are the
/// value's own, past the unique ones too (99999992 as a float, not
/// 99999990).
static std::string formatPositional(double value, DType dtype,
                                    int maxFractionDigits = kPrecision) {
  Decimal decimal = shortestScientific(value, dtype);
  int fractionDigits =
      std::min(maxFractionDigits,
               std::max<int>(0, static_cast<int>(decimal.digits.size()) - 1 -
                                    decimal.exponent));
  char text[512];
  std::snprintf(text, sizeof text, "%.*f", fractionDigits, value);
  std::string result = text;
  return fractionDigits == 0 ? result + "." : trimFractionZeros(result);
}

namespace {

/// NumPy's FloatingFormat: every element in the same notation and width.
class FloatFormat {
public:
  FloatFormat(const std::vector<double> &shown, DType dtype) : dtype(dtype) {
    std::vector<double> finite;
    bool anyNonFinite = false, negativeInfinity = false;
    for (double value : shown) {
      if (std::isfinite(value)) {
        finite.push_back(value);
        continue;
      }
      anyNonFinite = true;
      negativeInfinity |= std::isinf(value) && value < 0;
    }
    double maxAbs = 0, minAbs = 0;
    bool anyNonZero = false;
    for (double value : finite) {
      if (value == 0)
        continue;
      double magnitude = std::fabs(value);
      maxAbs = anyNonZero ? std::max(maxAbs, magnitude) : magnitude;
      minAbs = anyNonZero ? std::min(minAbs, magnitude) : magnitude;
      anyNonZero = true;
    }
    scientific = anyNonZero &&
                 (maxAbs >= 1e8 || minAbs < 0.0001 || maxAbs / minAbs > 1000.0);

    if (scientific) {
      for (double value : finite) {
        Decimal decimal = shortestScientific(value, dtype, kPrecision);
        padLeft = std::max<int>(padLeft, decimal.negative ? 2 : 1);
        precision = std::max<int>(precision,
                                  static_cast<int>(decimal.digits.size()) - 1);
        int exponentDigits =
            static_cast<int>(std::to_string(std::abs(decimal.exponent)).size());
        exponentSize = std::max(exponentSize, std::max(2, exponentDigits));
      }
      padRight = exponentSize + 2 + precision;
    } else {
      for (double value : finite) {
        std::string text = formatPositional(value, dtype);
        size_t point = text.find('.');
        padLeft = std::max<int>(padLeft, static_cast<int>(point));
        padRight =
            std::max<int>(padRight, static_cast<int>(text.size() - point - 1));
      }
    }
    if (anyNonFinite) {
      int offset = padRight + 1;
      padLeft = std::max(
          {padLeft, 3 - offset, 3 + (negativeInfinity ? 1 : 0) - offset});
    }
  }

  std::string operator()(double value) const {
    if (!std::isfinite(value)) {
      std::string text =
          std::isnan(value) ? "nan" : (value < 0 ? "-inf" : "inf");
      return pad(text, padLeft + padRight + 1);
    }
    if (scientific) {
      // All with the same fraction digits, the value's own (NumPy's
      // min_digits), not zeros after the unique ones.
      char text[64];
      std::snprintf(text, sizeof text, "%.*e", precision, value);
      Decimal decimal = parseScientific(text);
      decimal.digits.resize(precision + 1, '0');
      std::string mantissa = (decimal.negative ? "-" : "") +
                             decimal.digits.substr(0, 1) + "." +
                             decimal.digits.substr(1);
      std::string exponent = std::to_string(std::abs(decimal.exponent));
      exponent.insert(0, exponentSize - exponent.size(), '0');
      size_t point = mantissa.find('.');
      return std::string(padLeft - point, ' ') + mantissa + "e" +
             (decimal.exponent < 0 ? "-" : "+") + exponent;
    }
    std::string text = formatPositional(value, dtype);
    size_t point = text.find('.');
    size_t fraction = text.size() - point - 1;
    return std::string(padLeft - point, ' ') + text +
           std::string(padRight - fraction, ' ');
  }

private:
  static std::string pad(const std::string &text, int width) {
    return std::string(std::max<int>(0, width - text.size()), ' ') + text;
  }

  DType dtype;
  bool scientific = false;
  int padLeft = 0, padRight = 0;
  /// Scientific notation: the fraction digits and the exponent's digits.
  int precision = 0, exponentSize = 0;
};

/// The tensor's elements as print(array) lays them out: _formatArray.
class ArrayLayout {
public:
  ArrayLayout(const Shape &shape,
              std::function<std::string(int64_t)> formatElement)
      : shape(shape), strides(shape.size(), 1),
        formatElement(std::move(formatElement)) {
    for (size_t axis = shape.size(); axis-- > 1;)
      strides[axis - 1] = strides[axis] * shape[axis];
    int64_t count = 1;
    for (int64_t extent : shape)
      count *= extent;
    summarize = count > kThreshold;
  }

  /// The flat indexes of the elements shown, in order.
  std::vector<int64_t> shownElements() const {
    std::vector<int64_t> indexes;
    collect(0, 0, indexes);
    return indexes;
  }

  std::string format() const { return recurse(0, 0, " ", kLineWidth); }

private:
  /// The positions along an axis of extent `extent` that are shown: all, or
  /// the first and last kEdgeItems when the tensor is summarised.
  bool summarizes(int64_t extent) const {
    return summarize && 2 * kEdgeItems < extent;
  }

  void collect(size_t axis, int64_t offset,
               std::vector<int64_t> &indexes) const {
    if (axis == shape.size()) {
      indexes.push_back(offset);
      return;
    }
    for (int64_t i = 0; i < shape[axis]; ++i) {
      if (summarizes(shape[axis]) && i == kEdgeItems)
        i = shape[axis] - kEdgeItems;
      collect(axis + 1, offset + i * strides[axis], indexes);
    }
  }

  /// _extendLine: appends `word` to `line`, first moving `line` to `text`
  /// when it would pass `width` (unless a new line would not help).
  static void extendLine(std::string &text, std::string &line,
                         const std::string &word, int width,
                         const std::string &nextLinePrefix) {
    bool wrap = static_cast<int>(line.size() + word.size()) > width &&
                line.size() > nextLinePrefix.size();
    if (wrap) {
      size_t end = line.find_last_not_of(' ');
      text += line.substr(0, end == std::string::npos ? 0 : end + 1) + "\n";
      line = nextLinePrefix;
    }
    line += word;
  }

  std::string recurse(size_t axis, int64_t offset, const std::string &indent,
                      int width) const {
    if (axis == shape.size())
      return formatElement(offset);
    std::string nextIndent = indent + " ";
    int nextWidth = width - 1;
    int64_t extent = shape[axis];
    bool summary = summarizes(extent);
    int64_t leading = summary ? kEdgeItems : 0;
    int64_t trailing = summary ? kEdgeItems : extent;
    auto nested = [&](int64_t i) {
      return recurse(axis + 1, offset + i * strides[axis], nextIndent,
                     nextWidth);
    };

    std::string text;
    if (axis + 1 == shape.size()) {
      int elementWidth = width - 1; // Room for the closing bracket.
      std::string line = indent;
      for (int64_t i = 0; i < leading; ++i) {
        extendLine(text, line, nested(i), elementWidth, indent);
        line += " ";
      }
      if (summary) {
        extendLine(text, line, "...", elementWidth, indent);
        line += " ";
      }
      for (int64_t i = trailing; i > 1; --i) {
        extendLine(text, line, nested(extent - i), elementWidth, indent);
        line += " ";
      }
      extendLine(text, line, nested(extent - 1), elementWidth, indent);
      text += line;
    } else {
      std::string separator(shape.size() - axis - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        text += indent + nested(i) + separator;
      if (summary)
        text += indent + "..." + separator;
      for (int64_t i = trailing; i > 1; --i)
        text += indent + nested(extent - i) + separator;
      text += indent + nested(extent - 1);
    }
    return "[" + text.substr(indent.size()) + "]";
  }

  Shape shape;
  std::vector<int64_t> strides;
  std::function<std::string(int64_t)> formatElement;
  bool summarize = false;
};

} // namespace

/// A 0-d tensor: NumPy prints the scalar, as Python's repr would a float
/// ("1.0", "1e-05") but in the dtype's shortest digits.
static std::string formatScalar(const HostTensor &tensor) {
  DType dtype = tensor.dtype();
  if (dtype == DType::Bool)
    return tensor.getInt(0) ? "True" : "False";
  if (isSignedInt(dtype))
    return std::to_string(tensor.getInt(0));
  if (isUnsignedInt(dtype))
    return std::to_string(tensor.getUInt(0));
  double value = tensor.getDouble(0);
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  double magnitude = std::fabs(value);
  Decimal decimal = shortestScientific(value, dtype);
  if (value == 0 || (magnitude >= 1e-4 && magnitude < 1e16)) {
    // The unique digits alone, zeros after them: 123456790.0 for the float
    // 123456792.
    std::string integer = "0", fraction;
    if (decimal.exponent >= 0) {
      size_t integerDigits = decimal.exponent + 1;
      std::string digits = decimal.digits;
      if (digits.size() < integerDigits)
        digits.append(integerDigits - digits.size(), '0');
      integer = digits.substr(0, integerDigits);
      fraction = digits.substr(integerDigits);
    } else {
      fraction = std::string(-decimal.exponent - 1, '0') + decimal.digits;
    }
    return (decimal.negative ? "-" : "") + integer + "." +
           (fraction.empty() ? "0" : fraction);
  }
  std::string text =
      (decimal.negative ? "-" : "") + decimal.digits.substr(0, 1);
  if (decimal.digits.size() > 1)
    text += "." + decimal.digits.substr(1);
  std::string exponent = std::to_string(std::abs(decimal.exponent));
  if (exponent.size() < 2)
    exponent.insert(0, "0");
  return text + "e" + (decimal.exponent < 0 ? "-" : "+") + exponent;
}

std::string tilec::formatLikeNumpy(const HostTensor &tensor) {
  if (tensor.rank() == 0)
    return formatScalar(tensor);
  if (tensor.numElements() == 0)
    return "[]";
  DType dtype = tensor.dtype();
  ArrayLayout probe(tensor.shape(), nullptr);
  std::vector<int64_t> shown = probe.shownElements();

  std::function<std::string(int64_t)> formatElement;
  if (dtype == DType::Bool) {
    formatElement = [&](int64_t i) {
      return std::string(tensor.getInt(i) ? " True" : "False");
    };
  } else if (isInteger(dtype)) {
    auto text = [&tensor, dtype](int64_t i) {
      return isSignedInt(dtype) ? std::to_string(tensor.getInt(i))
                                : std::to_string(tensor.getUInt(i));
    };
    size_t width = 0;
    for (int64_t i : shown)
      width = std::max(width, text(i).size());
    formatElement = [text, width](int64_t i) {
      std::string value = text(i);
      return std::string(width - value.size(), ' ') + value;
    };
  } else {
    std::vector<double> values;
    for (int64_t i : shown)
      values.push_back(tensor.getDouble(i));
    FloatFormat format(values, dtype);
    formatElement = [&tensor, format](int64_t i) {
      return format(tensor.getDouble(i));
    };
  }
  return ArrayLayout(tensor.shape(), formatElement).format();
}
