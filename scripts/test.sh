#!/usr/bin/env bash
# Builds and runs every test. 'unit' tests need nothing; 'gl' tests need a display and get one from
# xvfb-run (Mesa's llvmpipe) when none is set; 'gpu' tests skip with a reason where no CUDA device exists.
# Then the fuzzers: scripts/fuzz.sh runs each libFuzzer target for FUZZ_SECONDS (default 55 s, so about
# 2 minutes in all, plus building them under ASan/UBSan) and fails on any crash, hang or sanitizer report.
# FUZZ_SECONDS=0 skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x720x24" ctest --preset release -j "$(nproc)"
else
  ctest --preset release -j "$(nproc)"
fi
fuzz_seconds="${FUZZ_SECONDS:-55}"
if [ "$fuzz_seconds" -gt 0 ]; then
  scripts/fuzz.sh "$fuzz_seconds"
fi
