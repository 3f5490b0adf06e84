#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs every test: the lit/FileCheck
# tests, the GoogleTest binaries and the end-to-end suite (with its Oclgrind
# runs, and again on Vulkan under the validation layers), all through lit. Ends with one summary line
# "tests: N passed, N failed". Extra arguments go to lit (e.g. --filter=Parser).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh" || { echo "tests: 0 passed, 1 failed (setup or build failed)"; exit 1; }

log=$(mktemp)
/usr/bin/python3 /usr/lib/llvm-19/build/utils/lit/lit.py -v "$@" \
  "$build/tests/lit" "$build/tests/unit" "$build/tests/e2e" \
  "$build/tests/e2e-vulkan" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$log" | head -n1; }
passed=$(( $(count Passed || true) + 0 ))
failed=$(( $(count Failed || true) + 0 ))
unresolved=$(( $(grep -c '^UNRESOLVED:' "$log" || true) + 0 ))
rm -f "$log"
failed=$(( failed + unresolved ))
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "tests: $passed passed, $failed failed"
exit "$status"
