#!/usr/bin/env bash
# The GPU machine's run, in stages (all of them by default), logs and results in $OUT (or
# /tmp/gpu-run). Pack here with bench/pack-gpu.sh; there, from the project root:
#   source .device/setup.sh && bash bench/gpu-run.sh [devices] [bench[=REGEX]] [compare[=REGEX]] [e2e] [mandelbrot] \
#     [train[=EPOCHS]] [step]
# - devices: the GPU, its driver, the OpenCL platforms and what `tilec devices` sees;
# - bench: bench/run.py's table (the rows matching REGEX) on the NVIDIA device, beside PyTorch and
#   CLBlast, while the GPU is otherwise idle; with TILEC_BENCH_RESUME="A.json B.json", the rows that
#   none of those earlier reports holds, reported together with theirs (run.py --previous --missing);
# - compare[=REGEX]: bench/compare_builds.py on the rows matching REGEX, the packed build beside each
#   build that pack-gpu.sh --build packed (.device/builds/LABEL);
# - e2e: the end-to-end suite against the reference interpreter on the GPU's OpenCL device and on
#   its Vulkan device (without the validation layer, which is not packed);
# - mandelbrot: the Mandelbrot example's GPU-vs-CPU table, and the 500x500 image the GPU rendered;
# - train: examples/train_cnn on Fashion-MNIST (the directory $TILEC_TRAIN_DATA, default the Debian
#   package's) for EPOCHS epochs (default 12) on the NVIDIA device through OpenCL, then through
#   Vulkan, then bench/train_cnn_torch.py, the same network in PyTorch eager, on the same GPU. Not
#   among the default stages: the data set does not come with the pack;
# - step: the training step of train_cnn (batch 128) timed kernel by kernel by `tilec bench`
#   (train-step-opencl.txt, train-step-vulkan.txt), with the same data set;
# - difftest[=SECONDS]: tests/difftest/difftest.py --in-process for SECONDS (default 300) with a job
#   per core, from the seed $TILEC_DIFFTEST_START (default 20000000), OpenCL and Vulkan on the GPU
#   (with --other-vulkan-device llvmpipe where pack-gpu.sh --lavapipe packed it):
#   difftest.txt, and unexplained.tgz with each unexplained program, its inputs and every backend's
#   outputs (docs/testing.md).
set -uo pipefail
out=${OUT:-/tmp/gpu-run}
mkdir -p "$out"
root=$(pwd)
# The Tile library (import "tilec/...") of the tree, for every tool the stages run: the
# packed tools are not in the build tree, where they would find it.
export TILEC_LIBRARY_PATH="$root/lib/tile"
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(devices bench e2e mandelbrot)

for stage in "${stages[@]}"; do
  case $stage in
  devices)
    {
      date -u
      nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
      clinfo -l
      tilec devices
    } 2>&1 | tee "$out/devices.txt"
    ;;
  bench | bench=*)
    only=${stage#bench}
    only=${only#=}
    resume=()
    for json in ${TILEC_BENCH_RESUME:-}; do resume+=(--previous "$json"); done
    [ ${#resume[@]} -eq 0 ] || resume+=(--missing)
    PYTHONUNBUFFERED=1 python3 bench/run.py --device NVIDIA --name "${TILEC_BENCH_NAME:-gpu}" \
      --output-dir "$out" --only "$only" ${resume[@]+"${resume[@]}"} 2>&1 | tee -a "$out/bench.txt"
    ;;
  compare | compare=*)
    only=${stage#compare}
    only=${only#=}
    builds=(--build "$(cat .device/label)=$root/.device/bin/tilec")
    for dir in .device/builds/*/; do
      [ -e "$dir/bin/tilec" ] && builds+=(--build "$(basename "$dir")=$root/${dir}bin/tilec")
    done
    PYTHONUNBUFFERED=1 python3 bench/compare_builds.py --device NVIDIA \
      --name "${TILEC_BENCH_NAME:-gpu}" --output-dir "$out" --only "$only" "${builds[@]}" 2>&1 |
      tee -a "$out/compare.txt"
    ;;
  e2e)
    for backend in opencl vulkan; do
      site=/tmp/tilec-e2e-site-$backend
      mkdir -p "$site"
      cat > "$site/lit.site.cfg.py" <<SITE
config.tilec_tools_dir = "$root/.device/bin"
config.llvm_tools_dir = "$root/.device/bin"
config.tilec_obj_root = "/tmp/tilec-e2e-obj"
config.tilec_e2e_backend = "$backend"
config.tilec_python = "$(command -v python3)"
lit_config.load_config(config, "$root/tests/e2e/lit.cfg.py")
SITE
      TILEC_E2E_DEVICE=NVIDIA TILEC_E2E_VULKAN_DEVICE=NVIDIA TILEC_E2E_SKIP_OCLGRIND=1 \
        TILEC_E2E_SKIP_VALIDATION=1 python3 .device/lit/lit.py -v -j 16 \
        --filter-out 'oclgrind-harness|spirv-harness' "$site" 2>&1 | tee "$out/e2e-$backend.txt"
    done
    ;;
  mandelbrot)
    TILEC_CACHE_DIR=/tmp/tilec-cache mandelbrot --sizes 500,1000,2000,4000,8000,15000 \
      --image "$out/mandelbrot.png" 2>&1 | tee "$out/mandelbrot.txt"
    ;;
  train | train=*)
    epochs=${stage#train}
    epochs=${epochs#=}
    data=${TILEC_TRAIN_DATA:-/usr/share/datasets/fashion-mnist}
    for backend in opencl vulkan; do
      TILEC_CACHE_DIR=/tmp/tilec-cache \
        train_cnn --data "$data" --epochs "${epochs:-12}" --backend $backend --device NVIDIA \
        2>/dev/null | tee "$out/train-$backend.txt"
    done
    python3 bench/train_cnn_torch.py --data "$data" --epochs "${epochs:-12}" 2>&1 |
      tee "$out/train-pytorch.txt"
    ;;
  step)
    data=${TILEC_TRAIN_DATA:-/usr/share/datasets/fashion-mnist}
    TILEC_CACHE_DIR=/tmp/tilec-cache train_cnn --data "$data" \
      --epochs 0 --save-step "$out/train_step.tile" --device NVIDIA >/dev/null
    for backend in opencl vulkan; do
      bash -c "$(head -n 1 "$out/train_step.tile" | cut -c 4-) \
        --repeat 20 --backend $backend --device NVIDIA" 2>&1 | tee "$out/train-step-$backend.txt"
    done
    ;;
  difftest | difftest=*)
    seconds=${stage#difftest}
    seconds=${seconds#=}
    rm -rf /tmp/tilec-difftest
    # A packed lavapipe (pack-gpu.sh --lavapipe) runs the GPU's bundles of the Vulkan findings.
    other=()
    tilec devices --backend vulkan 2>/dev/null | grep -q llvmpipe && other=(--other-vulkan-device llvmpipe)
    python3 tests/difftest/difftest.py --in-process --tilec "$root/.device/bin/tilec" --quiet \
      --work /dev/shm/tilec-difftest --keep /tmp/tilec-difftest/findings \
      --time "${seconds:-300}" --start "${TILEC_DIFFTEST_START:-20000000}" --jobs "$(nproc)" \
      "${other[@]}" > "$out/difftest.txt" 2>&1
    grep -E '^difftest: [0-9]+ programs' "$out/difftest.txt"
    unexplained=$(grep UNEXPLAINED "$out/difftest.txt" | grep -oE 'seed [0-9]+' | sort -u |
      awk '{print "findings/seed" $2}')
    [ -z "$unexplained" ] || (cd /tmp/tilec-difftest && tar czf "$out/unexplained.tgz" $unexplained)
    ;;
  *)
    echo "gpu-run.sh: unknown stage '$stage' (devices, bench[=REGEX], compare[=REGEX], e2e, mandelbrot, train[=EPOCHS], step, difftest[=SECONDS])" >&2
    exit 2
    ;;
  esac
done
