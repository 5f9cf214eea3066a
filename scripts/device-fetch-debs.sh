#!/usr/bin/env bash
# On the developer machine: downloads the Debian packages the GPU machine lacks into .gl (GL runtime,
# unpacked into / there) and .devdeps (build dependencies, unpacked into a prefix). Both folders are
# ignored by git and named in the device tool's `carry`. See ../shared/DEVICE.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .git/info; grep -qx '/.gl/' .git/info/exclude 2>/dev/null || printf '/.gl/\n/.devdeps/\n' >> .git/info/exclude
mkdir -p .gl .devdeps /tmp/amd64/partial
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
# shellcheck disable=SC2086
apt-get $o update -q
(cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
(cd .devdeps && apt-get $o download libegl-dev libgl-dev libglx-dev libopengl-dev libgles-dev libglvnd-dev \
  libglvnd-core-dev libx11-6 libx11-dev libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 libxext6 \
  libglm-dev libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libtomlplusplus3 libgtest-dev googletest \
  libglfw3 libglfw3-dev libimgui-dev python3-glad libstb0 libstb-dev libxrandr2 libxinerama1 libxcursor1 \
  libxi6 libxrender1 libxfixes3 libwayland-client0 libffi8 libfreetype6 libpng16-16 libbrotli1 libxkbcommon0 \
  xorg-sgml-doctools x11proto-dev python3-jinja2 python3-markupsafe \
  libopenmpi-dev)  # MPI headers: the GPU machines have mpirun and libmpi.so.40 but no headers (src/multi)
# --window: Xvfb with Mesa's GLX (software DRI driver and LLVM) for scripts/device-glx.sh, unpacked into / there.
# About 56 MiB: with .gl and .devdeps just under the carry's 64 MiB, so that call carries nothing else.
if [ "${1:-}" = --window ]; then
  grep -qx '/.xvfb/' .git/info/exclude || echo /.xvfb/ >> .git/info/exclude
  mkdir -p .xvfb
  (cd .xvfb && apt-get $o download xvfb xserver-common x11-common x11-xkb-utils xkb-data libxfont2 libfontenc1 \
    libpixman-1-0 libxkbfile1 libunwind8 libgl1-mesa-dri libglx-mesa0 libglapi-mesa libllvm15 libz3-4 libxml2 \
    libicu72 libedit2 libsensors5 libsensors-config libdrm2 libdrm-common libdrm-amdgpu1 libdrm-intel1 \
    libdrm-nouveau2 libdrm-radeon1 libpciaccess0 libelf1 libxcb-dri2-0 libxcb-dri3-0 libxcb-glx0 libxcb-present0 \
    libxcb-randr0 libxcb-shm0 libxcb-sync1 libxcb-xfixes0 libxshmfence1 libxxf86vm1 libx11-xcb1 libx11-data)
fi
du -sh .gl .devdeps .xvfb 2>/dev/null
