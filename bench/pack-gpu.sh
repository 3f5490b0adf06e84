#!/usr/bin/env bash
# Packs what bench/gpu-run.sh needs into .device/ (git-ignored): tilec,
# tile-run, the CLBlast baseline and their libraries (shared/device/pack.sh),
# and lit to drive the end-to-end suite there. Run after building build/.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
bash ../shared/device/pack.sh build/bin/tilec build/bin/tile-run build/bin/clblast_sgemm
cp -r /usr/lib/llvm-19/build/utils/lit .device/lit
du -sh .device
