#!/usr/bin/env bash
# Builds nbody-sandbox (and only what it needs: scripts/build.sh --sandbox) and runs it. With no arguments: the
# interactive window on the figure-eight galaxies where there is a display; without one, a headless simulation of
# the Plummer cluster (N = 8192) that prints its progress and a summary. Any arguments are passed to nbody-sandbox
# instead (see --help). Where no NVIDIA GPU answers, it builds without CUDA and the CPU backend runs.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/build.sh --sandbox
echo "run.sh: built in $((SECONDS - start)) s"
if [ $# -eq 0 ]; then
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec build/release/nbody-sandbox
  fi
  echo "run.sh: no display; running headless. For pictures without a display:"
  echo "  build/release/nbody-sandbox --headless --frames 300 --screenshot out.png scenes/figure8-3.toml"
  set -- --headless --steps 200 --bodies 8192 scenes/plummer.toml
fi
exec build/release/nbody-sandbox "$@"
