//===- VulkanTest.cpp - The JIT on a Vulkan device ------------------------===//

#include "JITFixture.h"

namespace tilec::jit::testing {
namespace {

class VulkanTest : public JITFixture {
protected:
  void SetUp() override {
    JITFixture::SetUp();
    Expected<std::vector<DeviceInfo>> devices = listDevices(Backend::Vulkan);
    ASSERT_TRUE(devices) << devices.error().describe();
    if (devices->empty())
      GTEST_SKIP() << "no Vulkan device";
  }

  ContextOptions vulkanOptions() const {
    ContextOptions vulkan = options();
    vulkan.backend = Backend::Vulkan;
    return vulkan;
  }
};

TEST_F(VulkanTest, CompilesRunsAndChainsOnTheDevice) {
  std::optional<Context> context;
  ASSERT_TRUE(open(vulkanOptions(), context));
  EXPECT_EQ(context->backend(), Backend::Vulkan);
  Expected<CompiledProgram> matmul =
      context->compile(kMatmul, matmulOptions(5, 7, 6));
  Expected<CompiledProgram> scale =
      context->compile(kScale, {"", {{"X", DType::F32, {5, 6}}}});
  ASSERT_TRUE(matmul) << matmul.error().describe();
  ASSERT_TRUE(scale) << scale.error().describe();
  for (const BundleKernel &kernel : matmul->bundle().kernels)
    EXPECT_FALSE(kernel.spirv.empty()) << kernel.name;
  EXPECT_TRUE(matmul->bundle().openclSource.empty());

  HostTensor a =
      makeTensor({5, 7}, [](int64_t i) { return patternValue(i, 1); });
  HostTensor b =
      makeTensor({7, 6}, [](int64_t i) { return patternValue(i, 2); });
  HostTensor product = hostMatmul(a, b);
  Expected<std::vector<HostTensor>> onHost = matmul->run({a, b});
  ASSERT_TRUE(onHost) << onHost.error().describe();
  expectSameTensor((*onHost)[0], product);

  auto c = matmul->runOnDevice({&a, &b});
  ASSERT_TRUE(c) << c.error().describe();
  auto scaled = scale->runOnDevice({(*c)[0]});
  ASSERT_TRUE(scaled) << scaled.error().describe();
  tilec::Expected<HostTensor> y = (*scaled)[0]->read();
  ASSERT_TRUE(y) << y.error().message();
  expectSameTensor(*y, makeTensor({5, 6}, [&](int64_t i) {
    return 3 * product.getDouble(i);
  }));
}

TEST_F(VulkanTest, DiskCacheServesANewContext) {
  std::optional<Context> first, second;
  ASSERT_TRUE(open(vulkanOptions(), first));
  Expected<CompiledProgram> compiled =
      first->compile(kMatmul, matmulOptions(3, 4, 5));
  ASSERT_TRUE(compiled) << compiled.error().describe();
  EXPECT_EQ(compiled->origin(), ProgramOrigin::Compiled);

  ASSERT_TRUE(open(vulkanOptions(), second));
  Expected<CompiledProgram> loaded =
      second->compile(kMatmul, matmulOptions(3, 4, 5));
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_EQ(loaded->origin(), ProgramOrigin::DiskCache);
  HostTensor a =
      makeTensor({3, 4}, [](int64_t i) { return patternValue(i, 4); });
  HostTensor b =
      makeTensor({4, 5}, [](int64_t i) { return patternValue(i, 5); });
  Expected<std::vector<HostTensor>> outputs = loaded->run({a, b});
  ASSERT_TRUE(outputs) << outputs.error().describe();
  expectSameTensor((*outputs)[0], hostMatmul(a, b));

  // The OpenCL device's entry is another: the backend is in the key.
  std::optional<Context> onOpenCL;
  ASSERT_TRUE(open(options(), onOpenCL));
  Expected<CompiledProgram> openCL =
      onOpenCL->compile(kMatmul, matmulOptions(3, 4, 5));
  ASSERT_TRUE(openCL) << openCL.error().describe();
  EXPECT_EQ(openCL->origin(), ProgramOrigin::Compiled);
}

TEST_F(VulkanTest, DeviceTensorsDoNotCrossBackends) {
  std::optional<Context> vulkan, openCL;
  ASSERT_TRUE(open(vulkanOptions(), vulkan));
  ASSERT_TRUE(open(options(), openCL));
  Expected<CompiledProgram> onVulkan =
      vulkan->compile(kScale, {"", {{"X", DType::F32, {8}}}});
  Expected<CompiledProgram> onOpenCL =
      openCL->compile(kScale, {"", {{"X", DType::F32, {8}}}});
  ASSERT_TRUE(onVulkan && onOpenCL);
  HostTensor x = makeTensor({8}, [](int64_t i) { return double(i); });
  auto made = onVulkan->runOnDevice({&x});
  ASSERT_TRUE(made);
  auto refused = onOpenCL->runOnDevice({(*made)[0]});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind(), ErrorKind::InvalidArgument);
}

} // namespace
} // namespace tilec::jit::testing
