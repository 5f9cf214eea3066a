#!/usr/bin/env bash
# Makes the .deb (cpack) and, with --install-check, installs it with apt-get and runs it from /usr as a user would:
# nbody-sandbox --headless on an installed scene, and `import nbody` in Debian's python3 from the installed files.
# Usage: scripts/package.sh [--build DIR] [--install-check]
#   --build DIR  package an existing build tree (CI packages build/release, built for one architecture); by default
#                the `package` preset builds one for every GPU since Turing (NBODY_CUDA_ARCHS=portable)
set -euo pipefail
cd "$(dirname "$0")/.."
build="" check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --install-check) check=1 ;;
    *) echo "package.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
if [ -z "$build" ]; then
  scripts/install-deps.sh all
  cmake --preset package
  cmake --build --preset package -j "$(nproc)"
  build=build/package
fi
(cd "$build" && cpack -G DEB) | tail -3
deb=$(ls -t "$build"/nbody-sandbox_*.deb | head -1)
echo "package.sh: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --info "$deb" | sed -n 's/^ \(Depends\|Recommends\|Installed-Size\):/  \1:/p'
[ "$check" = 1 ] || exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$(realpath "$deb")" >/dev/null
trap 'DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -q nbody-sandbox >/dev/null' EXIT
tmp=$(mktemp -d)
cd "$tmp"  # nothing of the source or build tree on any path
fail() { echo "package.sh: FAIL: $*" >&2; exit 1; }
[ "$(command -v nbody-sandbox)" = /usr/bin/nbody-sandbox ] || fail "nbody-sandbox is not /usr/bin/nbody-sandbox"
nbody-sandbox --headless --bodies 1024 --steps 20 /usr/share/nbody-sandbox/scenes/plummer.toml > run.log 2>&1 ||
  fail "installed nbody-sandbox: $(cat run.log)"
grep -q "interactions/s" run.log || fail "no summary from the installed nbody-sandbox: $(cat run.log)"
nbody-bench --help > /dev/null || fail "installed nbody-bench --help"
/usr/bin/python3 -c "import nbody, sys; assert nbody.__file__.startswith('/usr/'), nbody.__file__; print('import nbody:', nbody.__file__)" ||
  fail "import nbody from the installed module"
echo "package.sh: installed, ran nbody-sandbox --headless and imported nbody from /usr: ok"
