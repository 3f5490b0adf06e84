#!/usr/bin/env bash
# Packs a Release build for a GPU machine that has the vendor's OpenCL and Vulkan drivers but none of
# Debian's LLVM/MLIR: fills .device/ (git-ignored) with tilec, tile-run, the CLBlast baseline, the
# Mandelbrot and training examples, every shared library they need that such a machine lacks
# (binaries and libraries xz-compressed where over 256 KiB; .device/setup.sh unpacks them), the OpenCL/Vulkan loader
# packages, clinfo and lit. With --lavapipe it adds Mesa's lavapipe (this machine's, with the LLVM it
# links: about 33 MB more), a second Vulkan implementation on the CPU that the difftest runs the GPU's
# own SPIR-V on (docs/testing.md, `vulkan-driver-miscompile`). Each --build LABEL=DIR adds the tilec of
# another build tree (DIR/bin/tilec, with its DIR/lib/libtilec_runtime) as .device/builds/LABEL, for
# the `compare` stage of gpu-run.sh (bench/compare_builds.py); the packed build itself is labelled by
# its commit.
# Run after building build/; then take .device along and start the command there with
#   source .device/setup.sh && bash bench/gpu-run.sh
set -euo pipefail
lavapipe=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
with_lavapipe=false
builds=()
usage() { echo "usage: bash bench/pack-gpu.sh [--lavapipe] [--build LABEL=DIR]..." >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --lavapipe) with_lavapipe=true ;;
  --build)
    [ $# -ge 2 ] && [[ "$2" == *=* ]] || usage
    builds+=("$2")
    shift
    ;;
  *) usage ;;
  esac
  shift
done
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p "$(git rev-parse --git-path info)"
grep -qxF '/.device/' "$(git rev-parse --git-path info/exclude)" 2>/dev/null ||
  echo '/.device/' >> "$(git rev-parse --git-path info/exclude)"
rm -rf .device
mkdir -p .device/bin .device/lib .device/deb
bins=(build/bin/tilec build/bin/tile-run build/bin/tile-difftest-worker build/bin/clblast_sgemm build/examples/mandelbrot
  build/examples/train_cnn /usr/lib/llvm-19/bin/FileCheck)
# The C library, the C++ runtime and the loaders are the machine's own.
skip='^(linux-vdso|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|ld-linux|libstdc\+\+|libgcc_s|libOpenCL\.so|libvulkan\.so)'
copy_libraries() { # the libraries that $1 needs
  ldd "$1" | awk '/=> \//{print $1" "$3}' | while read -r name path; do
    [[ "$name" =~ $skip ]] && continue
    [ -e ".device/lib/$name" ] || cp -L "$path" ".device/lib/$name"
  done
}
for b in "${bins[@]}"; do
  cp "$b" .device/bin/
  copy_libraries "$b"
done
if $with_lavapipe; then
  cp "$lavapipe" .device/lib/
  copy_libraries "$lavapipe"
  # The loader finds the library through LD_LIBRARY_PATH, which setup.sh points at .device/lib.
  mkdir -p .device/icd
  printf '{"file_format_version": "1.0.0", "ICD": {"library_path": "%s", "api_version": "1.1.230"}}\n' \
    "$(basename "$lavapipe")" > .device/icd/lvp_icd.json
fi
# The packed build's label, and the other builds' tilec with the runtime library it links.
git describe --always --dirty > .device/label
for build in ${builds[@]+"${builds[@]}"}; do
  label=${build%%=*}
  dir=${build#*=}
  mkdir -p ".device/builds/$label/bin" ".device/builds/$label/lib"
  cp "$dir/bin/tilec" ".device/builds/$label/bin/"
  cp -L "$dir"/lib/libtilec_runtime.so.* ".device/builds/$label/lib/"
done
# Compress each large binary and library once per machine (the tools hold LLVM and MLIR: about 60 s).
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tilec-device-pack"
mkdir -p "$cache"
for f in .device/bin/* .device/lib/* .device/builds/*/*/*; do
  [ -f "$f" ] || continue
  [ "$(stat -c %s "$f")" -gt 262144 ] || continue
  key="$cache/$(basename "$f").$(sha1sum "$f" | cut -c1-12).xz"
  [ -e "$key" ] || xz -T2 -6 -c "$f" > "$key"
  cp "$key" "$f.xz"
  rm -f "$f"
done
# NVIDIA's Vulkan driver lives in its GLX library, which needs the GL vendor-neutral dispatch.
(cd .device/deb && apt-get download -qq libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 \
  libgles2 ocl-icd-libopencl1 clinfo >/dev/null 2>&1) ||
  echo "pack-gpu.sh: could not download the loader packages (apt-get update first?)"
mkdir -p .device/lit
cp -r /usr/lib/llvm-19/build/utils/lit/lit /usr/lib/llvm-19/build/utils/lit/lit.py .device/lit/
cp bench/device-setup.sh .device/setup.sh
du -sh .device
