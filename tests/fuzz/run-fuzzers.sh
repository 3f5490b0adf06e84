#!/usr/bin/env bash
# Runs the libFuzzer targets of a build configured with -DTILEC_FUZZERS=ON,
# each for a fixed time on a fresh copy of its seed corpus, one after another.
#   tests/fuzz/run-fuzzers.sh BUILD_DIR SECONDS [NAME...]
# NAME: bundle, npy, cache-entry, frontend (default: all four). The seeds of
# `frontend` are every .tile of the source tree plus tests/fuzz/corpus/frontend;
# the others' are tests/fuzz/corpus/NAME. Prints one line per fuzzer, PASS or
# FAIL (with the saved input that failed and its log), and a last line
# "fuzz: N passed, N failed"; exits non-zero on any failure. Set
# TILEC_FUZZ_WORK to keep the corpora, logs and failing inputs somewhere
# (default: a temporary directory, removed unless something failed).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(cd "${1:?usage: run-fuzzers.sh BUILD_DIR SECONDS [NAME...]}" && pwd) || exit 1
seconds=${2:?usage: run-fuzzers.sh BUILD_DIR SECONDS [NAME...]}
shift 2
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(bundle npy cache-entry frontend)
work=${TILEC_FUZZ_WORK:-$(mktemp -d)}
mkdir -p "$work"

passed=0
failed=0
for name in "${names[@]}"; do
  corpus=$work/$name-corpus
  artifacts=$work/$name-artifacts
  log=$work/$name.log
  rm -rf "$corpus" "$artifacts"
  mkdir -p "$corpus" "$artifacts"
  if [ "$name" = frontend ]; then
    # Every Tile source of the tree (the build directories excluded), each
    # named after its path: several share a file name (matmul.tile).
    find "$root" -path "$root/build*" -prune -o -name '*.tile' -print0 |
      while IFS= read -r -d '' source; do
        relative=${source#"$root"/}
        cp "$source" "$corpus/${relative//\//_}"
      done
  fi
  [ -d "$root/tests/fuzz/corpus/$name" ] && cp "$root/tests/fuzz/corpus/$name"/* "$corpus"
  # -timeout: one input that takes seconds is a finding (the inputs are
  # bounded to take milliseconds); -rss_limit_mb: so is one that takes GiBs.
  # allow_user_poisoning=0: see scripts/test-sanitized.sh.
  (cd "$artifacts" &&
    ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0} \
      "$build/bin/fuzz-$name" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$corpus") >"$log" 2>&1
  status=$?
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log")
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1)
  if [ "$status" -eq 0 ]; then
    echo "PASS: fuzz-$name (${runs:-0} inputs in ${seconds} s, ${cov:-cov: ?})"
    passed=$((passed + 1))
  else
    echo "FAIL: fuzz-$name (exit $status); input: $(ls "$artifacts" | head -n1); log: $log"
    tail -n 40 "$log"
    failed=$((failed + 1))
  fi
done
[ "$failed" -gt 0 ] || [ -n "${TILEC_FUZZ_WORK:-}" ] || rm -rf "$work"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
