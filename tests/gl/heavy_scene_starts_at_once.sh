#!/usr/bin/env bash
# A scene far too heavy for this machine's backend, from the command line (the shipped 2,097,152-body Milky
# Way and Andromeda, by name): the window shows within LIMIT seconds with the reduction's note on stderr, and
# Esc twice takes the window away within QUIT seconds (default 1). Usage:
# heavy_scene_starts_at_once.sh <nbody-sandbox> [LIMIT] [QUIT].
# Exit 77 (skipped) without a display or xdotool.
set -u
bin="$1"; limit="${2:-5}"; quit="${3:-1}"
[ -n "${DISPLAY:-}" ] || { echo "no display (run under xvfb-run)"; exit 77; }
command -v xdotool >/dev/null || { echo "xdotool is not installed (apt install xdotool)"; exit 77; }
export XDG_CONFIG_HOME="$(mktemp -d)"
err="$(mktemp)"
t0=$(date +%s.%N)
"$bin" --width 640 --height 400 --backend cpu milky-way-andromeda 2>"$err" >/dev/null &
pid=$!
win=$(timeout "$limit" xdotool search --sync --onlyvisible --pid "$pid" | head -1)
t1=$(date +%s.%N)
[ -n "$win" ] || { echo "FAIL: no window within $limit s"; cat "$err"; kill "$pid"; exit 1; }
# The reduction's note (printed once the window's first scene is chosen), also within the limit from the start.
until grep -q "Loaded with .* of 2,097,152 bodies" "$err"; do
  if awk -v now="$(date +%s.%N)" -v t0="$t0" -v l="$limit" 'BEGIN { exit !(now - t0 > l) }'; then
    echo "FAIL: no reduction note on stderr within $limit s"; cat "$err"; kill "$pid"; exit 1
  fi
  sleep 0.05
done
sleep 2  # a few frames, so ImGui has drawn and does not hold the keyboard
xdotool windowactivate --sync "$win" >/dev/null 2>&1
t2=$(date +%s.%N)
xdotool key --delay 150 Escape Escape 2>/dev/null
# The window goes within QUIT seconds of the second Esc (sent 0.15 s after the first); the process may finish
# a step or an energy sample under way after that.
deadline=$(awk -v t="$t2" -v q="$quit" 'BEGIN { printf "%.3f", t + 0.15 + q }')
while xdotool search --onlyvisible --pid "$pid" >/dev/null 2>&1; do
  if awk -v now="$(date +%s.%N)" -v d="$deadline" 'BEGIN { exit !(now > d) }'; then
    echo "FAIL: the window was still there $quit s after Esc twice"; kill "$pid"; exit 1
  fi
  sleep 0.02
done
t3=$(date +%s.%N)
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "FAIL: the program had not exited 10 s after Esc twice"; kill "$pid"; exit 1; fi
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { printf "ok: window after %.2f s, gone %.2f s after the first Esc\n", b - a, d - c }'
cat "$err"
