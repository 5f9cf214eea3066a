#!/usr/bin/env bash
# Installs the Debian packages (when missing), configures and builds the release preset.
# CUDA parts build when nvcc is found (/usr/local/cuda/bin/nvcc); otherwise the CPU-only program builds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
