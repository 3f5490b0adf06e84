//===- NpyTest.cpp - Tests of .npy reading and writing --------------------===//

#include "tilec/Runtime/Npy.h"
#include "tilec/Runtime/Random.h"

#include "ScopedTempDir.h"

#include <cmath>
#include <fstream>

#include <sys/stat.h>

#include <gtest/gtest.h>

using namespace tilec;
using namespace std::string_literals;

/// A .npy image: magic, version, header length in the version's width, the
/// header exactly as given (no padding), then `data`.
static std::string npyImage(const std::string &header, const std::string &data,
                            int major = 1) {
  std::string image = "\x93NUMPY";
  image += char(major);
  image += char(0);
  size_t lengthSize = major == 1 ? 2 : 4;
  for (size_t byte = 0; byte < lengthSize; ++byte)
    image += char((header.size() >> (8 * byte)) & 0xFF);
  return image + header + data;
}

static std::string header(const std::string &descr, const std::string &shape) {
  return "{'descr': '" + descr +
         "', 'fortran_order': False, 'shape': " + shape + ", }\n";
}

static std::optional<HostTensor> parse(const std::string &image,
                                       std::string &error) {
  return parseNpy(reinterpret_cast<const uint8_t *>(image.data()), image.size(),
                  "in.npy", error);
}

/// Expects `image` to be refused with an error naming the file and
/// containing `problem`.
static void expectRefused(const std::string &image,
                          const std::string &problem) {
  std::string error;
  EXPECT_FALSE(parse(image, error)) << problem;
  EXPECT_EQ(error.rfind("in.npy: ", 0), 0u) << error;
  EXPECT_NE(error.find(problem), std::string::npos) << error;
}

TEST(NpyTest, ReadsEveryDType) {
  struct Case {
    const char *descr;
    DType type;
    std::string data;
    std::vector<double> values;
  };
  const Case cases[] = {
      {"|b1", DType::Bool, "\x01\x00"s, {1, 0}},
      {"|i1", DType::I8, "\xFF\x05"s, {-1, 5}},
      {"<i2", DType::I16, "\x01\x80\x02\x00"s, {-32767, 2}},
      {"<i4", DType::I32, "\xFE\xFF\xFF\xFF\x03\x00\x00\x00"s, {-2, 3}},
      {"<i8",
       DType::I64,
       "\0\0\0\0\0\0\0\x80\x07\0\0\0\0\0\0\0"s,
       {-std::ldexp(1, 63), 7}},
      {"|u1", DType::U8, "\xFF\x05"s, {255, 5}},
      {"<u2", DType::U16, "\x01\x80\x02\x00"s, {32769, 2}},
      {"<u4",
       DType::U32,
       "\xFE\xFF\xFF\xFF\x03\x00\x00\x00"s,
       {4294967294.0, 3}},
      {"<u8",
       DType::U64,
       "\0\0\0\0\0\0\0\x80\x07\0\0\0\0\0\0\0"s,
       {std::ldexp(1, 63), 7}},
      {"<f2", DType::F16, "\x00\x3C\x00\xC1"s, {1, -2.5}},
      {"|V2", DType::BF16, "\x80\x3F\x20\xC0"s, {1, -2.5}},
      {"<V2", DType::BF16, "\x80\x3F\x20\xC0"s, {1, -2.5}},
      {"<f4", DType::F32, "\x00\x00\x80\x3F\x00\x00\x20\xC0"s, {1, -2.5}},
      {"<f8",
       DType::F64,
       "\0\0\0\0\0\0\xF0\x3F\0\0\0\0\0\0\x04\xC0"s,
       {1, -2.5}},
      // Native order is little-endian here; byte order cannot matter for one
      // byte.
      {"=i2", DType::I16, "\x01\x80\x02\x00"s, {-32767, 2}},
      {">u1", DType::U8, "\xFF\x05"s, {255, 5}},
  };
  for (const Case &test : cases) {
    std::string error;
    std::optional<HostTensor> tensor =
        parse(npyImage(header(test.descr, "(2,)"), test.data), error);
    ASSERT_TRUE(tensor) << test.descr << ": " << error;
    EXPECT_EQ(tensor->dtype(), test.type) << test.descr;
    EXPECT_EQ(tensor->shape(), Shape{2}) << test.descr;
    for (int64_t i = 0; i < 2; ++i)
      EXPECT_EQ(tensor->getDouble(i), test.values[i]) << test.descr;
  }
}

TEST(NpyTest, ReadsEveryVersion) {
  std::string data("\x01\x00\x02\x00\x03\x00\x04\x00\x05\x00\x06\x00", 12);
  for (int major : {1, 2, 3}) {
    std::string error;
    std::optional<HostTensor> tensor =
        parse(npyImage(header("<i2", "(2, 3)"), data, major), error);
    ASSERT_TRUE(tensor) << error;
    EXPECT_EQ(tensor->shape(), (Shape{2, 3}));
    EXPECT_EQ(tensor->getInt(5), 6);
  }
}

TEST(NpyTest, ToleratesPythonLiteralVariations) {
  std::string data("\x01\x00\x00\x00\x02\x00\x00\x00", 8);
  const char *headers[] = {
      "{'shape': (1, 2), 'fortran_order': False, 'descr': '<i4'}",
      "{ \"descr\" : \"<i4\" ,\t'fortran_order':False,'shape':(1,2,),}  \n",
      "{'fortran_order': False, 'descr': '<i4', 'shape': (1, 2)}\r\n",
  };
  for (const char *text : headers) {
    std::string error;
    std::optional<HostTensor> tensor = parse(npyImage(text, data), error);
    ASSERT_TRUE(tensor) << text << ": " << error;
    EXPECT_EQ(tensor->shape(), (Shape{1, 2}));
    EXPECT_EQ(tensor->getInt(1), 2);
  }
}

TEST(NpyTest, ZeroDimensionalAndEmpty) {
  std::string error;
  std::optional<HostTensor> scalar =
      parse(npyImage(header("<f8", "()"), "\0\0\0\0\0\0\x04\xC0"s), error);
  ASSERT_TRUE(scalar) << error;
  EXPECT_EQ(scalar->rank(), 0);
  EXPECT_EQ(scalar->getDouble(0), -2.5);

  for (const char *shape : {"(0,)", "(2, 0, 3)"}) {
    std::optional<HostTensor> empty =
        parse(npyImage(header("<f4", shape), ""), error);
    ASSERT_TRUE(empty) << error;
    EXPECT_EQ(empty->numElements(), 0);
  }
}

TEST(NpyTest, NormalisesBools) {
  std::string error;
  std::optional<HostTensor> tensor =
      parse(npyImage(header("|b1", "(2,)"), "\x02\x00"s), error);
  ASSERT_TRUE(tensor) << error;
  EXPECT_EQ(tensor->data()[0], 1);
  EXPECT_EQ(tensor->data()[1], 0);
}

TEST(NpyTest, RefusesBadFiles) {
  std::string fourBytes(4, '\0');
  expectRefused("", "bad magic");
  expectRefused("\x93NUMP", "bad magic");
  expectRefused("\x93NUMPY\x01", "truncated header");
  expectRefused("PK\x03\x04 not numpy at all", "bad magic");
  std::string v4 = npyImage(header("<f4", "(1,)"), fourBytes);
  v4[6] = 4;
  expectRefused(v4, "unsupported .npy format version 4.0");
  std::string v11 = npyImage(header("<f4", "(1,)"), fourBytes);
  v11[7] = 1;
  expectRefused(v11, "unsupported .npy format version 1.1");
  expectRefused("\x93NUMPY\x02\x00\x10"s, "truncated header");
  expectRefused("\x93NUMPY\x01\x00\xFF\x00{}"s,
                "header length 255 runs past the end of the file");
  expectRefused(npyImage("{'descr': '<f4', 'fortran_order': True, "
                         "'shape': (1,)}",
                         fourBytes),
                "Fortran-order arrays are not supported");
  expectRefused(npyImage(header("|O", "(1,)"), std::string(8, '\0')),
                "object arrays are not supported");
  expectRefused(npyImage(header(">f4", "(1,)"), fourBytes),
                "big-endian data ('>f4') is not supported");
  expectRefused(npyImage(header("|i4", "(1,)"), fourBytes),
                "byte order '|' of descr '|i4' is ambiguous");
  expectRefused(npyImage(header("<c8", "(1,)"), std::string(8, '\0')),
                "unsupported dtype descr '<c8'");
  expectRefused(npyImage(header("f4", "(1,)"), fourBytes),
                "unsupported dtype descr 'f4'");
  expectRefused(npyImage(header("<f4", "(-1,)"), ""), "negative extent");
  expectRefused(npyImage(header("<f4", "(99999999999999999999,)"), ""),
                "overflows int64");
  expectRefused(npyImage(header("<f4", "(4294967296, 4294967296)"), ""),
                "shape (4294967296, 4294967296) has too many elements");
  expectRefused(npyImage(header("<f8", "(4611686018427387904,)"), ""),
                "has too many elements");
  // A huge but representable size is checked against the file, not
  // allocated.
  expectRefused(npyImage(header("<f8", "(1099511627776,)"), ""),
                "data is truncated: shape (1099511627776,) of '<f8' needs "
                "8796093022208 bytes, the file has 0");
  expectRefused(npyImage(header("<f4", "(2, 3)"), std::string(20, '\0')),
                "data is truncated: shape (2, 3) of '<f4' needs 24 bytes, the "
                "file has 20");
  expectRefused(npyImage(header("<f4", "(2, 3)"), std::string(25, '\0')),
                "trailing data: shape (2, 3) of '<f4' needs 24 bytes, the "
                "file has 25");
  expectRefused(npyImage(header("<f4", "(3)"), std::string(12, '\0')),
                "'shape' is not a tuple");
  expectRefused(npyImage(header("<f4", "3"), std::string(12, '\0')),
                "expected '('");
  expectRefused(npyImage(header("<f4", "(1,)") + "\xC3\xA9", fourBytes),
                "header has byte 0xC3 at offset");
  expectRefused(npyImage("{'descr': '<f4'\0}"s, fourBytes),
                "header has byte 0x00 at offset 15");
  expectRefused(npyImage("{'descr': [('a', '<f4')], 'fortran_order': False, "
                         "'shape': (1,)}",
                         fourBytes),
                "'descr' is not a string (structured dtypes are not "
                "supported)");
  expectRefused(npyImage("{'descr': '<f4', 'shape': (1,)}", fourBytes),
                "no 'fortran_order' key");
  expectRefused(npyImage("{'descr': '<f4', 'descr': '<f4', "
                         "'fortran_order': False, 'shape': (1,)}",
                         fourBytes),
                "duplicate key 'descr'");
  expectRefused(npyImage("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (1,), 'extra': 1}",
                         fourBytes),
                "unexpected key 'extra'");
  expectRefused(npyImage("{'descr': '<f4, 'fortran_order': False}", fourBytes),
                "expected ',' or '}'");
  expectRefused(npyImage("{'descr': '<f4}", fourBytes), "unterminated string");
  expectRefused(npyImage(header("<f4", "(1,)") + "x", fourBytes),
                "unexpected text after the dict");
  expectRefused(npyImage("{'descr': '<f4', 'fortran_order': false, "
                         "'shape': (1,)}",
                         fourBytes),
                "expected True or False");
}

TEST(NpyTest, NeverCrashesOnCorruptImages) {
  HostTensor tensor = *randomTensor(DType::F32, {3, 2}, 7);
  std::string image = serializeNpy(tensor);
  std::string error;
  // Every proper prefix is refused.
  for (size_t size = 0; size < image.size(); ++size)
    EXPECT_FALSE(parse(image.substr(0, size), error)) << size;
  // Every single-byte corruption of the header and the length either is
  // refused or still reads the same data.
  for (size_t offset = 6; offset < image.size() - tensor.sizeInBytes();
       ++offset) {
    for (int value : {0x00, 0x28, 0x7F, 0xFF}) {
      std::string corrupt = image;
      corrupt[offset] = char(value);
      if (std::optional<HostTensor> read = parse(corrupt, error)) {
        EXPECT_EQ(read->sizeInBytes(), tensor.sizeInBytes()) << offset;
      }
    }
  }
}

TEST(NpyTest, SerializesLikeNumPy) {
  std::string image = serializeNpy(HostTensor(DType::F32, {2, 3}));
  ASSERT_EQ(image.size() % 64, 24u);
  size_t dataStart = image.size() - 24;
  EXPECT_EQ(dataStart % 64, 0u);
  EXPECT_EQ(image.substr(0, 8), "\x93NUMPY\x01\x00"s);
  EXPECT_EQ(uint8_t(image[8]) | uint8_t(image[9]) << 8, dataStart - 10);
  std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  EXPECT_EQ(image.substr(10, dict.size()), dict);
  EXPECT_EQ(image.find_first_not_of(' ', 10 + dict.size()), dataStart - 1);
  EXPECT_EQ(image[dataStart - 1], '\n');

  EXPECT_NE(serializeNpy(HostTensor(DType::BF16, {})).find("'descr': '|V2'"),
            std::string::npos);
  EXPECT_NE(serializeNpy(HostTensor(DType::Bool, {5})).find("'shape': (5,)"),
            std::string::npos);
}

TEST(NpyTest, SerializesLongHeadersAsVersion2) {
  // 30000 dimensions of extent 1 need a header longer than 65535 bytes.
  HostTensor tensor(DType::I8, Shape(30000, 1));
  std::string image = serializeNpy(tensor);
  EXPECT_EQ(image[6], 2);
  std::string error;
  std::optional<HostTensor> read = parse(image, error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->rank(), 30000);
}

static size_t countFiles(const ScopedTempDir &dir) {
  std::filesystem::directory_iterator entries(dir.path());
  return size_t(std::distance(begin(entries), end(entries)));
}

TEST(NpyTest, RoundTripsThroughFiles) {
  ScopedTempDir dir;
  uint64_t seed = 1;
  for (DType type : kAllDTypes) {
    for (const Shape &shape : {Shape{}, Shape{0}, Shape{3, 5}}) {
      HostTensor tensor = *randomTensor(type, shape, seed++);
      std::string path = dir.file(std::string(dtypeName(type)) + ".npy");
      std::string error;
      ASSERT_TRUE(writeNpy(path, tensor, error)) << error;
      std::optional<HostTensor> read = readNpy(path, error);
      ASSERT_TRUE(read) << error;
      EXPECT_TRUE(*read == tensor) << dtypeName(type);
    }
  }
  // Nothing but the targets is left behind.
  EXPECT_EQ(countFiles(dir), std::size(kAllDTypes));
}

TEST(NpyTest, ReportsFileErrors) {
  ScopedTempDir dir;
  std::string error;
  std::string missing = dir.file("missing.npy");
  EXPECT_FALSE(readNpy(missing, error));
  EXPECT_EQ(error, missing + ": cannot open: No such file or directory");

  std::string garbage = dir.file("garbage.npy");
  std::ofstream(garbage) << "not an array";
  EXPECT_FALSE(readNpy(garbage, error));
  EXPECT_EQ(error, garbage + ": not a .npy file (bad magic)");

  std::string unwritable = dir.file("no-such-dir/out.npy");
  EXPECT_FALSE(writeNpy(unwritable, HostTensor(DType::F32, {1}), error));
  EXPECT_EQ(error.rfind(unwritable + ": ", 0), 0u) << error;
  EXPECT_FALSE(std::filesystem::exists(dir.file("no-such-dir")));

  // Writing over a directory fails at the rename; the temporary is removed.
  std::string directory = dir.file("directory.npy");
  std::filesystem::create_directory(directory);
  EXPECT_FALSE(writeNpy(directory, HostTensor(DType::F32, {1}), error));
  EXPECT_EQ(error.rfind(directory + ": cannot write: ", 0), 0u) << error;
  EXPECT_EQ(countFiles(dir), 2u);
}

TEST(NpyTest, RefusesFilesThatAreNotRegularWithoutReadingThem) {
  // /dev/zero never ends and /dev/urandom grows the image without bound; a
  // FIFO blocks its reader until a writer comes. All are refused at once.
  ScopedTempDir dir;
  std::string fifo = dir.file("fifo.npy");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string directory = dir.file("directory.npy");
  std::filesystem::create_directory(directory);
  const std::pair<std::string, const char *> files[] = {
      {"/dev/zero", "a character device"},
      {"/dev/urandom", "a character device"},
      {fifo, "a FIFO"},
      {directory, "a directory"}};
  for (const auto &[path, kind] : files) {
    std::string error;
    EXPECT_FALSE(readNpy(path, error)) << path;
    EXPECT_EQ(error, path + ": cannot read: " + kind + ", not a regular file");
  }
}

TEST(NpyTest, ChecksTheMagicBeforeReadingTheRest) {
  ScopedTempDir dir;
  std::string error;
  // Shorter than the magic, and a prefix of it.
  std::string shortFile = dir.file("short.npy");
  std::ofstream(shortFile, std::ios::binary) << "\x93NUM";
  EXPECT_FALSE(readNpy(shortFile, error));
  EXPECT_EQ(error, shortFile + ": not a .npy file (bad magic)");
  // The magic, then nothing.
  std::string magicOnly = dir.file("magic.npy");
  std::ofstream(magicOnly, std::ios::binary) << "\x93NUMPY";
  EXPECT_FALSE(readNpy(magicOnly, error));
  EXPECT_EQ(error, magicOnly + ": truncated header");
  // A whole file cut short in its data.
  std::string whole = dir.file("whole.npy");
  ASSERT_TRUE(writeNpy(whole, HostTensor(DType::F32, {16}), error)) << error;
  std::filesystem::resize_file(whole, std::filesystem::file_size(whole) - 5);
  EXPECT_FALSE(readNpy(whole, error));
  EXPECT_NE(error.find("data is truncated"), std::string::npos) << error;
}
