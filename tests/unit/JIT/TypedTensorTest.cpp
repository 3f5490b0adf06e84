//===- TypedTensorTest.cpp - Host tensors from and as C++ arrays ----------===//

#include "JITFixture.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tilec::jit::testing {
namespace {

/// from<T> makes a tensor of T's dtype holding the values; view<T> shows
/// them in place; every other element type is refused.
template <class T>
void expectRoundTrip(DType dtype, std::initializer_list<T> values) {
  tilec::Expected<HostTensor> tensor =
      HostTensor::from<T>({static_cast<int64_t>(values.size())},
                          Span<const T>(values.begin(), values.size()));
  ASSERT_TRUE(tensor) << tensor.error().message();
  EXPECT_EQ(tensor->dtype(), dtype);
  EXPECT_EQ(tensor->shape(), Shape{static_cast<int64_t>(values.size())});
  tilec::Expected<Span<const T>> view = tensor->template view<T>();
  ASSERT_TRUE(view) << view.error().message();
  ASSERT_EQ(view->size(), values.size());
  EXPECT_EQ(
      std::memcmp(view->data(), values.begin(), values.size() * sizeof(T)), 0);
  // The view is the tensor's storage, not a copy.
  EXPECT_EQ(static_cast<const void *>(view->data()),
            static_cast<const void *>(tensor->data()));
  EXPECT_EQ(dtypeOf<T>, dtype);
  EXPECT_EQ(sizeof(T), dtypeSize(dtype));
}

TEST(TypedTensorTest, EveryDTypeHasAnElementType) {
  expectRoundTrip<bool>(DType::Bool, {true, false, true});
  expectRoundTrip<int8_t>(DType::I8, {-128, 0, 127});
  expectRoundTrip<int16_t>(DType::I16, {-32768, 1, 32767});
  expectRoundTrip<int32_t>(DType::I32,
                           {std::numeric_limits<int32_t>::min(), 7});
  expectRoundTrip<int64_t>(DType::I64, {std::numeric_limits<int64_t>::max()});
  expectRoundTrip<uint8_t>(DType::U8, {0, 255});
  expectRoundTrip<uint16_t>(DType::U16, {65535});
  expectRoundTrip<uint32_t>(DType::U32, {4000000000u});
  expectRoundTrip<uint64_t>(DType::U64, {std::numeric_limits<uint64_t>::max()});
  expectRoundTrip<Half>(DType::F16, {Half(1.5f), Half(-65504.0f)});
  expectRoundTrip<BFloat16>(DType::BF16, {BFloat16(3.0f), BFloat16(-0.5f)});
  expectRoundTrip<float>(DType::F32, {1.5f, -2.25f, 1e30f});
  expectRoundTrip<double>(DType::F64, {1e300, -0.0});
}

TEST(TypedTensorTest, SixteenBitFloatsConvertAsTheTensorDoes) {
  tilec::Expected<HostTensor> half =
      HostTensor::from<Half>({3}, {Half(0.1f), Half(70000.0f), Half(-2.0f)});
  ASSERT_TRUE(half);
  EXPECT_EQ(half->getDouble(0), halfToDouble(doubleToHalf(0.1f)));
  EXPECT_TRUE(std::isinf(half->getDouble(1)));
  EXPECT_EQ(float((*half->view<Half>())[2]), -2.0f);
  tilec::Expected<HostTensor> bf16 = HostTensor::from<BFloat16>({1}, {1.0f});
  ASSERT_TRUE(bf16);
  EXPECT_EQ(bf16->getDouble(0), 1.0);
}

TEST(TypedTensorTest, FromTakesBracedListsAndVectors) {
  tilec::Expected<HostTensor> matrix =
      HostTensor::from<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(matrix) << matrix.error().message();
  EXPECT_EQ(matrix->shape(), (Shape{2, 3}));
  EXPECT_EQ(matrix->getDouble(5), 6.0);
  const std::vector<int32_t> values = {4, 5};
  tilec::Expected<HostTensor> deduced = HostTensor::from({2}, values);
  ASSERT_TRUE(deduced);
  EXPECT_EQ(deduced->dtype(), DType::I32);
  tilec::Expected<HostTensor> scalar = HostTensor::from<double>({}, {2.5});
  ASSERT_TRUE(scalar);
  EXPECT_EQ(scalar->rank(), 0);
  EXPECT_EQ(scalar->getDouble(0), 2.5);
}

TEST(TypedTensorTest, SpanWritesInPlace) {
  HostTensor tensor(DType::I16, {2, 2});
  tilec::Expected<Span<int16_t>> elements = tensor.span<int16_t>();
  ASSERT_TRUE(elements);
  int16_t next = -1;
  for (int16_t &element : *elements)
    element = next--;
  EXPECT_EQ(tensor.getInt(3), -4);
}

TEST(TypedTensorTest, MismatchesAreErrorsNotReinterpretations) {
  HostTensor tensor(DType::F32, {2, 3});
  tilec::Expected<Span<const int32_t>> asInt = tensor.view<int32_t>();
  ASSERT_FALSE(asInt);
  EXPECT_EQ(asInt.error().message(),
            "the elements of a tensor of f32[2, 3] are not i32 values");
  EXPECT_FALSE(tensor.span<double>());
  // uint16_t is u16, not the bits of f16.
  EXPECT_FALSE(HostTensor(DType::F16, {1}).view<uint16_t>());

  tilec::Expected<HostTensor> tooFew = HostTensor::from<float>({2, 3}, {1, 2});
  ASSERT_FALSE(tooFew);
  EXPECT_EQ(tooFew.error().message(),
            "2 values for a tensor of f32[2, 3], which holds 6");
  tilec::Expected<HostTensor> huge = HostTensor::from<float>(
      {int64_t(1) << 40, int64_t(1) << 40}, Span<const float>());
  ASSERT_FALSE(huge);
  EXPECT_NE(huge.error().message().find("too large"), std::string::npos)
      << huge.error().message();
  tilec::Expected<HostTensor> negative = HostTensor::from<float>({-1}, {});
  EXPECT_FALSE(negative);
}

} // namespace
} // namespace tilec::jit::testing
