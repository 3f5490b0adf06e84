//===- mandelbrot.cpp - The Mandelbrot set on a device and on the host ---===//
//
// mandelbrot [--sizes S1,S2,...] [--image FILE.png]
//
// Renders the Mandelbrot set over [-2, 1] x [-1.5, 1.5] at S x S pixels
// (100 iterations of z = z^2 + c) with Tile kernels on the default device,
// and with a plain single-threaded C++ loop, for each size (default 500 to
// 15000), printing a table of both times; sizes whose buffers exceed the
// device's memory are skipped. --image writes the image of the first size
// rendered, as a PNG through libpng.
//
// Tile has no loops, so the iteration is unrolled: one program runs four
// iterations on every pixel, and the host calls it repeatedly with the state
// (z and the iteration count) kept on the device between calls. Four is what
// fits a kernel: the compiler fuses the unrolled statements into one kernel
// and refuses one whose registers exceed the device's budget. A pixel that
// has escaped (|z| > 2) keeps its z, so its count stops there, as the host
// loop's `while` does. Both sides compute in f32 in the same order without
// contraction, so the counts must agree exactly: the example fails if any
// pixel differs.
//
//===----------------------------------------------------------------------===//

#include "Support.h"

#include <png.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace tilec;

namespace {

constexpr int kIterations = 100;
/// Iterations per call: few enough that the fused kernel fits the register
/// budget of every device with a margin (8 already exceed PoCL's).
constexpr int kUnroll = 4;
static_assert(kIterations % kUnroll == 0, "whole calls only");

/// The state of every pixel on the device: z = X + iY and the count N.
struct DeviceState {
  std::shared_ptr<DeviceTensor> x, y, count;
};

/// Re c of each column and Im c of each row of a size x size image.
struct Plane {
  std::vector<float> re, im;
};

/// The two functions, each compiled for every image size it is called with.
struct MandelbrotFunctions {
  jit::Function start, step;
};

} // namespace

/// A Tile function that runs kUnroll iterations on an H x W image whose
/// column j has Re c = Cr[j] and row i has Im c = Ci[i]. With `fromOrigin`
/// it starts at z = 0 (mandelbrot_start(Cr, Ci)); otherwise it continues
/// from a state (mandelbrot_step(X0, Y0, N0, Cr, Ci)).
static std::string mandelbrotSource(bool fromOrigin) {
  std::ostringstream os;
  if (fromOrigin) {
    os << "function mandelbrot_start(Cr[W], Ci[H])";
  } else {
    os << "function mandelbrot_step(X0[H, W], Y0[H, W], N0[H, W], Cr[W], "
          "Ci[H])";
  }
  os << " -> (X" << kUnroll << ", Y" << kUnroll << ", N" << kUnroll << ") {\n"
     << "  CiColumn = reshape(Ci, H, 1);\n";
  if (fromOrigin) {
    os << "  X0 = 0 * Cr + 0 * CiColumn;\n"
       << "  Y0 = X0;\n"
       << "  N0 = as_int(X0, 32);\n";
  }
  for (int k = 1; k <= kUnroll; ++k) {
    int p = k - 1;
    os << "  In" << k << " = X" << p << " * X" << p << " + Y" << p << " * Y"
       << p << " <= 4;\n"
       << "  X" << k << " = select(In" << k << ", X" << p << " * X" << p
       << " - Y" << p << " * Y" << p << " + Cr, X" << p << ");\n"
       << "  Y" << k << " = select(In" << k << ", 2 * X" << p << " * Y" << p
       << " + CiColumn, Y" << p << ");\n"
       << "  N" << k << " = N" << p << " + as_int(In" << k << ", 32);\n";
  }
  os << "}\n";
  return os.str();
}

static Plane makePlane(int64_t size) {
  Plane plane{std::vector<float>(size), std::vector<float>(size)};
  const double step = 3.0 / static_cast<double>(size);
  for (int64_t i = 0; i < size; ++i) {
    plane.re[i] = static_cast<float>(-2.0 + (i + 0.5) * step);
    plane.im[i] = static_cast<float>(-1.5 + (i + 0.5) * step);
  }
  return plane;
}

/// The reference: the iteration count of every pixel, row by row, computed
/// as the Tile program does, with the same f32 operations in the same order.
static std::vector<int32_t> renderOnHost(const Plane &plane) {
  const size_t size = plane.re.size();
  std::vector<int32_t> counts(size * size);
  for (size_t row = 0; row < size; ++row) {
    for (size_t column = 0; column < size; ++column) {
      float x = 0.0f, y = 0.0f;
      int32_t count = 0;
      while (count < kIterations && x * x + y * y <= 4.0f) {
        float nextX = x * x - y * y + plane.re[column];
        y = 2.0f * x * y + plane.im[row];
        x = nextX;
        ++count;
      }
      counts[row * size + column] = count;
    }
  }
  return counts;
}

static MandelbrotFunctions loadFunctions(const jit::Context &context) {
  return {examples::valueOrExit(context.load(mandelbrotSource(true), "",
                                             "mandelbrot_start.tile")),
          examples::valueOrExit(context.load(mandelbrotSource(false), "",
                                             "mandelbrot_step.tile"))};
}

/// Compiles both functions for size x size images (or finds them in the
/// kernel cache), so that rendering does not time it.
static void compileFor(const MandelbrotFunctions &functions, int64_t size) {
  const jit::InputType line{DType::F32, {size}};
  const jit::InputType image{DType::F32, {size, size}};
  examples::valueOrExit(functions.start.specialize({line, line}));
  examples::valueOrExit(functions.step.specialize(
      {image, image, {DType::I32, {size, size}}, line, line}));
}

/// Runs every iteration on the device, the state staying there between
/// calls; returns the counts, read back to the host.
static std::vector<int32_t> renderOnDevice(const MandelbrotFunctions &functions,
                                           const Plane &plane) {
  const int64_t size = static_cast<int64_t>(plane.re.size());
  const HostTensor re =
      examples::valueOrExit(HostTensor::from({size}, plane.re));
  const HostTensor im =
      examples::valueOrExit(HostTensor::from({size}, plane.im));
  auto toState = [](jit::DeviceOutputs outputs) {
    return DeviceState{outputs[0], outputs[1], outputs[2]};
  };
  DeviceState state =
      toState(examples::valueOrExit(functions.start.runOnDevice({&re, &im})));
  for (int done = kUnroll; done < kIterations; done += kUnroll)
    state = toState(examples::valueOrExit(
        functions.step.runOnDevice({state.x, state.y, state.count, &re, &im})));
  HostTensor counts = examples::valueOrExit(state.count->read());
  Span<const int32_t> values = examples::valueOrExit(counts.view<int32_t>());
  return std::vector<int32_t>(values.begin(), values.end());
}

/// Writes `counts` as an 8-bit RGB PNG: black inside the set, a blue-to-white
/// ramp outside by escape time. libpng's simplified API reports a failure in
/// its return value and `message` (no setjmp); returns that message, empty on
/// success.
static std::string writeImage(const std::string &path, int64_t size,
                              const std::vector<int32_t> &counts) {
  std::vector<unsigned char> pixels;
  pixels.reserve(3 * counts.size());
  for (int32_t count : counts) {
    unsigned char pixel[3] = {0, 0, 0};
    if (count < kIterations) {
      double t = static_cast<double>(count) / kIterations;
      pixel[0] = static_cast<unsigned char>(255 * t);
      pixel[1] = static_cast<unsigned char>(255 * t);
      pixel[2] = static_cast<unsigned char>(128 + 127 * t);
    }
    pixels.insert(pixels.end(), pixel, pixel + 3);
  }
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(size);
  image.height = static_cast<png_uint_32>(size);
  image.format = PNG_FORMAT_RGB;
  if (png_image_write_to_file(&image, path.c_str(), /*convert_to_8bit=*/0,
                              pixels.data(), /*row_stride=*/0,
                              /*colormap=*/nullptr))
    return "";
  // The write functions have freed the image's internals already.
  return image.message[0] ? image.message : "libpng failed";
}

static double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

[[noreturn]] static void usageError(const std::string &message) {
  std::fprintf(stderr,
               "mandelbrot: error: %s\n"
               "usage: mandelbrot [--sizes S1,S2,...] [--image FILE.png]\n",
               message.c_str());
  std::exit(2);
}

/// Parses "500,1000": positive integers.
static std::vector<int64_t> parseSizes(const std::string &list) {
  std::vector<int64_t> sizes;
  std::istringstream stream(list);
  std::string item;
  while (std::getline(stream, item, ',')) {
    char *end = nullptr;
    long long size = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || size <= 0 || size > 1000000)
      usageError("'" + item + "' is not an image size (1 to 1000000)");
    sizes.push_back(size);
  }
  if (sizes.empty())
    usageError("--sizes lists no size");
  return sizes;
}

int main(int argc, char **argv) {
  std::vector<int64_t> sizes = {500, 1000, 2000, 4000, 8000, 15000};
  std::string imagePath;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--sizes" || arg == "--image") && i + 1 == argc)
      usageError(arg + " needs a value");
    if (arg == "--sizes")
      sizes = parseSizes(argv[++i]);
    else if (arg == "--image")
      imagePath = argv[++i];
    else
      usageError("unknown argument '" + arg + "'");
  }

  jit::Context context = examples::valueOrExit(jit::Context::create());
  const DeviceProfile &device = context.deviceProfile();
  std::printf("Mandelbrot set, %d iterations, device: %s\n", kIterations,
              device.name.c_str());
  std::printf("%13s %12s %12s %9s %17s\n", "size", "device (s)", "host (s)",
              "speed-up", "differing pixels");
  const MandelbrotFunctions functions = loadFunctions(context);
  int64_t totalDifferences = 0;
  bool imageWritten = false;
  for (int64_t size : sizes) {
    const std::string label = std::to_string(size) + "x" + std::to_string(size);
    // Two generations of the state (z and the count: 12 bytes a pixel) are
    // alive while a step runs.
    const uint64_t deviceBytes = 24 * static_cast<uint64_t>(size * size);
    if (deviceBytes > device.globalMemBytes) {
      std::printf("%13s skipped: needs %llu MiB of device memory, the device "
                  "has %llu MiB\n",
                  label.c_str(),
                  static_cast<unsigned long long>(deviceBytes >> 20),
                  static_cast<unsigned long long>(device.globalMemBytes >> 20));
      continue;
    }
    const Plane plane = makePlane(size);
    // Compiling is not timed: a real application compiles once (or finds
    // the programs in the kernel cache) and renders many frames.
    compileFor(functions, size);
    auto deviceStart = std::chrono::steady_clock::now();
    std::vector<int32_t> deviceCounts = renderOnDevice(functions, plane);
    double deviceSeconds = secondsSince(deviceStart);
    auto hostStart = std::chrono::steady_clock::now();
    std::vector<int32_t> hostCounts = renderOnHost(plane);
    double hostSeconds = secondsSince(hostStart);

    int64_t differences = 0;
    for (size_t i = 0; i < hostCounts.size(); ++i)
      differences += deviceCounts[i] != hostCounts[i];
    totalDifferences += differences;
    std::printf("%13s %12.3f %12.3f %9.3f %17lld\n", label.c_str(),
                deviceSeconds, hostSeconds, hostSeconds / deviceSeconds,
                static_cast<long long>(differences));
    std::fflush(stdout);
    if (!imagePath.empty() && !imageWritten) {
      std::string error = writeImage(imagePath, size, deviceCounts);
      if (!error.empty()) {
        std::fprintf(stderr, "mandelbrot: error: cannot write '%s': %s\n",
                     imagePath.c_str(), error.c_str());
        return 1;
      }
      std::printf("wrote %s (%s)\n", imagePath.c_str(), label.c_str());
      imageWritten = true;
    }
  }
  return totalDifferences == 0 ? 0 : 1;
}
