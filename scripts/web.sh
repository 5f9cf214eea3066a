#!/usr/bin/env bash
# The web edition (web/, docs/web.md): installs what it builds with when missing (Debian's emscripten and
# node; npm ci from web/package-lock.json), builds web/dist/ and serves it on localhost with the
# cross-origin isolation headers (web/serve.py; no application server).
# Usage: scripts/web.sh [--build-only] [--port P]      (P: 8080 by default)
# web/dist/ is the whole site: copy it to any static host (docs/web.md says how).
set -euo pipefail
cd "$(dirname "$0")/.."
port=8080 build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) build_only=1 ;;
    --port) port=$2; shift ;;
    *) echo "web.sh: unknown argument '$1' (--build-only, --port P)" >&2; exit 2 ;;
  esac
  shift
done
need=()
command -v em++ >/dev/null || need+=(emscripten)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
[ -e /usr/share/nodejs/acorn ] || need+=(node-acorn)  # emcc's own node tools
if [ ${#need[@]} -gt 0 ]; then
  echo "web.sh: installing ${need[*]} (Debian packages)"
  sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${need[@]}" ||
    { $sudo apt-get update && $sudo apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${need[@]}"; }
fi
# npm ci when the lock file is newer than the installed tree (or there is none).
if [ ! -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund)
fi
web/build.sh
[ "$build_only" = 1 ] && exit 0
echo "Open http://localhost:$port/ in Chrome, Edge or another browser with WebGPU (Ctrl+C stops the server)."
exec python3 web/serve.py web/dist "$port"
