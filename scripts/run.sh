#!/usr/bin/env bash
# Builds nbody-sandbox and runs it. With no arguments: a headless run of the Plummer scene, small
# enough for a laptop's CPU. Any arguments are passed to nbody-sandbox instead (see --help).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
if [ $# -eq 0 ]; then
  set -- --headless --steps 200 --bodies 8192 scenes/plummer.toml
fi
exec build/release/nbody-sandbox "$@"
