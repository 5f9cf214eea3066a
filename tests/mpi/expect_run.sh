#!/usr/bin/env bash
# Runs a command and passes only when its exit status AND its output are as expected. CTest's
# PASS_REGULAR_EXPRESSION alone ignores the exit status: a run that printed the line and then crashed passed.
# Usage: expect_run.sh zero|nonzero EXTENDED_REGEX command [args...]
set -uo pipefail
want=$1 regex=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$want" = zero ] && [ "$rc" -ne 0 ]; then echo "FAIL: exit status $rc, expected 0"; exit 1; fi
if [ "$want" = nonzero ] && [ "$rc" -eq 0 ]; then echo "FAIL: exit status 0, expected a failure"; exit 1; fi
if ! grep -Eq -- "$regex" <<<"$out"; then echo "FAIL: the output has no line matching /$regex/"; exit 1; fi
echo "PASS: exit status $rc and the output as expected"
