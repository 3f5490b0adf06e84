//===- Compare.cpp - Compare a result against the reference ---------------===//

#include "tilec/Runtime/Compare.h"

#include <cmath>
#include <cstdio>

namespace tilec {

static std::string shapeString(const HostTensor &tensor) {
  std::string text = std::string(dtypeName(tensor.dtype())) + "[";
  for (size_t i = 0; i < tensor.shape().size(); ++i)
    text += (i ? ", " : "") + std::to_string(tensor.shape()[i]);
  return text + "]";
}

double defaultTolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 1e-2;
  case DType::BF16:
    return 5e-2;
  case DType::F32:
    return 1e-5;
  case DType::F64:
    return 1e-12;
  default:
    return 0;
  }
}

Comparison compareTensors(const HostTensor &actual, const HostTensor &expected,
                          double tolerance) {
  Comparison result;
  if (actual.dtype() != expected.dtype() ||
      actual.shape() != expected.shape()) {
    result.summary = "differs: got " + shapeString(actual) + ", expected " +
                     shapeString(expected);
    return result;
  }
  auto noteMismatch = [&](int64_t i) {
    if (result.mismatches++ == 0)
      result.firstMismatch = i;
  };

  if (!isFloat(expected.dtype())) {
    for (int64_t i = 0; i < expected.numElements(); ++i)
      if (actual.getUInt(i) != expected.getUInt(i))
        noteMismatch(i);
  } else {
    double diff2 = 0, ref2 = 0;
    for (int64_t i = 0; i < expected.numElements(); ++i) {
      double a = actual.getDouble(i), e = expected.getDouble(i);
      if (!std::isfinite(e) || !std::isfinite(a)) {
        // Non-finite values must match exactly (NaN matches NaN).
        bool same = (std::isnan(a) && std::isnan(e)) || a == e;
        if (!same)
          noteMismatch(i);
        continue;
      }
      diff2 += (a - e) * (a - e);
      ref2 += e * e;
    }
    result.relativeError =
        ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  }
  result.agrees = result.mismatches == 0 && result.relativeError <= tolerance;

  char text[160];
  if (result.agrees)
    std::snprintf(text, sizeof(text), "agrees (relative error %.3g)",
                  result.relativeError);
  else if (result.mismatches)
    std::snprintf(text, sizeof(text),
                  "differs: %lld element%s, the first at flat index %lld",
                  static_cast<long long>(result.mismatches),
                  result.mismatches == 1 ? "" : "s",
                  static_cast<long long>(result.firstMismatch));
  else
    std::snprintf(text, sizeof(text),
                  "differs: relative error %.3g exceeds the tolerance %.3g",
                  result.relativeError, tolerance);
  result.summary = text;
  return result;
}

} // namespace tilec
