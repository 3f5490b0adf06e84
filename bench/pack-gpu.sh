#!/usr/bin/env bash
# Packs what bench/gpu-run.sh needs into .device/ (git-ignored): tilec,
# tile-run, the CLBlast baseline, the Mandelbrot example and their libraries
# (shared/device/pack.sh), and lit to drive the end-to-end suite there. Run
# after building build/. The tree and .device must stay under 64 MiB, so every
# library over 256 KiB is xz-compressed (setup.sh unpacks lib/*.xz), and the
# Vulkan validation layer (22 MB) stays here: the GPU run of the suite on
# Vulkan is without it, CI's run on lavapipe is under it.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
bash ../shared/device/pack.sh build/bin/tilec build/bin/tile-run \
  build/bin/clblast_sgemm build/examples/mandelbrot
for f in .device/lib/*; do
  case $f in *.xz) continue ;; esac
  [ "$(stat -c %s "$f")" -gt 262144 ] || continue
  xz -T2 -6 "$f"
done
cp -r /usr/lib/llvm-19/build/utils/lit .device/lit
du -sh .device
