#!/bin/sh
# Runs a command (`tilec run ...`, `tile-run ...`) under Oclgrind, the OpenCL
# device simulator, whose platform then replaces every other, with checks
# for data races and invalid API use on top of its always-on checks of
# out-of-bounds accesses. (Its --uninitialized plugin stops at the `freeze`
# instructions that its own OpenCL C compiler emits, so it cannot run; the
# executor's poisoned outputs catch unwritten elements instead.) Oclgrind
# reports problems in its log but leaves the exit status alone: any report
# is a failure here.
#   usage: oclgrind.sh COMMAND [ARG...]
log=$(mktemp "${TMPDIR:-/tmp}/tilec-oclgrind.XXXXXX") || exit 1
oclgrind --data-races --check-api --log "$log" "$@"
status=$?
if [ -s "$log" ]; then
  cat "$log" >&2
  echo "oclgrind.sh: Oclgrind reported the problems above" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
exit $status
