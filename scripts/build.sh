#!/usr/bin/env bash
# Installs the Debian packages (when missing), configures and builds the release preset (build/release).
# Usage: scripts/build.sh [--sandbox]
#   --sandbox  only what nbody-sandbox needs (packages and targets: no tests, fuzzers or Python module), for the
#              NVIDIA GPU found here, or without CUDA where none is (scripts/run.sh)
#   default    everything (scripts/test.sh). CUDA is built where nvcc is found, for NBODY_CUDA_ARCHS: by default the
#              GPU found here, else 90 (one architecture keeps a 2-core build in bounds; CI sets it too)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cuda-setup.sh
flags=()
if [ "${1:-}" = --sandbox ]; then
  scripts/install-deps.sh run
  targets=(--target nbody-sandbox)
  if [ -z "$NBODY_GPU_CC" ]; then
    [ "$NBODY_HAVE_NVCC" = 1 ] && echo "build: no NVIDIA GPU answered nvidia-smi: building without CUDA (the CPU backend runs)"
    flags+=(-DNBODY_CUDA=OFF)
  else
    flags+=(-DNBODY_CUDA=ON "-DNBODY_CUDA_ARCHS=${NBODY_CUDA_ARCHS:-$NBODY_GPU_CC}")
  fi
  flags+=(-DNBODY_BUILD_TESTS=OFF -DNBODY_PYTHON=OFF)
else
  scripts/install-deps.sh all
  targets=()
  flags+=(-DNBODY_BUILD_TESTS=ON "-DNBODY_CUDA_ARCHS=${NBODY_CUDA_ARCHS:-${NBODY_GPU_CC:-90}}")
  if [ "$NBODY_HAVE_NVCC" = 1 ]; then flags+=(-DNBODY_CUDA=ON); else flags+=(-UNBODY_CUDA); fi
  # A build dir configured by run.sh without the Python module: let CMake decide again from what is installed.
  flags+=(-UNBODY_PYTHON)
fi
# NBODY_CUDA_ARCHS decides the architectures: drop any CMAKE_CUDA_ARCHITECTURES an older build directory cached.
flags+=(-UCMAKE_CUDA_ARCHITECTURES)
echo "build: configuring build/release (${flags[*]})"
mkdir -p build
cmake --preset release "${flags[@]}" >build/configure.log 2>&1 || { cat build/configure.log; exit 1; }
grep -E "nbody-sandbox:" build/configure.log || true
echo "build: compiling with $(nproc) jobs${targets[*]:+ (${targets[*]#--target })}"
cmake --build --preset release -j "$(nproc)" "${targets[@]}"
