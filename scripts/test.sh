#!/usr/bin/env bash
# Builds and runs every test. 'unit' tests need nothing; 'gl' tests need a display and get one from
# xvfb-run (Mesa's llvmpipe) when none is set; 'gpu' tests skip with a reason where no CUDA device exists.
# Then the window's tests (label gl) again under AddressSanitizer and UBSan: the debug preset builds only them
# and the sandbox (ASAN_GL=0 skips this; about 3 minutes on 2 cores with a warm ccache, more without).
# Then the fuzzers: scripts/fuzz.sh runs each libFuzzer target for FUZZ_SECONDS (default 55 s, so about
# 2 minutes in all, plus building them under ASan/UBSan) and fails on any crash, hang or sanitizer report.
# FUZZ_SECONDS=0 skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
run_with_display() {
  if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
    xvfb-run -a -s "-screen 0 1280x720x24" "$@"
  else
    "$@"
  fi
}
run_with_display ctest --preset release -j "$(nproc)"
if [ "${ASAN_GL:-1}" != 0 ]; then
  cmake --preset debug >/dev/null
  cmake --build --preset debug --target nbody_gl_tests nbody-sandbox -j "$(nproc)"
  # -L gl: the other suites are not built in this tree (their NOT_BUILT placeholders carry no label)
  run_with_display ctest --preset debug -L gl -j "$(nproc)"
fi
fuzz_seconds="${FUZZ_SECONDS:-55}"
if [ "$fuzz_seconds" -gt 0 ]; then
  scripts/fuzz.sh "$fuzz_seconds"
fi
