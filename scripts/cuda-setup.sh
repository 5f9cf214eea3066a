#!/usr/bin/env bash
# Sourced by scripts/build.sh: what the CUDA part of the build should be on this machine.
#   NBODY_GPU_CC     the compute capability of the NVIDIA GPU(s) found here ("89", "75;86"), empty where none answers
#   NBODY_HAVE_NVCC  1 where nvcc is found (on PATH or /usr/local/cuda/bin)
NBODY_GPU_CC=""
if command -v nvidia-smi >/dev/null 2>&1; then
  NBODY_GPU_CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | sort -u |
                 grep -E '^[0-9]+$' | paste -sd';' || true)
fi
NBODY_HAVE_NVCC=0
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then NBODY_HAVE_NVCC=1; fi
