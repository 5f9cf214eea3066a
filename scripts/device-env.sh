#!/usr/bin/env bash
# Sourced by the device scripts on the GPU machine (the device tool), in the repository root, with .gl and
# .devdeps carried: unpacks the carried Debian packages once (GL runtime into /, build dependencies into a
# prefix), exports what the build and the programs need, and defines device_build SRC BUILD JOBS LOG.
OUT=${OUT:-/tmp/nbody-out}
mkdir -p "$OUT"
P=/tmp/pfx
if [ ! -d "$P/usr" ]; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  mkdir -p "$P"
  for f in .devdeps/*.deb .gl/*.deb; do dpkg -x "$f" "$P"; done
fi
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
export LD_LIBRARY_PATH=$P/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export PYTHONPATH=$P/usr/lib/python3/dist-packages:${PYTHONPATH:-}
# Debian's .pc files say prefix=/usr: let pkg-config read only the prefix's and prepend it to their paths.
export PKG_CONFIG_LIBDIR=$P/usr/lib/x86_64-linux-gnu/pkgconfig:$P/usr/share/pkgconfig PKG_CONFIG_SYSROOT_DIR=$P
export PATH=/usr/local/cuda/bin:$PATH
# The GPU machines have mpirun and libmpi.so.40 but no MPI headers or mpicxx: point CMake at the carried
# headers (libopenmpi-dev in .devdeps) and the machine's library.
MPI_FLAGS=()
if ! command -v mpicxx >/dev/null && [ -e /usr/lib/x86_64-linux-gnu/libmpi.so.40 ]; then
  MPI_FLAGS=(-DMPI_CXX_COMPILER="$(command -v g++)" -DMPI_CXX_ADDITIONAL_INCLUDE_DIRS=$P/usr/lib/x86_64-linux-gnu/openmpi/include
             -DMPI_CXX_LIB_NAMES=mpi -DMPI_mpi_LIBRARY=/usr/lib/x86_64-linux-gnu/libmpi.so.40 -DMPI_CXX_SKIP_MPICXX=ON)
fi

# device_build SRC BUILD JOBS LOGNAME [ARCHS] [TARGET...]: configures (every dependency found again: a warm machine
# keeps the build tree) and builds the release configuration for ARCHS (default 90: sm_90; 75-virtual builds PTX
# only, which the driver JIT-compiles, so the older architectures' code paths run on this GPU), all targets or the
# ones named; prints the errors and returns non-zero on failure.
device_build() {
  local src=$1 b=$2 jobs=$3 log=$4 archs=${5:-90}
  local targets=("${@:6}")
  rm -f "$b/CMakeCache.txt"
  cmake -S "$src" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$archs" -DCMAKE_PREFIX_PATH=$P/usr \
    -DNBODY_PTXAS_VERBOSE=ON "${MPI_FLAGS[@]}" > "$OUT/configure-$log.log" 2>&1 || { tail -40 "$OUT/configure-$log.log"; return 1; }
  cmake --build "$b" -j"$jobs" ${targets[@]:+--target "${targets[@]}"} > "$OUT/build-$log.log" 2>&1 || { grep -E "error|FAILED" -A5 "$OUT/build-$log.log" | head -60; return 1; }
}
