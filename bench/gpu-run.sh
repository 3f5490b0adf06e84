#!/usr/bin/env bash
# One command for the GPU machine (shared/device/README.md): the device list,
# the end-to-end suite on the GPU's OpenCL device and on its Vulkan device
# (without the validation layer, which does not fit the pack), tilec's 4096^3
# SGEMM through OpenCL and Vulkan beside CLBlast's in the same run, and the
# Mandelbrot example's GPU-vs-CPU table. Logs go to $OUT (or /tmp/gpu-run).
# Prepare here with bench/pack-gpu.sh; there, run:
#   source .device/setup.sh && bash bench/gpu-run.sh
set -uo pipefail
out=${OUT:-/tmp/gpu-run}
mkdir -p "$out"
root=$(pwd)

{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  clinfo -l
  tilec devices
} 2>&1 | tee "$out/devices.txt"

# The bench first, on an idle GPU.
{
  for n in 4096 8192; do
    tilec compile examples/matmul.tile --arg "A=f32[$n,$n]" --arg "B=f32[$n,$n]" \
      --device NVIDIA --explain
    tilec bench examples/matmul.tile --arg "A=f32[$n,$n]" --arg "B=f32[$n,$n]" \
      --device NVIDIA --repeat 20
    tilec bench examples/matmul.tile --arg "A=f32[$n,$n]" --arg "B=f32[$n,$n]" \
      --backend vulkan --device NVIDIA --repeat 20
    clblast_sgemm "$n" "$n" "$n" 20 NVIDIA
  done
} 2>&1 | tee "$out/bench.txt"

# The e2e suite against the reference interpreter, on the GPU.
for backend in opencl vulkan; do
  site=/tmp/tilec-e2e-site-$backend
  mkdir -p "$site"
  cat > "$site/lit.site.cfg.py" <<SITE
config.tilec_tools_dir = "$root/.device/bin"
config.llvm_tools_dir = "$root/.device/bin"
config.tilec_obj_root = "/tmp/tilec-e2e-obj"
config.tilec_e2e_backend = "$backend"
lit_config.load_config(config, "$root/tests/e2e/lit.cfg.py")
SITE
  log=$out/e2e.txt
  [ "$backend" = vulkan ] && log=$out/e2e-vulkan.txt
  TILEC_E2E_DEVICE=NVIDIA TILEC_E2E_VULKAN_DEVICE=NVIDIA TILEC_E2E_SKIP_OCLGRIND=1 \
    TILEC_E2E_SKIP_VALIDATION=1 python3 .device/lit/lit.py -v -j 16 \
    --filter-out 'oclgrind-harness|spirv-harness' "$site" 2>&1 | tee "$log"
done

# The Mandelbrot example on the default device (the GPU) against one CPU core.
TILEC_CACHE_DIR=/tmp/tilec-cache mandelbrot --sizes 500,1000,2000,4000,8000,15000 \
  --image "$out/mandelbrot.ppm" 2>&1 | tee "$out/mandelbrot.txt"
rm -f "$out/mandelbrot.ppm"

