//===- clblast_sgemm.cpp - The SGEMM baseline for tilec's matmul ----------===//
//
// Times CLBlast's SGEMM on one OpenCL device (median of the timed runs after
// a warm-up) so that `tilec bench`'s figure can be compared with it as a
// ratio in one run. The host clock around a call and clFinish also counts
// the launch overhead (microseconds), which favours tilec's event times by
// well under 1% at the sizes compared.
//
//   clblast_sgemm M N K [repeats] [device-name-substring]
//
//===----------------------------------------------------------------------===//

#include <clblast.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static cl_device_id findDevice(const char *nameFilter) {
  cl_uint numPlatforms = 0;
  clGetPlatformIDs(0, nullptr, &numPlatforms);
  std::vector<cl_platform_id> platforms(numPlatforms);
  clGetPlatformIDs(numPlatforms, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    cl_uint numDevices = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &numDevices) !=
        CL_SUCCESS)
      continue;
    std::vector<cl_device_id> devices(numDevices);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, numDevices, devices.data(),
                   nullptr);
    for (cl_device_id device : devices) {
      char name[256] = {};
      cl_device_type type = 0;
      clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
      clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
      bool match = nameFilter ? std::strstr(name, nameFilter) != nullptr
                              : (type & CL_DEVICE_TYPE_GPU) != 0;
      if (match)
        return device;
    }
  }
  return nullptr;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: clblast_sgemm M N K [repeats] [device-name]\n");
    return 2;
  }
  size_t m = std::strtoull(argv[1], nullptr, 10);
  size_t n = std::strtoull(argv[2], nullptr, 10);
  size_t k = std::strtoull(argv[3], nullptr, 10);
  int repeats = argc > 4 ? std::atoi(argv[4]) : 10;
  cl_device_id device = findDevice(argc > 5 ? argv[5] : nullptr);
  if (!device) {
    std::fprintf(stderr, "clblast_sgemm: no matching OpenCL device\n");
    return 3;
  }
  char deviceName[256] = {};
  clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof deviceName, deviceName,
                  nullptr);

  cl_int status;
  cl_context context =
      clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  cl_command_queue queue =
      clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  std::vector<float> a(m * k), b(k * n);
  unsigned seed = 1;
  for (float &x : a)
    x = static_cast<float>((seed = seed * 1103515245 + 12345) >> 16) /
            65536.0f -
        0.5f;
  for (float &x : b)
    x = static_cast<float>((seed = seed * 1103515245 + 12345) >> 16) /
            65536.0f -
        0.5f;
  cl_mem bufA = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               a.size() * 4, a.data(), &status);
  cl_mem bufB = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               b.size() * 4, b.data(), &status);
  cl_mem bufC =
      clCreateBuffer(context, CL_MEM_READ_WRITE, m * n * 4, nullptr, &status);

  // CLBlast may run several kernels for one GEMM (pre-processing, the main
  // kernel, ...) and its event covers only the last, so each run is timed on
  // the host from the call to the queue's completion.
  std::vector<double> millis;
  for (int run = -1; run < repeats; ++run) {
    auto start = std::chrono::steady_clock::now();
    clblast::StatusCode code = clblast::Gemm<float>(
        clblast::Layout::kRowMajor, clblast::Transpose::kNo,
        clblast::Transpose::kNo, m, n, k, 1.0f, bufA, 0, k, bufB, 0, n, 0.0f,
        bufC, 0, n, &queue, nullptr);
    if (code != clblast::StatusCode::kSuccess) {
      std::fprintf(stderr, "clblast_sgemm: CLBlast error %d\n",
                   static_cast<int>(code));
      return 3;
    }
    clFinish(queue);
    auto end = std::chrono::steady_clock::now();
    if (run >= 0) // run -1 warms up (compiles CLBlast's kernels)
      millis.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(millis.begin(), millis.end());
  double median = millis[millis.size() / 2];
  double gflops = 2.0 * m * n * k / (median * 1e-3) / 1e9;
  std::printf("clblast sgemm %zux%zux%zu on %s: median %.3f ms, %.1f GFLOP/s "
              "(%d runs)\n",
              m, n, k, deviceName, median, gflops, repeats);
  clReleaseMemObject(bufA);
  clReleaseMemObject(bufB);
  clReleaseMemObject(bufC);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
