#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs every test: the lit/FileCheck
# tests, the GoogleTest binaries, the end-to-end suite (with its Oclgrind
# runs, and again on Vulkan under the validation layers) and the differential
# test's CI seeds (tests/difftest), all through lit, then the Python package's
# pytest suite (python/tests), and checks that a second build has nothing to do. Then it runs
# the sanitizer stage, scripts/test-sanitized.sh: an ASan+UBSan build that runs the unit, lit and
# an e2e subset, and each fuzzer for a fixed time (TILEC_SANITIZER_STAGE=0 leaves it out:
# docs/testing.md, "Sanitizer build"). Ends with one summary line "tests: N passed, N failed"
# that counts them all. Extra arguments go to lit (e.g. --filter=Parser); the pytest suite always
# runs whole.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh" || { echo "tests: 0 passed, 1 failed (setup or build failed)"; exit 1; }

# The build just finished, so a second one must find nothing to do; anything
# left is a dependency that never settles (`ninja -d explain` says which).
rebuild_failed=0
second_build=$(cmake --build "$build" -- -n 2>&1)
if ! grep -q '^ninja: no work to do' <<<"$second_build"; then
  echo "FAIL: a second build with nothing changed still has work; see: ninja -C $build -n -d explain"
  rebuild_failed=1
fi

log=$(mktemp)
/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -v "$@" \
  "$build/tests/lit" "$build/tests/unit" "$build/tests/e2e" \
  "$build/tests/e2e-vulkan" "$build/tests/difftest" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$log" | head -n1; }
passed=$(( $(count Passed || true) + 0 ))
failed=$(( $(count Failed || true) + 0 ))
unresolved=$(( $(grep -c '^UNRESOLVED:' "$log" || true) + 0 ))
rm -f "$log"
failed=$(( failed + unresolved + rebuild_failed ))
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
[ "$rebuild_failed" -eq 0 ] || status=1

# The Python package's tests, on the package in the build tree.
log=$(mktemp)
PYTHONPATH="$build/python" PYTHONDONTWRITEBYTECODE=1 TILEC_CACHE_DIR="$build/tests/python/jit-cache" \
  /usr/bin/python3 -m pytest -p no:cacheprovider -q -rfE "$root/python/tests" 2>&1 | tee "$log"
py_status=${PIPESTATUS[0]}
summary=$(grep -E '(passed|failed|error).* in [0-9.]+s' "$log" | tail -n1)
py_count() { echo "$summary" | grep -oE "[0-9]+ $1" | grep -oE '[0-9]+' || true; }
py_passed=$(( $(py_count passed) + 0 ))
py_failed=$(( $(py_count failed) + $(py_count error) + 0 ))
rm -f "$log"
[ "$py_status" -eq 0 ] || [ "$py_failed" -gt 0 ] || py_failed=1
passed=$(( passed + py_passed ))
failed=$(( failed + py_failed ))
[ "$py_status" -eq 0 ] || status=1

# The sanitizer build, its suites and the fuzzers (docs/testing.md), unless
# TILEC_SANITIZER_STAGE=0.
if [ "${TILEC_SANITIZER_STAGE:-1}" != 0 ]; then
  log=$(mktemp)
  bash "$root/scripts/test-sanitized.sh" "$@" 2>&1 | tee "$log"
  san_status=${PIPESTATUS[0]}
  san_summary=$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
  rm -f "$log"
  san_passed=$(sed -nE 's/^tests: ([0-9]+) passed.*/\1/p' <<<"$san_summary")
  san_failed=$(sed -nE 's/.* ([0-9]+) failed.*/\1/p' <<<"$san_summary")
  passed=$(( passed + ${san_passed:-0} ))
  failed=$(( failed + ${san_failed:-1} ))
  [ "$san_status" -eq 0 ] || status=1
fi
echo "tests: $passed passed, $failed failed"
exit "$status"
