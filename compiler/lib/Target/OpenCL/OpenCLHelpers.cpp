//===- OpenCLHelpers.cpp - Functions a printed program may need -----------===//
//
// Rounding to the 16-bit float formats (from float, and to odd from wider
// types so that a conversion rounds once) and IEEE 754-2019
// maximum/minimum, which OpenCL C 1.2 has no builtin for. Each is defined once
// per program, only when a kernel uses it.
//
//===----------------------------------------------------------------------===//

#include "OpenCLEmitter.h"

namespace tilec::opencl_c {

const char *helperName(Helper helper) {
  switch (helper) {
  case Helper::RoundToHalf:
    return "tilec_round_to_half";
  case Helper::FloatToBF16:
    return "tilec_float_to_bf16";
  case Helper::RoundToBF16:
    return "tilec_round_to_bf16";
  case Helper::MaximumF32:
    return "tilec_maximum_f32";
  case Helper::MinimumF32:
    return "tilec_minimum_f32";
  case Helper::MaximumF64:
    return "tilec_maximum_f64";
  case Helper::MinimumF64:
    return "tilec_minimum_f64";
  case Helper::OddFloatFromDouble:
    return "tilec_odd_float_from_double";
  case Helper::OddFloatFromInt:
    return "tilec_odd_float_from_int";
  case Helper::OddFloatFromUInt:
    return "tilec_odd_float_from_uint";
  case Helper::OddFloatFromLong:
    return "tilec_odd_float_from_long";
  case Helper::OddFloatFromULong:
    return "tilec_odd_float_from_ulong";
  }
  return "";
}

namespace {

/// maximum/minimum of `type`: NaN if either operand is NaN, and -0 below +0
/// (OpenCL's fmax/fmin leave both unspecified).
void printMinMax(llvm::raw_ostream &os, Helper helper, const char *type,
                 bool isMaximum) {
  os << "// IEEE 754 " << (isMaximum ? "maximum" : "minimum")
     << ": NaN if either operand is, and -0 < +0.\n"
     << type << " " << helperName(helper) << "(" << type << " a, " << type
     << " b) {\n"
     << "  if (isnan(a) || isnan(b))\n"
     << "    return a + b;\n"
     << "  if (a == b)\n"
     << "    return signbit(a) ? " << (isMaximum ? "b : a" : "a : b") << ";\n"
     << "  return a " << (isMaximum ? ">" : "<") << " b ? a : b;\n"
     << "}\n\n";
}

/// x rounded to float by round-to-odd: toward zero, then the lowest bit
/// set when that was inexact. Rounding the result to nearest even in a
/// format with at least two bits fewer (f16, bf16) gives the correctly
/// rounded value of x, so a conversion rounds once. `exact` is the type in
/// which the float and x compare exactly.
void printOddFloat(llvm::raw_ostream &os, Helper helper, const char *type,
                   const char *exact) {
  os << "// x rounded to float to odd: toward zero, the lowest bit set when\n"
     << "// inexact (a later rounding to f16 or bf16 is then correct).\n"
     << "float " << helperName(helper) << "(" << type << " x) {\n"
     << "  float f = convert_float_rtz(x);\n"
     << "  return (" << exact << ")f == (" << exact
     << ")x ? f : as_float(as_uint(f) | 1u);\n"
     << "}\n\n";
}

} // namespace

void printHelper(Helper helper, llvm::raw_ostream &os) {
  switch (helper) {
  case Helper::RoundToHalf:
    // Without cl_khr_fp16 a half can only be stored and loaded: round
    // through a private 16-bit slot.
    os << "// x rounded to f16 (to nearest even), as a float.\n"
       << "float tilec_round_to_half(float x) {\n"
       << "  ushort bits;\n"
       << "  vstore_half_rte(x, 0, (__private half *)&bits);\n"
       << "  return vload_half(0, (__private const half *)&bits);\n"
       << "}\n\n";
    return;
  case Helper::FloatToBF16:
    os << "// The bf16 nearest to x (ties to even); a NaN stays a quiet NaN.\n"
       << "ushort tilec_float_to_bf16(float x) {\n"
       << "  uint bits = as_uint(x);\n"
       << "  if ((bits & 0x7fffffffu) > 0x7f800000u)\n"
       << "    return (ushort)((bits >> 16) | 0x40u);\n"
       << "  bits += 0x7fffu + ((bits >> 16) & 1u);\n"
       << "  return (ushort)(bits >> 16);\n"
       << "}\n\n";
    return;
  case Helper::RoundToBF16:
    os << "// x rounded to bf16 (to nearest even), as a float.\n"
       << "float tilec_round_to_bf16(float x) {\n"
       << "  return as_float((uint)tilec_float_to_bf16(x) << 16);\n"
       << "}\n\n";
    return;
  case Helper::MaximumF32:
    return printMinMax(os, helper, "float", /*isMaximum=*/true);
  case Helper::MinimumF32:
    return printMinMax(os, helper, "float", /*isMaximum=*/false);
  case Helper::MaximumF64:
    return printMinMax(os, helper, "double", /*isMaximum=*/true);
  case Helper::MinimumF64:
    return printMinMax(os, helper, "double", /*isMaximum=*/false);
  case Helper::OddFloatFromDouble:
    // A NaN compares unequal and stays a NaN with its lowest bit set.
    return printOddFloat(os, helper, "double", "double");
  case Helper::OddFloatFromInt:
    return printOddFloat(os, helper, "int", "long");
  case Helper::OddFloatFromUInt:
    return printOddFloat(os, helper, "uint", "ulong");
  // Toward zero, the float never exceeds x's magnitude: it converts back.
  case Helper::OddFloatFromLong:
    return printOddFloat(os, helper, "long", "long");
  case Helper::OddFloatFromULong:
    return printOddFloat(os, helper, "ulong", "ulong");
  }
}

} // namespace tilec::opencl_c
