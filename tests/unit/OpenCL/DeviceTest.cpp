//===- DeviceTest.cpp - Buffers, programs and launches on a real device ---===//
//
// Runs on the default device (PoCL's CPU device in CI).
//
//===----------------------------------------------------------------------===//

#include "OpenCL/OpenCL.h"

#include "DeviceFixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::opencl;

namespace {

const char *const kVectorAdd = R"(
kernel void vadd(global const float *a, global const float *b,
                 global float *c, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}
)";

class DeviceTest : public tilec::testing::DeviceFixture {
protected:
  Expected<Kernel> buildKernel(std::string_view source,
                               std::string_view entry) {
    Expected<std::shared_ptr<const Program>> program =
        device->buildProgram(source, "", entry);
    if (!program)
      return program.error();
    return device->createKernel(*program, entry);
  }

  template <class T> Expected<Buffer> upload(const std::vector<T> &data) {
    size_t bytes = data.size() * sizeof(T);
    Expected<Buffer> buffer = device->allocate(bytes, "upload");
    if (!buffer)
      return buffer;
    if (Status written = device->write(*buffer, data.data(), bytes); !written)
      return written.error();
    return buffer;
  }

  template <class T> std::vector<T> download(const Buffer &buffer) {
    std::vector<T> data(buffer.size() / sizeof(T));
    Status read = device->read(buffer, data.data(), buffer.size());
    EXPECT_TRUE(read) << read.error().message();
    return data;
  }
};

} // namespace

TEST_F(DeviceTest, VectorAddOf50000Floats) {
  const uint32_t n = 50000;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  // The output starts as NaN everywhere, so that any element the kernel
  // misses fails the comparison.
  std::vector<float> poison(n, std::numeric_limits<float>::quiet_NaN());
  Expected<Buffer> bufA = upload(a), bufB = upload(b), bufC = upload(poison);
  ASSERT_TRUE(bufA && bufB && bufC);

  Expected<Kernel> kernel = buildKernel(kVectorAdd, "vadd");
  ASSERT_TRUE(kernel) << kernel.error().message();
  size_t local = std::min<size_t>(64, kernel->properties().maxWorkGroupSize);
  size_t global = (n + local - 1) / local * local;
  Expected<Event> run =
      device->launch(*kernel,
                     {KernelArg::buffer(*bufA), KernelArg::buffer(*bufB),
                      KernelArg::buffer(*bufC), KernelArg::scalar(n)},
                     NDRange(global), NDRange(local));
  ASSERT_TRUE(run) << run.error().message();
  Expected<EventTiming> timing = run->timing();
  ASSERT_TRUE(timing) << timing.error().message();
  EXPECT_LE(timing->queuedNs, timing->startNs);
  EXPECT_LE(timing->startNs, timing->endNs);
  EXPECT_GT(timing->endNs, 0u);

  std::vector<float> c = download<float>(*bufC);
  ASSERT_EQ(c.size(), n);
  size_t wrong = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (!(c[i] == a[i] + b[i]) && wrong++ < 5)
      ADD_FAILURE() << "c[" << i << "] = " << c[i] << ", expected "
                    << a[i] + b[i];
  EXPECT_EQ(wrong, 0u);
}

TEST_F(DeviceTest, ProgramCacheReturnsTheSameProgram) {
  auto first = device->buildProgram(kVectorAdd, "", "vadd");
  auto second = device->buildProgram(kVectorAdd, "", "vadd again");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ(device->cachedProgramCount(), 1u);

  auto otherOptions =
      device->buildProgram(kVectorAdd, "-cl-fast-relaxed-math", "vadd");
  ASSERT_TRUE(otherOptions) << otherOptions.error().message();
  EXPECT_NE(otherOptions->get(), first->get());
  EXPECT_EQ(device->cachedProgramCount(), 2u);
}

TEST_F(DeviceTest, SyntaxErrorReportsTheBuildLog) {
  auto program = device->buildProgram(
      "kernel void broken(global float *x) { x[0] = ; }\n", "", "broken");
  ASSERT_FALSE(program);
  const std::string &message = program.error().message();
  EXPECT_EQ(program.error().driverCode(), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_EQ(message.rfind("building OpenCL program 'broken' for device '" +
                              device->profile().name +
                              "': CL_BUILD_PROGRAM_FAILURE (-11)\nbuild log:\n",
                          0),
            0u)
      << message;
  // The compiler's diagnostic itself follows, whatever its exact words.
  EXPECT_NE(message.find("error", message.find("build log:")),
            std::string::npos)
      << message;
  EXPECT_EQ(device->cachedProgramCount(), 0u);

  auto badOptions = device->buildProgram(kVectorAdd, "-no-such-option", "v");
  ASSERT_FALSE(badOptions);
  EXPECT_NE(badOptions.error().message().find("options: -no-such-option"),
            std::string::npos)
      << badOptions.error().message();
}

TEST_F(DeviceTest, MissingEntryListsTheKernels) {
  auto program = device->buildProgram(kVectorAdd, "", "vector add");
  ASSERT_TRUE(program) << program.error().message();
  Expected<Kernel> kernel = device->createKernel(*program, "vmul");
  ASSERT_FALSE(kernel);
  EXPECT_EQ(kernel.error().message(),
            "creating kernel 'vmul' of program 'vector add': the program has "
            "no such kernel; its kernels: vadd");
}

TEST_F(DeviceTest, ScalarArgumentsOfEachIntegerTypeAndFloat) {
  Expected<Kernel> kernel = buildKernel(R"(
kernel void scalars(global long *out, char a, uchar b, short c, ushort d,
                    int e, uint f, long g, ulong h, float x) {
  out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e; out[5] = f;
  out[6] = g; out[7] = (long)h; out[8] = (long)(x * 4.0f);
}
)",
                                        "scalars");
  ASSERT_TRUE(kernel) << kernel.error().message();
  Expected<Buffer> out = upload(std::vector<int64_t>(9, -1));
  ASSERT_TRUE(out) << out.error().message();
  uint64_t h = (uint64_t(1) << 63) + 5;
  Expected<Event> run = device->launch(
      *kernel,
      {KernelArg::buffer(*out), KernelArg::scalar<int8_t>(-5),
       KernelArg::scalar<uint8_t>(250), KernelArg::scalar<int16_t>(-30000),
       KernelArg::scalar<uint16_t>(60000),
       KernelArg::scalar<int32_t>(-2000000000),
       KernelArg::scalar<uint32_t>(4000000000u),
       KernelArg::scalar<int64_t>(-(int64_t(1) << 40)), KernelArg::scalar(h),
       KernelArg::scalar(2.5f)},
      NDRange(1));
  ASSERT_TRUE(run) << run.error().message();
  std::vector<int64_t> expected = {-5,
                                   250,
                                   -30000,
                                   60000,
                                   -2000000000,
                                   4000000000,
                                   -(int64_t(1) << 40),
                                   static_cast<int64_t>(h),
                                   10};
  EXPECT_EQ(download<int64_t>(*out), expected);
}

TEST_F(DeviceTest, DoubleAndHalfScalars) {
  const DeviceProfile &profile = device->profile();
  if (!profile.supportsFp64 && !profile.supportsFp16)
    GTEST_SKIP() << "the device has neither fp64 nor fp16";
  if (profile.supportsFp64) {
    Expected<Kernel> kernel = buildKernel(R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void twice(global double *out, double x) { out[0] = 2.0 * x; }
)",
                                          "twice");
    ASSERT_TRUE(kernel) << kernel.error().message();
    Expected<Buffer> out = upload(std::vector<double>{0});
    ASSERT_TRUE(out);
    ASSERT_TRUE(device->launch(
        *kernel, {KernelArg::buffer(*out), KernelArg::scalar(0.1)},
        NDRange(1)));
    EXPECT_EQ(download<double>(*out), std::vector<double>{0.2});
  }
  if (profile.supportsFp16) {
    Expected<Kernel> kernel = buildKernel(R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void widen(global float *out, half x) { out[0] = (float)x; }
)",
                                          "widen");
    ASSERT_TRUE(kernel) << kernel.error().message();
    Expected<Buffer> out = upload(std::vector<float>{0});
    ASSERT_TRUE(out);
    // 0x3E00 is 1.5 in binary16.
    ASSERT_TRUE(device->launch(
        *kernel, {KernelArg::buffer(*out), KernelArg::scalar<uint16_t>(0x3E00)},
        NDRange(1)));
    EXPECT_EQ(download<float>(*out), std::vector<float>{1.5f});
  }
}

TEST_F(DeviceTest, LocalMemoryArgument) {
  Expected<Kernel> kernel = buildKernel(R"(
kernel void reverseGroups(global const int *in, global int *out,
                          local int *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[n - 1 - l];
}
)",
                                        "reverseGroups");
  ASSERT_TRUE(kernel) << kernel.error().message();
  const size_t n = 256, group = 16;
  std::vector<int32_t> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = static_cast<int32_t>(i);
  Expected<Buffer> bufIn = upload(in), bufOut = upload(std::vector<int>(n, -1));
  ASSERT_TRUE(bufIn && bufOut);
  Expected<Event> run =
      device->launch(*kernel,
                     {KernelArg::buffer(*bufIn), KernelArg::buffer(*bufOut),
                      KernelArg::localMemory(group * sizeof(int32_t))},
                     NDRange(n), NDRange(group));
  ASSERT_TRUE(run) << run.error().message();
  std::vector<int32_t> out = download<int32_t>(*bufOut);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], in[i / group * group + group - 1 - i % group]) << i;

  // More local memory than the device has is refused before the driver.
  uint64_t tooMuch = device->profile().localMemBytes + 1;
  run = device->launch(*kernel,
                       {KernelArg::buffer(*bufIn), KernelArg::buffer(*bufOut),
                        KernelArg::localMemory(tooMuch)},
                       NDRange(n), NDRange(group));
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().message().find(
                "running kernel 'reverseGroups' (global size 256, local "
                "size 16) on device '" +
                device->profile().name + "': it needs " +
                std::to_string(tooMuch) + " bytes of local memory"),
            std::string::npos)
      << run.error().message();
}

TEST_F(DeviceTest, TwoDimensionalLaunch) {
  Expected<Kernel> kernel = buildKernel(R"(
kernel void coords(global int *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = (int)(x + 1000 * y);
}
)",
                                        "coords");
  ASSERT_TRUE(kernel) << kernel.error().message();
  const size_t width = 12, height = 8;
  Expected<Buffer> out = upload(std::vector<int32_t>(width * height, -1));
  ASSERT_TRUE(out);
  Expected<Event> run = device->launch(*kernel, {KernelArg::buffer(*out)},
                                       NDRange(width, height), NDRange(4, 2));
  ASSERT_TRUE(run) << run.error().message();
  std::vector<int32_t> values = download<int32_t>(*out);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x)
      ASSERT_EQ(values[y * width + x], static_cast<int32_t>(x + 1000 * y));
}

TEST_F(DeviceTest, BadLaunchesSayWhatIsWrong) {
  Expected<Kernel> kernel = buildKernel(kVectorAdd, "vadd");
  ASSERT_TRUE(kernel) << kernel.error().message();
  Expected<Buffer> buffer = device->allocate(64 * sizeof(float), "x");
  ASSERT_TRUE(buffer);
  std::vector<KernelArg> args = {
      KernelArg::buffer(*buffer), KernelArg::buffer(*buffer),
      KernelArg::buffer(*buffer), KernelArg::scalar<uint32_t>(64)};
  auto failure = [&](std::vector<KernelArg> launchArgs, NDRange global,
                     std::optional<NDRange> local) {
    Expected<Event> run = device->launch(*kernel, launchArgs, global, local);
    if (run)
      return std::string("launched");
    std::string prefix = "running kernel 'vadd' (global size ";
    const std::string &message = run.error().message();
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
    return message.substr(message.find("': ") + 3);
  };
  EXPECT_EQ(failure({args[0], args[1], args[2]}, NDRange(64), std::nullopt),
            "the kernel takes 4 arguments, 3 were given");
  EXPECT_EQ(failure(args, NDRange(64), NDRange(48)),
            "the global size is not a multiple of the local size in "
            "dimension 0");
  EXPECT_EQ(failure(args, NDRange(64), NDRange(8, 8)),
            "the local size has 2 dimensions, the global size 1");
  EXPECT_EQ(failure(args, NDRange(0), std::nullopt),
            "the global size is zero in some dimension");
  EXPECT_EQ(failure(args, NDRange(64), NDRange(0)),
            "the local size is zero in dimension 0");
  ASSERT_TRUE(device->finish());
}

TEST_F(DeviceTest, TransfersAsyncAndOutOfRange) {
  std::vector<int32_t> values(1000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int32_t>(i * 7);
  size_t bytes = values.size() * sizeof(int32_t);
  Expected<Buffer> buffer = device->allocate(bytes, "values");
  ASSERT_TRUE(buffer) << buffer.error().message();
  EXPECT_EQ(buffer->size(), bytes);
  EXPECT_EQ(buffer->name(), "values");

  Expected<Event> written = device->writeAsync(*buffer, values.data(), bytes);
  ASSERT_TRUE(written) << written.error().message();
  // Read back the second half only, behind the write on the in-order queue.
  std::vector<int32_t> half(500, -1);
  Expected<Event> read = device->readAsync(
      *buffer, half.data(), 500 * sizeof(int32_t), 500 * sizeof(int32_t));
  ASSERT_TRUE(read) << read.error().message();
  ASSERT_TRUE(read->wait());
  EXPECT_TRUE(std::equal(half.begin(), half.end(), values.begin() + 500));
  EXPECT_TRUE(written->timing());

  Status outside = device->read(*buffer, half.data(), 8, bytes - 4);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().message(),
            "reading 8 bytes from buffer 'values' at offset 3996: outside the "
            "buffer, which holds 4000 bytes");

  // Empty transfers and buffers are fine.
  EXPECT_TRUE(device->write(*buffer, nullptr, 0));
  Expected<Buffer> empty = device->allocate(0, "empty");
  ASSERT_TRUE(empty) << empty.error().message();
  EXPECT_TRUE(device->read(*empty, nullptr, 0));
}

TEST_F(DeviceTest, AllocationsBeyondTheProfileAreRefused) {
  uint64_t maxAlloc = device->profile().maxAllocBytes;
  Expected<Buffer> huge = device->allocate(maxAlloc + 1, "huge");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().message(),
            "allocating buffer 'huge' of " + std::to_string(maxAlloc + 1) +
                " bytes on device '" + device->profile().name +
                "': larger than the device's largest allocation, " +
                std::to_string(maxAlloc) +
                " bytes (max_alloc_bytes of its profile)");
  EXPECT_EQ(huge.error().driverCode(), 0);
}

TEST_F(DeviceTest, ProfileOverridesPretendASmallerDevice) {
  ASSERT_TRUE(applyProfileOverrides(
      descriptor.profile,
      R"({"max_alloc_bytes": 1024, "max_work_group_size": 16})", "small.json"));
  open();
  EXPECT_TRUE(device->allocate(1024, "fits"));
  Expected<Buffer> tooBig = device->allocate(1025, "too big");
  ASSERT_FALSE(tooBig);
  EXPECT_NE(tooBig.error().message().find("largest allocation, 1024 bytes"),
            std::string::npos);

  Expected<Kernel> kernel = buildKernel(kVectorAdd, "vadd");
  ASSERT_TRUE(kernel) << kernel.error().message();
  Expected<Buffer> buffer = device->allocate(128, "x");
  ASSERT_TRUE(buffer);
  Expected<Event> run = device->launch(
      *kernel,
      {KernelArg::buffer(*buffer), KernelArg::buffer(*buffer),
       KernelArg::buffer(*buffer), KernelArg::scalar<uint32_t>(32)},
      NDRange(32), NDRange(32));
  ASSERT_FALSE(run);
  EXPECT_EQ(
      run.error().message(),
      "running kernel 'vadd' (global size 32, local size 32) on device '" +
          device->profile().name +
          "': the work-group of 32 work-items exceeds the device's "
          "maximum, 16");
}
