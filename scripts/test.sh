#!/usr/bin/env bash
# Builds and runs every test. 'unit' tests need nothing; 'gl' tests need a display and get one from
# xvfb-run (Mesa's llvmpipe) when none is set; 'gpu' tests skip with a reason where no CUDA device exists.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" ctest --preset release -j "$(nproc)"
fi
exec ctest --preset release -j "$(nproc)"
