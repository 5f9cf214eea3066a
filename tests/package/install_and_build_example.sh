#!/usr/bin/env bash
# Installs this build into a temporary prefix and uses it as an outside project would: examples/ built with
# find_package(nbody) and again with pkg-config, each run on the installed scene; the installed programs
# found their libnbody through their run path. Fails on the first thing that does not hold.
# With PYTHON given (a build with the Python module), the installed module imports from the prefix and runs.
# Usage: install_and_build_example.sh BUILD_DIR SOURCE_DIR CXX "CXXFLAGS" [PYTHON]
set -euo pipefail
build=$1 src=$2 cxx=$3 flags=${4:-} python=${5:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log"

fail() { echo "FAIL: $*" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libnbody.so' -print -quit)")
[ -n "$libdir" ] || fail "no libnbody.so installed under $prefix"
for f in "$libdir/libnbody.so.0.1" "$prefix/include/nbody/nbody.hpp" "$prefix/include/nbody/errors.hpp" \
         "$prefix/include/nbody/version.hpp" "$libdir/cmake/nbody/nbodyConfig.cmake" \
         "$libdir/cmake/nbody/nbodyConfigVersion.cmake" "$libdir/pkgconfig/nbody.pc" \
         "$prefix/share/nbody-sandbox/scenes/plummer.toml"; do
  [ -e "$f" ] || fail "not installed: ${f#"$prefix"/}"
done
soname=$(readelf -d "$libdir/libnbody.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libnbody.so.0.1" ] || fail "SONAME is '$soname', expected libnbody.so.0.1"
# No GL, ImGui or CLI11 in the library.
if readelf -d "$libdir/libnbody.so" | grep -Ei 'NEEDED.*(libGL|libEGL|glfw|imgui)'; then fail "libnbody needs GL"; fi

# The installed programs resolve libnbody from the prefix, not from the build tree.
for prog in nbody-sandbox nbody-bench; do
  where=$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/$prog" | sed -n 's/.*libnbody\.so[^ ]* => \([^ ]*\).*/\1/p')
  [ -n "$where" ] && [ "$(realpath "$where")" = "$(realpath "$libdir/libnbody.so.0.1")" ] || fail "$prog finds libnbody at '$where', expected $libdir"
done
"$prefix/bin/nbody-sandbox" --headless --backend cpu --bodies 256 --steps 2 --quiet "$prefix/share/nbody-sandbox/scenes/plummer.toml" \
  >"$tmp/sandbox.log" || fail "installed nbody-sandbox: $(cat "$tmp/sandbox.log")"

# find_package(nbody): the example, its default scene found beside the installed library.
cmake -S "$src/examples" -B "$tmp/example" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$flags" >"$tmp/configure.log" || fail "configure: $(cat "$tmp/configure.log")"
cmake --build "$tmp/example" >"$tmp/build.log" || fail "build: $(cat "$tmp/build.log")"
env -u NBODY_SCENE_DIR "$tmp/example/minimal" | tee "$tmp/run.log"
grep -q "^$prefix/share/nbody-sandbox/scenes/plummer.toml: 2048 bodies, t = 1 on" "$tmp/run.log" ||
  fail "minimal did not run the installed plummer.toml for 100 steps"
err=$(sed -n 's/^relative energy error //p' "$tmp/run.log")
awk -v e="$err" 'BEGIN { exit !(e > 0 && e < 1e-3) }' || fail "energy error '$err' not in (0, 1e-3)"

# pkg-config: the same program with the flags nbody.pc gives, asked as an outside project's shell would: a
# sysroot set for build dependencies unpacked elsewhere (the GPU machine's) would prefix the prefix's paths.
pkgconf() { env -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_LIBDIR PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config "$@"; }
pcflags=$(pkgconf --cflags --libs nbody) || fail "pkg-config --cflags --libs nbody"
[ "$(pkgconf --modversion nbody)" = "$(sed -n 's/.*NBODY_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/nbody/version.hpp")" ] ||
  fail "nbody.pc's version differs from version.hpp's"
# shellcheck disable=SC2086  # pcflags is a list of flags
"$cxx" $flags "$src/examples/minimal.cpp" $pcflags -Wl,-rpath,"$libdir" -o "$tmp/minimal_pc" ||
  fail "compiling with pkg-config's flags: $pcflags"
"$tmp/minimal_pc" "$prefix/share/nbody-sandbox/scenes/two-body.toml" 2 | grep -q "2 bodies" ||
  fail "the pkg-config build did not run"

# The Python module: <prefix>/lib/python3.X/dist-packages/nbody*.so with its stub, finding libnbody through
# its run path and the scenes beside the installed library.
if [ -n "$python" ]; then
  pydir=$prefix/lib/$("$python" -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')/dist-packages
  module=$(find "$pydir" -name 'nbody.*.so' -print -quit 2>/dev/null)
  [ -n "$module" ] && [ -e "$pydir/nbody.pyi" ] || fail "the Python module or its stub is not installed in $pydir"
  where=$(env -u LD_LIBRARY_PATH ldd "$module" | sed -n 's/.*libnbody\.so[^ ]* => \([^ ]*\).*/\1/p')
  [ "$(realpath "$where")" = "$(realpath "$libdir/libnbody.so.0.1")" ] || fail "the module finds libnbody at '$where'"
  env -u LD_LIBRARY_PATH -u NBODY_SCENE_DIR PYTHONPATH="$pydir" "$python" -c "
import nbody
assert nbody.__file__.startswith('$pydir'), nbody.__file__
assert nbody.scenes_dir() == '$prefix/share/nbody-sandbox/scenes', nbody.scenes_dir()
sim = nbody.Simulation('plummer', bodies=256, backend='cpu')
sim.step(2)
assert sim.steps == 2 and sim.positions.shape == (256, 3)
" || fail "the installed Python module did not run"
fi
echo "PASS: installed into $prefix; find_package and pkg-config builds ran${python:+; the Python module ran}"
