//===- ParameterNames.cpp - Kernel parameters named after tensors ---------===//
//
// Makes each kernel argument's `tile.name` an identifier that OpenCL C, MSL
// (C++) and SPIRV-Cross all keep as it is, so that every target spells a
// parameter the same way (docs/codegen.md, "Parameter names").
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/ParameterNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tilec {

/// Words that OpenCL C or MSL reserve, as keywords, types, address spaces,
/// macros of their headers or SPIRV-Cross's helpers; the printers' own
/// locals come from reservesPattern.
static bool isReservedWord(StringRef name) {
  static const llvm::StringSet<> words = {
      // C, C++ and their types (MSL is C++14).
      "auto", "bool", "break", "case", "catch", "char", "class", "const",
      "constexpr", "continue", "default", "delete", "do", "double", "else",
      "enum", "explicit", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "operator",
      "private", "protected", "public", "register", "restrict", "return",
      "short", "signed", "sizeof", "static", "struct", "switch", "template",
      "this", "throw", "true", "try", "typedef", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while", "main",
      "NULL",
      // OpenCL C and MSL qualifiers, types and constants.
      "kernel", "global", "local", "constant", "device", "threadgroup",
      "thread", "metal", "vertex", "fragment", "half", "uchar", "ushort",
      "uint", "ulong", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t",
      "read_only", "write_only", "read_write", "uniform", "pipe", "complex",
      "imaginary", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF", "HUGE_VALH",
      "MAXFLOAT", "MAXHALF", "CHAR_BIT"};
  return words.contains(name);
}

/// Whether `name` is a word the printers or their headers may use: a
/// printer's local (`v3`, `r0`, `i1`, `local0`), a helper (`tilec_`,
/// SPIRV-Cross's `spv`, GLSL's `gl_`) or a macro family of the OpenCL C
/// and MSL headers (`M_PI`, `FLT_MAX`, `CLK_LOCAL_MEM_FENCE`, ...).
static bool reservesPattern(StringRef name) {
  for (StringRef local : {"v", "r", "i", "local"}) {
    StringRef rest = name;
    if (rest.consume_front(local) && !rest.empty() &&
        llvm::all_of(rest, llvm::isDigit))
      return true;
  }
  for (StringRef prefix :
       {"tilec_", "spv",   "gl_",   "M_",     "FLT_",   "DBL_",  "HALF_",
        "CLK_",   "CL_",   "CHAR_", "SCHAR_", "UCHAR_", "SHRT_", "USHRT_",
        "INT_",   "UINT_", "LONG_", "ULONG_", "FP_",    "METAL_"})
    if (name.starts_with(prefix))
      return true;
  return false;
}

/// `text` with each run of underscores made one: C++ reserves names with a
/// double underscore, and SPIRV-Cross rewrites them.
static std::string withoutDoubleUnderscores(StringRef text) {
  std::string result;
  for (char c : text)
    if (c != '_' || result.empty() || result.back() != '_')
      result.push_back(c);
  return result;
}

/// `name` as an identifier: `'` spelled `_prime`, any other character an
/// identifier cannot hold spelled `_`, no leading or double underscore
/// (reserved in C and C++), `arg<N>` where nothing is left.
static std::string makeIdentifier(StringRef name, unsigned position) {
  std::string text;
  for (char c : name) {
    if (c == '\'')
      text += "_prime";
    else
      text.push_back(llvm::isAlnum(c) ? c : '_');
  }
  std::string identifier =
      StringRef(withoutDoubleUnderscores(text)).ltrim('_').str();
  if (identifier.empty() || llvm::isDigit(identifier.front()))
    identifier = "arg" + std::to_string(position);
  return identifier;
}

std::vector<std::string> getParameterNames(gpu::GPUFuncOp kernel) {
  unsigned count = kernel.getNumArguments();
  std::vector<std::string> names(count);
  // The parameters whose name is already an identifier keep it; the
  // others give way on a collision, in order.
  SmallVector<unsigned> order, renamed;
  for (unsigned position = 0; position < count; ++position) {
    auto name =
        kernel.getArgAttrOfType<StringAttr>(position, kParameterNameAttr);
    StringRef text = name ? name.getValue() : StringRef();
    names[position] = makeIdentifier(text, position);
    if (isReservedWord(names[position]) || reservesPattern(names[position]))
      names[position] += "_";
    (names[position] == text ? order : renamed).push_back(position);
  }
  order.append(renamed);
  llvm::StringSet<> taken = {kernel.getName()};
  for (unsigned position : order) {
    std::string name = names[position];
    for (unsigned suffix = 2; !taken.insert(name).second; ++suffix)
      name = withoutDoubleUnderscores(names[position] + "_" +
                                      std::to_string(suffix));
    names[position] = name;
  }
  return names;
}

} // namespace tilec
