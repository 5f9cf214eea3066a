#!/usr/bin/env bash
# The window's Esc rule, end to end through X (xdotool): one Esc leaves the program running, also while a
# scene is being generated; two within a second close it with exit code 0; with Help open the first closes
# Help; Ctrl+Q closes it at once.
# Usage: esc_does_not_quit.sh <nbody-sandbox> <source dir>. Exit 77 (skipped) without a display or xdotool.
set -u
bin="$1"; src="$2"
[ -n "${DISPLAY:-}" ] || { echo "no display (run under xvfb-run)"; exit 77; }
command -v xdotool >/dev/null || { echo "xdotool is not installed (apt install xdotool)"; exit 77; }
export XDG_CONFIG_HOME="$(mktemp -d)"  # no saved layout from the user's own runs

start() {  # the window on a small scene, its pid in $pid and its X window in $win
  "$bin" --width 640 --height 400 "$@" >/dev/null 2>&1 &
  pid=$!
  win=$(timeout 60 xdotool search --sync --onlyvisible --name "nbody-sandbox" | head -1)
  [ -n "$win" ] || { echo "FAIL: no window appeared"; kill "$pid"; exit 1; }
  sleep 2  # a few frames, so ImGui has drawn and does not hold the keyboard
}
key() { xdotool windowactivate --sync "$win" >/dev/null 2>&1; xdotool key "$@" 2>/dev/null; }  # to the focused window
alive_after() { sleep "$1"; kill -0 "$pid" 2>/dev/null; }

start "$src/scenes/two-body.toml"
key Escape
alive_after 3 || { echo "FAIL: one Esc quit the program"; exit 1; }
key --delay 150 Escape Escape
if alive_after 4; then echo "FAIL: Esc twice within a second did not quit"; kill "$pid"; exit 1; fi
wait "$pid"; rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: exit code $rc after Esc Esc"; exit 1; }

# With Help open, Esc closes it first: Esc twice then only arms the quit, and two more quit.
start "$src/scenes/two-body.toml"
key F1
sleep 0.5
key --delay 150 Escape Escape
alive_after 3 || { echo "FAIL: Esc twice with Help open quit instead of closing Help"; exit 1; }
key --delay 150 Escape Escape
if alive_after 4; then echo "FAIL: Esc twice after Help closed did not quit"; kill "$pid"; exit 1; fi

# Both presses inside one frame (a slow frame: the program is stopped while they are typed, as a frame of a
# second or more at a million bodies on a software renderer holds them): each press counts, so it quits.
start "$src/scenes/two-body.toml"
xdotool windowactivate --sync "$win" >/dev/null 2>&1
kill -STOP "$pid"
xdotool key --delay 150 Escape Escape 2>/dev/null
sleep 0.3
kill -CONT "$pid"
if alive_after 4; then echo "FAIL: Esc twice inside one slow frame did not quit"; kill "$pid"; exit 1; fi

start "$src/scenes/two-body.toml"
key ctrl+q
if alive_after 4; then echo "FAIL: Ctrl+Q did not quit"; kill "$pid"; exit 1; fi
echo "ok: Esc once keeps running, Esc closes Help first, Esc twice (also inside one slow frame) and Ctrl+Q quit"
