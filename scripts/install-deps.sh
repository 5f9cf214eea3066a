#!/usr/bin/env bash
# Installs the Debian packages nbody-sandbox builds with, when any are missing.
# Usage: scripts/install-deps.sh [run|all]   (as root, or with sudo available)
#   run: what the sandbox itself needs (scripts/run.sh): compiler, CMake, the window's and the scene files' libraries
#   all: that and everything the tests, fuzzers and optional parts use (scripts/test.sh); the default
set -euo pipefail
set_name=${1:-all}
run_pkgs=(
  build-essential cmake ninja-build pkg-config
  libglfw3-dev python3-glad libimgui-dev libglm-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
  libtomlplusplus-dev libcli11-dev nlohmann-json3-dev libstb-dev
  libhdf5-dev  # HDF5 snapshots and checkpoints (src/io/hdf5_*); optional: the build goes without it
  fonts-dejavu-core  # the panels' font, found at run time (ImGui's built-in font when absent)
)
test_pkgs=(
  libgtest-dev xvfb xauth xdotool
  clang libclang-rt-dev  # scripts/fuzz.sh: libFuzzer, ASan and UBSan
  libopenmpi-dev openmpi-bin  # MPI ranks (src/multi, tests/mpi); optional: the build goes without it
  python3-h5py  # reads HDF5 snapshots back in a test
  python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest  # the Python module (python/) and its tests; optional
  jupyter-nbconvert python3-ipykernel python3-matplotlib  # executes docs/notebooks in the tests; optional
  gfortran  # the Fortran GRAPE-6 client test (tests/g6); optional: skipped without it
  ffmpeg  # video recording only (--record, V in the window); the program says so when it is missing
  dpkg-dev  # cpack's .deb and its dependencies (dpkg-shlibdeps), tested by tests/package
)
case "$set_name" in
  run) pkgs=("${run_pkgs[@]}") ;;
  all) pkgs=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) echo "install-deps: unknown set '$set_name' (run or all)" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${#missing[@]} packages with apt-get: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
