#!/usr/bin/env bash
# Packs what bench/gpu-run.sh needs into .device/ (git-ignored): tilec,
# tile-run, the CLBlast baseline and their libraries (shared/device/pack.sh),
# lit to drive the end-to-end suite there, and the Vulkan validation layer
# (xz-compressed) for the suite's Vulkan run. Run after building build/.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
bash ../shared/device/pack.sh build/bin/tilec build/bin/tile-run build/bin/clblast_sgemm
cp -r /usr/lib/llvm-19/build/utils/lit .device/lit
mkdir -p .device/layers
xz -T2 -c /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so \
  > .device/layers/libVkLayer_khronos_validation.so.xz
cp /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json .device/layers/
du -sh .device
