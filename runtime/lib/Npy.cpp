//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// The format (numpy.lib.format): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (little-endian u16 in 1.0, u32 in 2.0 and
// 3.0), then the header, a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ending in '\n', then the raw elements in C order.
// Everything read from the file is checked before it is trusted.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Npy.h"

#include "FileIO.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>

using namespace tilec;

static constexpr char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicSize = sizeof(kMagic) - 1;
/// NumPy aligns the start of the data to this many bytes.
static constexpr size_t kHeaderAlignment = 64;

/// The descr serializeNpy writes for `type`.
static const char *npyDescr(DType type) {
  switch (type) {
  case DType::Bool:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::F16:
    return "<f2";
  case DType::BF16:
    return "|V2";
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  }
  return "?";
}

/// `shape` as Python writes a tuple: (), (3,), (2, 3).
static std::string formatShape(const Shape &shape) {
  std::string text = "(";
  for (size_t dim = 0; dim < shape.size(); ++dim)
    text += (dim ? ", " : "") + std::to_string(shape[dim]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

/// Maps a descr to a dtype, or sets `problem`. The byte-order mark must be
/// '<' or '=' (native, which is little-endian on every supported host), or
/// one that cannot matter: any mark for one-byte types, '|' for bf16's raw
/// two bytes.
static std::optional<DType> dtypeFromDescr(const std::string &descr,
                                           std::string &problem) {
  std::string_view kind = descr;
  char order = kind.empty() ? '\0' : kind.front();
  if (order == '<' || order == '>' || order == '|' || order == '=')
    kind.remove_prefix(1);
  else
    order = '\0';
  if (!kind.empty() && kind.front() == 'O') {
    problem = "object arrays are not supported";
    return std::nullopt;
  }
  std::optional<DType> type;
  for (DType candidate : kAllDTypes)
    if (kind == std::string_view(npyDescr(candidate)).substr(1))
      type = candidate;
  if (!type || order == '\0') {
    problem = "unsupported dtype descr '" + descr + "'";
    return std::nullopt;
  }
  if (dtypeSize(*type) == 1 || order == '<' || order == '=' ||
      (order == '|' && type == DType::BF16))
    return type;
  problem = order == '>' ? "big-endian data ('" + descr + "') is not supported"
                         : "byte order '|' of descr '" + descr +
                               "' is ambiguous for a multi-byte type";
  return std::nullopt;
}

namespace {

/// The fields of an .npy header.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  Shape shape;
};

/// Parses the header's dict literal: exactly the keys 'descr' (a string),
/// 'fortran_order' (True or False) and 'shape' (a tuple of non-negative
/// integers), in any order, with Python's freedom in spacing, quotes and
/// trailing commas.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  /// Returns false and sets `error` on malformed input.
  bool parse(NpyHeader &header, std::string &error);

private:
  bool parseDict(NpyHeader &header);
  /// Records `problem` at the current offset; returns false.
  bool fail(const std::string &problem);
  void skipSpace();
  bool consume(char c);
  bool expect(char c);
  bool parseString(std::string &value);
  bool parseBool(bool &value);
  bool parseExtent(int64_t &value);
  bool parseShape(Shape &shape);

  std::string_view text;
  size_t pos = 0;
  std::string message;
};

} // namespace

bool HeaderParser::fail(const std::string &problem) {
  message = "malformed header: " + problem + " at offset " +
            std::to_string(pos) + " of the header";
  return false;
}

void HeaderParser::skipSpace() {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                               text[pos] == '\n' || text[pos] == '\r'))
    ++pos;
}

bool HeaderParser::consume(char c) {
  skipSpace();
  if (pos == text.size() || text[pos] != c)
    return false;
  ++pos;
  return true;
}

bool HeaderParser::expect(char c) {
  return consume(c) || fail(std::string("expected '") + c + "'");
}

bool HeaderParser::parseString(std::string &value) {
  skipSpace();
  if (pos == text.size() || (text[pos] != '\'' && text[pos] != '"'))
    return fail("expected a string");
  char quote = text[pos];
  size_t end = text.find(quote, pos + 1);
  if (end == std::string_view::npos)
    return fail("unterminated string");
  value = std::string(text.substr(pos + 1, end - pos - 1));
  pos = end + 1;
  return true;
}

bool HeaderParser::parseBool(bool &value) {
  skipSpace();
  for (bool candidate : {false, true}) {
    std::string_view word = candidate ? "True" : "False";
    if (text.substr(pos, word.size()) == word) {
      pos += word.size();
      value = candidate;
      return true;
    }
  }
  return fail("expected True or False");
}

bool HeaderParser::parseExtent(int64_t &value) {
  skipSpace();
  if (pos < text.size() && text[pos] == '-')
    return fail("negative extent in 'shape'");
  if (pos == text.size() || text[pos] < '0' || text[pos] > '9')
    return fail("expected an integer");
  value = 0;
  for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
    int digit = text[pos] - '0';
    if (value > (INT64_MAX - digit) / 10)
      return fail("extent in 'shape' overflows int64");
    value = value * 10 + digit;
  }
  return true;
}

bool HeaderParser::parseShape(Shape &shape) {
  if (!expect('('))
    return false;
  bool sawComma = false;
  while (!consume(')')) {
    int64_t extent;
    if (!parseExtent(extent))
      return false;
    shape.push_back(extent);
    if (consume(','))
      sawComma = true;
    else if (!consume(')'))
      return fail("expected ',' or ')' in 'shape'");
    else
      break;
  }
  // In Python, (3) is the integer 3, which NumPy refuses as a shape.
  if (shape.size() == 1 && !sawComma)
    return fail("'shape' is not a tuple (a 1-d shape is written (3,))");
  return true;
}

bool HeaderParser::parse(NpyHeader &header, std::string &error) {
  if (!parseDict(header)) {
    error = message;
    return false;
  }
  return true;
}

bool HeaderParser::parseDict(NpyHeader &header) {
  if (!expect('{'))
    return false;
  bool sawDescr = false, sawFortranOrder = false, sawShape = false;
  while (!consume('}')) {
    std::string key;
    if (!parseString(key) || !expect(':'))
      return false;
    bool *seen = key == "descr"           ? &sawDescr
                 : key == "fortran_order" ? &sawFortranOrder
                 : key == "shape"         ? &sawShape
                                          : nullptr;
    if (!seen)
      return fail("unexpected key '" + key + "'");
    if (*seen)
      return fail("duplicate key '" + key + "'");
    *seen = true;
    skipSpace();
    bool parsed;
    if (key == "descr")
      parsed = pos < text.size() && (text[pos] == '\'' || text[pos] == '"')
                   ? parseString(header.descr)
                   : fail("'descr' is not a string (structured dtypes are "
                          "not supported)");
    else if (key == "fortran_order")
      parsed = parseBool(header.fortranOrder);
    else
      parsed = parseShape(header.shape);
    if (!parsed)
      return false;
    // Entries are separated by commas, and one may trail.
    if (!consume(',')) {
      if (!consume('}'))
        return fail("expected ',' or '}'");
      break;
    }
  }
  skipSpace();
  if (pos != text.size())
    return fail("unexpected text after the dict");
  const char *missing = !sawDescr          ? "descr"
                        : !sawFortranOrder ? "fortran_order"
                        : !sawShape        ? "shape"
                                           : nullptr;
  if (missing) {
    message = std::string("malformed header: no '") + missing + "' key";
    return false;
  }
  return true;
}

static std::optional<HostTensor> refuse(const std::string &name,
                                        const std::string &problem,
                                        std::string &error) {
  error = name + ": " + problem;
  return std::nullopt;
}

std::optional<HostTensor> tilec::parseNpy(const uint8_t *data, size_t size,
                                          const std::string &name,
                                          std::string &error) {
  if (size < kMagicSize || std::memcmp(data, kMagic, kMagicSize) != 0)
    return refuse(name, "not a .npy file (bad magic)", error);
  if (size < kMagicSize + 2)
    return refuse(name, "truncated header", error);
  unsigned major = data[kMagicSize], minor = data[kMagicSize + 1];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    return refuse(name,
                  "unsupported .npy format version " + std::to_string(major) +
                      "." + std::to_string(minor),
                  error);
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t headerStart = kMagicSize + 2 + lengthSize;
  if (size < headerStart)
    return refuse(name, "truncated header", error);
  size_t headerSize = 0;
  for (size_t byte = 0; byte < lengthSize; ++byte)
    headerSize |= size_t(data[kMagicSize + 2 + byte]) << (8 * byte);
  if (headerSize > size - headerStart)
    return refuse(name,
                  "header length " + std::to_string(headerSize) +
                      " runs past the end of the file",
                  error);

  // Version 3.0 allows UTF-8, but only for the field names of structured
  // dtypes, which are not supported; so any valid header is plain ASCII.
  std::string_view headerText(
      reinterpret_cast<const char *>(data) + headerStart, headerSize);
  for (size_t offset = 0; offset < headerText.size(); ++offset) {
    unsigned char byte = headerText[offset];
    if (byte >= 0x7F ||
        (byte < ' ' && byte != '\n' && byte != '\t' && byte != '\r')) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", byte);
      return refuse(name,
                    std::string("header has byte ") + hex + " at offset " +
                        std::to_string(offset) + ", not printable ASCII",
                    error);
    }
  }
  NpyHeader header;
  std::string problem;
  if (!HeaderParser(headerText).parse(header, problem))
    return refuse(name, problem, error);
  std::optional<DType> type = dtypeFromDescr(header.descr, problem);
  if (!type)
    return refuse(name, problem, error);
  if (header.fortranOrder)
    return refuse(name, "Fortran-order arrays are not supported", error);

  // The data must be exactly what the shape needs; this also bounds the
  // allocation by the size of the input.
  std::string shape = formatShape(header.shape);
  std::optional<int64_t> count = numElements(header.shape);
  size_t elementSize = dtypeSize(*type);
  if (!count || uint64_t(*count) > SIZE_MAX / elementSize)
    return refuse(name, "shape " + shape + " has too many elements", error);
  size_t needed = size_t(*count) * elementSize;
  size_t available = size - headerStart - headerSize;
  if (needed != available)
    return refuse(name,
                  std::string(needed > available ? "data is truncated"
                                                 : "trailing data") +
                      ": shape " + shape + " of '" + header.descr + "' needs " +
                      std::to_string(needed) + " bytes, the file has " +
                      std::to_string(available),
                  error);

  HostTensor tensor(*type, header.shape);
  std::copy_n(data + headerStart + headerSize, needed, tensor.data());
  // NumPy reads any nonzero byte as True; keep HostTensor's 0-or-1 form.
  if (*type == DType::Bool)
    for (int64_t i = 0; i < *count; ++i)
      tensor.data()[i] = tensor.data()[i] != 0;
  return tensor;
}

std::optional<HostTensor> tilec::readNpy(const std::string &path,
                                         std::string &error) {
  // The magic first: a file that is not .npy is refused before it is read.
  std::optional<std::string> image = readWholeFile(
      path, error, std::string_view(kMagic, kMagicSize), "a .npy file");
  if (!image)
    return std::nullopt;
  return parseNpy(reinterpret_cast<const uint8_t *>(image->data()),
                  image->size(), path, error);
}

std::string tilec::serializeNpy(const HostTensor &tensor) {
  std::string dict =
      std::string("{'descr': '") + npyDescr(tensor.dtype()) +
      "', 'fortran_order': False, 'shape': " + formatShape(tensor.shape()) +
      ", }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes, and
  // end with '\n'. Version 1.0 unless the length does not fit its u16.
  unsigned major = 1;
  size_t lengthSize = 2;
  auto headerSize = [&] {
    size_t unpadded = kMagicSize + 2 + lengthSize + dict.size() + 1;
    return dict.size() + 1 +
           (kHeaderAlignment - unpadded % kHeaderAlignment) % kHeaderAlignment;
  };
  if (headerSize() > UINT16_MAX) {
    major = 2;
    lengthSize = 4;
  }
  size_t length = headerSize();

  std::string image(kMagic, kMagicSize);
  image += char(major);
  image += char(0);
  for (size_t byte = 0; byte < lengthSize; ++byte)
    image += char((length >> (8 * byte)) & 0xFF);
  image += dict;
  image.append(length - dict.size() - 1, ' ');
  image += '\n';
  image.append(reinterpret_cast<const char *>(tensor.data()),
               tensor.sizeInBytes());
  return image;
}

bool tilec::writeNpy(const std::string &path, const HostTensor &tensor,
                     std::string &error) {
  return writeFileAtomically(path, serializeNpy(tensor), error);
}
