#!/usr/bin/env bash
# The sanitizer stage of scripts/test.sh (docs/testing.md, "Sanitizer
# build"): configures build-sanitize (clang-19, ASan + UBSan, with the
# fuzzers: -DTILEC_FUZZERS=ON) and builds what the suites run (not the
# benchmarks), runs the unit and lit suites and the e2e subset below on it
# through lit, then each fuzzer for TILEC_FUZZ_SECONDS (default 30) on its seed
# corpus. Any sanitizer report fails its test.
# Ends with "tests: N passed, N failed" like test.sh, which adds it to its own.
#   TILEC_SANITIZE_BUILD_DIR=dir   build somewhere else (default build-sanitize)
# Extra arguments go to lit.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TILEC_SANITIZE_BUILD_DIR:-$root/build-sanitize}
seconds=${TILEC_FUZZ_SECONDS:-30}

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DTILEC_FUZZERS=ON \
    -DLLVM_DIR=/usr/lib/llvm-19/lib/cmake/llvm \
    -DMLIR_DIR=/usr/lib/llvm-19/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
    -DLLVM_USE_LINKER=lld >/dev/null
fi
cmake --build "$build" --target tilec-test-depends fuzz-frontend fuzz-bundle \
  fuzz-npy fuzz-cache-entry ||
  { echo "tests: 0 passed, 1 failed (sanitizer build failed)"; exit 1; }
# Every process of the lit runs keeps the shared objects it loads until it
# exits (tests/sanitizer/keep-loaded.c: the Vulkan loader unloads the driver,
# whose memory LeakSanitizer would then report as leaked).
keep_loaded=$build/lib/libtilec-keep-loaded.so
if [ ! "$keep_loaded" -nt "$root/tests/sanitizer/keep-loaded.c" ]; then
  clang-19 -shared -fPIC -O2 -o "$keep_loaded" "$root/tests/sanitizer/keep-loaded.c" ||
    { echo "tests: 0 passed, 1 failed (sanitizer build failed)"; exit 1; }
fi

# halt_on_error: the first report ends the process (UBSan: -fno-sanitize-recover
# too), so the test fails. allow_user_poisoning=0 and the leak suppressions:
# docs/testing.md, "Sanitizer build" (LLVM's allocators shared with the
# uninstrumented libMLIR; PoCL's allocations kept for the process's life;
# the Vulkan driver kept loaded above).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0}
# The e2e subset: small shapes over every kind of statement (elementwise of
# every dtype, casts, broadcasting, contractions with defaults, calls, empty
# tensors, special values). The whole suite under ASan does not fit CI's time
# (its reference checks of large shapes run at -O1 with every access checked).
e2e_subset=':: (bool|broadcast|calls_mlp|casts|default|elementwise_float|elementwise_int|empty|float_specials)\.tile$'

log=$(mktemp)
LD_PRELOAD=$keep_loaded /usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -v "$@" \
  "$build/tests/lit" "$build/tests/unit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
LD_PRELOAD=$keep_loaded /usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -v "$@" \
  --filter="$e2e_subset" "$build/tests/e2e" 2>&1 | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
# The sum over both lit runs of their "Passed: N" (or "Failed: N") lines.
count() { sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$log" | awk '{n += $1} END {print n + 0}'; }
passed=$(count Passed)
failed=$(count Failed)
failed=$(( failed + $(grep -c '^UNRESOLVED:' "$log" || true) ))
rm -f "$log"

# The fuzzers' lines go to stdout as they come (not through tee /dev/stderr,
# which truncates a log file that stderr is redirected to).
log=$(mktemp)
bash "$root/tests/fuzz/run-fuzzers.sh" "$build" "$seconds" | tee "$log"
fuzz=$(tail -n1 "$log")
rm -f "$log"
fuzz_passed=$(sed -nE 's/^fuzz: ([0-9]+) passed.*/\1/p' <<<"$fuzz")
fuzz_failed=$(sed -nE 's/.* ([0-9]+) failed$/\1/p' <<<"$fuzz")
passed=$(( passed + ${fuzz_passed:-0} ))
failed=$(( failed + ${fuzz_failed:-1} ))
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
