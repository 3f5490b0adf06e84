#!/usr/bin/env bash
# Installs every Debian package tilec needs (skipping those present), then configures and builds.
# Idempotent: a second run only rebuilds what changed. Run as root on Debian 12 (bookworm).
#   bash scripts/setup.sh            install + configure + build (Release, build/)
#   TILEC_BUILD_DIR=dir              build somewhere else
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}

packages=(
  # compiler toolchain: LLVM/MLIR 19 pinned (newer majors conflict), lit's FileCheck, lld
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools lld-19
  cmake ninja-build g++ python3 libgtest-dev
  # OpenCL: ICD loader, headers, PoCL as the CPU device, oclgrind for race/bounds checks
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo oclgrind
  # Vulkan: loader, lavapipe (CPU device), validation layers; SPIR-V tools and SPIRV-Cross
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers spirv-tools libspirv-cross-c-shared-dev
  # runtime libraries and test data
  nlohmann-json3-dev libxxhash-dev python3-numpy
  # examples/train_cnn: reading the gzipped IDX files of Fashion-MNIST, and the data set itself
  zlib1g-dev dataset-fashion-mnist
  # examples/mandelbrot: writing its image as a PNG
  libpng-dev
  # docs/images/pipeline.py (the docs' pipeline picture, tested) and bench/run.py's plots
  python3-matplotlib
  # python/examples/mandelbrot.py: writing its image as a PNG (and its test reading it)
  python3-pil
  # the command-line parser of tilec and tile-run (header-only)
  libcli11-dev
  # the allocator of tilec, tile-opt and tile-translate (cmake/Allocator.cmake)
  libmimalloc-dev
  # the CLBlast SGEMM baseline of bench/
  libclblast-dev
  # the Python package (python/) and its tests
  pybind11-dev python3-pytest
  # clang and its libFuzzer/sanitizer runtimes, for the fuzzers (tests/fuzz, -DTILEC_FUZZERS=ON)
  clang-19 libclang-rt-19-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
    -DLLVM_USE_LINKER=lld
fi
# Ninja runs as many jobs as the machine has cores (plus two) unless told otherwise.
cmake --build "$build"
