//===- Bundle.cpp - The bundle's JSON file form ---------------------------===//
//
// {
//   "format": "tilec-bundle", "version": 5, "producer": "tilec 0.1.0",
//   "function": "matmul",
//   "kernels": [{"name": "k0", "source_location": "mm.tile:3:3",
//                "flops": 2e6, "bytes": 3e5,
//                "params": [{"dtype": "f32", "elements": 2048,
//                            "written": false}, ...],
//                "global_size": [64, 64], "local_size": [16, 16],
//                "spirv": "AwIjBwAFAQA...",
//                "msl": "#include <metal_stdlib> ..."}],
//   "opencl_source": "__kernel void k0(...) {...}",
//   "buffers": [{"name": "A", "kind": "input", "dtype": "f32",
//                "shape": [64, 32], "alias_of": null, "piece_of": null,
//                "zeroed": false},
//               {"name": "A.1", "kind": "piece", "dtype": "f32",
//                "shape": [32, 32], "alias_of": null,
//                "piece_of": {"buffer": 0, "byte_offset": 4096},
//                "zeroed": false}, ...],
//   "inputs": [0, 1], "outputs": [2],
//   "launches": [{"kernel": 0, "global_size": [64, 64],
//                 "local_size": [16, 16], "args": [0, 1, 2]}],
//   "explanation": "..."
// }
//
// A kernel's "params" are what its code addresses, per argument; its sizes
// the geometry its indexing was generated for (validateBundle checks every
// launch against both). A kernel's "spirv" is the base64 of its SPIR-V module's
// little-endian words. It and "msl" are empty strings when the bundle was
// compiled without those targets; either every kernel has SPIR-V or none has. A
// launch's dimensions are the length of its size arrays. Keys a reader
// does not know are ignored, so that additions which old readers may skip
// (another target's code) need no new version; any change of meaning bumps
// kBundleFormatVersion, and readers refuse versions other than their own.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Bundle.h"

#include "FileIO.h"
#include "SPIRVWords.h"

#include <nlohmann/json.hpp>

#include <cassert>
#include <limits>

using namespace tilec;
using nlohmann::json;

static constexpr const char *kBundleFormatName = "tilec-bundle";

const char *tilec::bufferKindName(BundleBuffer::Kind kind) {
  switch (kind) {
  case BundleBuffer::Kind::Input:
    return "input";
  case BundleBuffer::Kind::Output:
    return "output";
  case BundleBuffer::Kind::Temporary:
    return "temporary";
  case BundleBuffer::Kind::Piece:
    return "piece";
  }
  return "temporary";
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

std::string tilec::serializeBundle(const Bundle &bundle) {
  // An ordered_json keeps the keys in the order they are set here, the
  // order a person reading the file wants.
  using ordered = nlohmann::ordered_json;
  ordered kernels = ordered::array();
  auto sizes = [](unsigned dims, const std::array<uint64_t, 3> &size) {
    ordered array = ordered::array();
    for (unsigned dim = 0; dim < dims && dim < 3; ++dim)
      array.push_back(size[dim]);
    return array;
  };
  for (const BundleKernel &kernel : bundle.kernels) {
    ordered params = ordered::array();
    for (const KernelParam &param : kernel.params)
      params.push_back({{"dtype", dtypeName(param.dtype)},
                        {"elements", param.elements},
                        {"written", param.written},
                        {"read", param.read}});
    kernels.push_back({{"name", kernel.name},
                       {"source_location", kernel.sourceLocation},
                       {"flops", kernel.flops},
                       {"bytes", kernel.bytes},
                       {"params", std::move(params)},
                       {"global_size", sizes(kernel.dims, kernel.globalSize)},
                       {"local_size", sizes(kernel.dims, kernel.localSize)},
                       {"spirv", ""},
                       {"msl", kernel.msl}});
  }
  ordered buffers = ordered::array();
  for (const BundleBuffer &buffer : bundle.buffers)
    buffers.push_back(
        {{"name", buffer.name},
         {"kind", bufferKindName(buffer.kind)},
         {"dtype", dtypeName(buffer.dtype)},
         {"shape", buffer.shape},
         {"alias_of",
          buffer.aliasOf ? ordered(*buffer.aliasOf) : ordered(nullptr)},
         {"piece_of", buffer.pieceOf
                          ? ordered{{"buffer", buffer.pieceOf->whole},
                                    {"byte_offset", buffer.pieceOf->byteOffset}}
                          : ordered(nullptr)},
         {"zeroed", buffer.zeroed}});
  ordered launches = ordered::array();
  for (const BundleLaunch &launch : bundle.launches)
    launches.push_back({{"kernel", launch.kernel},
                        {"global_size", sizes(launch.dims, launch.globalSize)},
                        {"local_size", sizes(launch.dims, launch.localSize)},
                        {"args", launch.args}});

  ordered object = ordered::object();
  object["format"] = kBundleFormatName;
  object["version"] = kBundleFormatVersion;
  object["producer"] = bundle.producer;
  object["function"] = bundle.function;
  object["kernels"] = std::move(kernels);
  object["opencl_source"] = bundle.openclSource;
  object["buffers"] = std::move(buffers);
  object["inputs"] = bundle.inputs;
  object["outputs"] = bundle.outputs;
  object["launches"] = std::move(launches);
  object["explanation"] = bundle.explanation;
  // Each kernel's SPIR-V goes into its empty "spirv" string after the dump:
  // base64 needs no escaping, and the dump would check each of its
  // characters as UTF-8: three fifths of a bundle's serialization. A
  // quote starts `"spirv": ""` only as that key: in the dump, a string's own
  // quotes are escaped.
  std::string dumped = object.dump(2);
  const std::string emptySPIRV = "\"spirv\": \"\"";
  std::string text;
  size_t copied = 0;
  for (const BundleKernel &kernel : bundle.kernels) {
    size_t key = dumped.find(emptySPIRV, copied);
    assert(key != std::string::npos && "every kernel has a \"spirv\" key");
    // Up to the closing quote.
    size_t value = key + emptySPIRV.size() - 1;
    text.append(dumped, copied, value - copied);
    text += encodeSPIRVWords(kernel.spirv);
    copied = value;
  }
  text.append(dumped, copied);
  text += '\n';
  return text;
}

Status tilec::writeBundle(const std::string &path, const Bundle &bundle) {
  std::string error;
  if (!writeFileAtomically(path, serializeBundle(bundle), error))
    return Error(error);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads the members of one JSON document into a Bundle, remembering the
/// first thing wrong as "<where>: expected <what>, got <value>".
class BundleReader {
public:
  /// The first problem found, if any.
  const std::optional<std::string> &problem() const { return failure; }

  void fail(const std::string &message) {
    if (!failure)
      failure = message;
  }

  /// The member `key` of `object` (at `where`), or null after recording
  /// that it is missing.
  const json *member(const json &object, const std::string &where,
                     const char *key) {
    auto found = object.find(key);
    if (found == object.end()) {
      fail((where.empty() ? "" : where + ": ") + "the key '" + key +
           "' is missing");
      return nullptr;
    }
    return &*found;
  }

  void expected(const std::string &where, const char *what, const json &value) {
    fail(where + ": expected " + what + ", got " + value.dump());
  }

  void read(const json &value, const std::string &where, std::string &out) {
    if (!value.is_string())
      return expected(where, "a string", value);
    out = value.get<std::string>();
  }
  void read(const json &value, const std::string &where, double &out) {
    if (!value.is_number() || value.get<double>() < 0)
      return expected(where, "a non-negative number", value);
    out = value.get<double>();
  }
  void read(const json &value, const std::string &where, uint64_t &out) {
    if (!value.is_number_unsigned())
      return expected(where, "a non-negative integer", value);
    out = value.get<uint64_t>();
  }
  void read(const json &value, const std::string &where, unsigned &out) {
    if (!value.is_number_unsigned() ||
        value.get<uint64_t>() > std::numeric_limits<unsigned>::max())
      return expected(where, "a non-negative integer below 2^32", value);
    out = value.get<unsigned>();
  }
  void read(const json &value, const std::string &where, int64_t &out) {
    if (!value.is_number_unsigned() ||
        value.get<uint64_t>() >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return expected(where, "a non-negative integer below 2^63", value);
    out = value.get<int64_t>();
  }
  void read(const json &value, const std::string &where, bool &out) {
    if (!value.is_boolean())
      return expected(where, "true or false", value);
    out = value.get<bool>();
  }
  void read(const json &value, const std::string &where, KernelParam &out) {
    if (!value.is_object())
      return expected(where, "an object", value);
    field(value, where, "dtype", out.dtype);
    field(value, where, "elements", out.elements);
    field(value, where, "written", out.written);
    field(value, where, "read", out.read);
  }
  void read(const json &value, const std::string &where, DType &out) {
    std::optional<DType> dtype =
        value.is_string() ? parseDType(value.get<std::string>()) : std::nullopt;
    if (!dtype)
      return expected(where, "a dtype (\"f32\", \"i8\", ...)", value);
    out = *dtype;
  }
  void read(const json &value, const std::string &where,
            BundleBuffer::Kind &out) {
    for (BundleBuffer::Kind kind :
         {BundleBuffer::Kind::Input, BundleBuffer::Kind::Output,
          BundleBuffer::Kind::Temporary, BundleBuffer::Kind::Piece})
      if (value == bufferKindName(kind)) {
        out = kind;
        return;
      }
    expected(where, "\"input\", \"output\", \"temporary\" or \"piece\"", value);
  }
  void read(const json &value, const std::string &where,
            std::optional<BufferPiece> &out) {
    if (value.is_null()) {
      out.reset();
      return;
    }
    if (!value.is_object())
      return expected(where, "null or an object", value);
    BufferPiece piece;
    field(value, where, "buffer", piece.whole);
    field(value, where, "byte_offset", piece.byteOffset);
    out = piece;
  }
  void read(const json &value, const std::string &where,
            std::optional<unsigned> &out) {
    if (value.is_null()) {
      out.reset();
      return;
    }
    unsigned index = 0;
    read(value, where, index);
    out = index;
  }
  template <class T>
  void read(const json &value, const std::string &where, std::vector<T> &out) {
    if (!value.is_array())
      return expected(where, "an array", value);
    out.assign(value.size(), T());
    for (size_t i = 0; i < value.size(); ++i)
      read(value[i], where + "[" + std::to_string(i) + "]", out[i]);
  }

  /// Reads the member `key` of `object` into `out`.
  template <class T>
  void field(const json &object, const std::string &where, const char *key,
             T &out) {
    if (const json *value = member(object, where, key))
      read(*value, where.empty() ? key : where + "." + key, out);
  }

  /// Reads the member `key` of `object`, the base64 of a SPIR-V module's
  /// words, into `out`.
  void spirvField(const json &object, const std::string &where, const char *key,
                  std::vector<uint32_t> &out) {
    std::string text;
    field(object, where, key, text);
    std::string error;
    std::optional<std::vector<uint32_t>> words = decodeSPIRVWords(text, error);
    if (!words)
      return fail(where + "." + key + ": " + error);
    out = std::move(*words);
  }

  /// Reads the array member `key` of `object`, one element with
  /// `readElement(element, where, out)` into each of `out`.
  template <class T, class ReadElement>
  void objects(const json &object, const char *key, std::vector<T> &out,
               ReadElement readElement) {
    const json *array = member(object, "", key);
    if (!array)
      return;
    if (!array->is_array())
      return expected(key, "an array", *array);
    out.assign(array->size(), T());
    for (size_t i = 0; i < array->size(); ++i) {
      std::string where = std::string(key) + "[" + std::to_string(i) + "]";
      if (!(*array)[i].is_object())
        return expected(where, "an object", (*array)[i]);
      readElement((*array)[i], where, out[i]);
    }
  }

private:
  std::optional<std::string> failure;
};

} // namespace

/// Reads a launch's (or a kernel's) sizes: 1 to 3 dimensions, the same for
/// both arrays.
static void readSizes(BundleReader &reader, const json &object,
                      const std::string &where, unsigned &dims,
                      std::array<uint64_t, 3> &globalSize,
                      std::array<uint64_t, 3> &localSize) {
  std::vector<uint64_t> global, local;
  reader.field(object, where, "global_size", global);
  reader.field(object, where, "local_size", local);
  if (reader.problem())
    return;
  if (global.empty() || global.size() > 3)
    return reader.fail(where + ": a launch has 1 to 3 dimensions, not " +
                       std::to_string(global.size()));
  if (local.size() != global.size())
    return reader.fail(
        where + ": the local size has " + std::to_string(local.size()) +
        " dimensions but the global size " + std::to_string(global.size()));
  dims = static_cast<unsigned>(global.size());
  for (unsigned dim = 0; dim < dims; ++dim) {
    if (local[dim] == 0 || global[dim] % local[dim] != 0)
      return reader.fail(
          where + ": the global size " + std::to_string(global[dim]) +
          " of dimension " + std::to_string(dim) +
          " is not a multiple of the local size " + std::to_string(local[dim]));
    globalSize[dim] = global[dim];
    localSize[dim] = local[dim];
  }
}

/// nlohmann's parse errors read "[json.exception.parse_error.101] parse
/// error at line 1, column 2: ..."; the bracketed id means nothing to users.
static std::string withoutExceptionId(const std::string &what) {
  size_t end = what.find("] ");
  return what.rfind("[json.exception", 0) == 0 && end != std::string::npos
             ? what.substr(end + 2)
             : what;
}

/// Reads a parsed bundle document; `prefix` starts every message.
static Expected<Bundle> readBundleObject(const json &object,
                                         const std::string &prefix) {
  if (!object.is_object() ||
      object.value("format", json()) != json(kBundleFormatName))
    return Error(prefix + "not a tilec bundle (no \"format\": \"" +
                 kBundleFormatName + "\")");
  json version = object.value("version", json());
  if (version != json(kBundleFormatVersion))
    return Error(prefix + "bundle format version " + version.dump() +
                 " is not supported: this runtime reads version " +
                 std::to_string(kBundleFormatVersion) +
                 " (recompile the program with this tilec)");

  BundleReader reader;
  Bundle bundle;
  const std::string top; // Top-level keys are named on their own.
  reader.field(object, top, "producer", bundle.producer);
  reader.field(object, top, "function", bundle.function);
  reader.field(object, top, "opencl_source", bundle.openclSource);
  reader.field(object, top, "explanation", bundle.explanation);
  reader.objects(
      object, "kernels", bundle.kernels,
      [&](const json &item, const std::string &where, BundleKernel &kernel) {
        reader.field(item, where, "name", kernel.name);
        reader.field(item, where, "source_location", kernel.sourceLocation);
        reader.field(item, where, "flops", kernel.flops);
        reader.field(item, where, "bytes", kernel.bytes);
        reader.field(item, where, "params", kernel.params);
        readSizes(reader, item, where, kernel.dims, kernel.globalSize,
                  kernel.localSize);
        reader.spirvField(item, where, "spirv", kernel.spirv);
        reader.field(item, where, "msl", kernel.msl);
      });
  reader.objects(
      object, "buffers", bundle.buffers,
      [&](const json &item, const std::string &where, BundleBuffer &buffer) {
        reader.field(item, where, "name", buffer.name);
        reader.field(item, where, "kind", buffer.kind);
        reader.field(item, where, "dtype", buffer.dtype);
        reader.field(item, where, "shape", buffer.shape);
        reader.field(item, where, "alias_of", buffer.aliasOf);
        reader.field(item, where, "piece_of", buffer.pieceOf);
        reader.field(item, where, "zeroed", buffer.zeroed);
      });
  reader.field(object, top, "inputs", bundle.inputs);
  reader.field(object, top, "outputs", bundle.outputs);
  reader.objects(
      object, "launches", bundle.launches,
      [&](const json &item, const std::string &where, BundleLaunch &launch) {
        reader.field(item, where, "kernel", launch.kernel);
        readSizes(reader, item, where, launch.dims, launch.globalSize,
                  launch.localSize);
        reader.field(item, where, "args", launch.args);
      });
  if (reader.problem())
    return Error(prefix + *reader.problem());
  if (Status valid = validateBundle(bundle); !valid)
    return Error(prefix + valid.error().message());
  return bundle;
}

Expected<Bundle> tilec::parseBundle(const std::string &text,
                                    const std::string &name) {
  std::string prefix = name + ": ";
  // The runtime is built with exceptions, and nlohmann reports by throwing:
  // a syntax error (with its position), a number out of range (a 400-digit
  // "version"), or running out of memory. A bundle is external data, so
  // every exception stops here as an error.
  try {
    return readBundleObject(json::parse(text), prefix);
  } catch (const std::exception &error) {
    return Error(prefix + "not a valid bundle file (truncated or corrupt): " +
                 withoutExceptionId(error.what()));
  } catch (...) {
    return Error(prefix + "not a valid bundle file (truncated or corrupt)");
  }
}

Expected<Bundle> tilec::readBundle(const std::string &path) {
  std::string error;
  std::optional<std::string> text = readWholeFile(path, error);
  if (!text)
    return Error(error);
  return parseBundle(*text, path);
}
