#pragma once
#include "app/options.hpp"

namespace nbody {

// The interactive window (GLFW + ImGui). Returns the exit code; prints how to run headless when there
// is no display.
int run_window(const AppOptions& o);

// Off-screen rendering through EGL (no display needed): --frames, --screenshot, --record. Prints a
// summary with frames/s and the frame-time breakdown. Returns the exit code.
int run_offscreen(const AppOptions& o);

}  // namespace nbody
