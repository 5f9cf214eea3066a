#pragma once
// The window's input handed to the GUI a frame at a time without losing any of it. ImGui (1.86, Debian's)
// reads the state of each key and button once a frame, so a quick click, or a Return pressed and released
// inside one slow frame (a software renderer at 1M bodies draws 1-3 frames/s), would be missed: the press
// and the release cancel out. So each frame takes the queue in order up to the first event that would
// undo one already taken this frame, and the rest waits for the next frame:
// - mouse: a second change of one button, or a move after a button changed (a click lands where it was
//   pressed, not where the cursor went afterwards);
// - keyboard: a second change of a key that typed no character (Return, Backspace, arrows, Tab, shortcuts:
//   the GUI must see it down once, then up). Keys that type go by their characters, in order with the rest,
//   so "0.05" then Return reaches a field in one frame and Return, seen down, applies it.
// Mouse and keyboard wait independently. Nothing is dropped; a burst takes a few more frames to drain.
#include <deque>
#include <vector>

#include "render/glfw_window.hpp"

namespace nbody {

class InputTrickle {
  public:
    void add(const std::vector<InputEvent>& events);
    // This frame's share, in order; what is left waits for the next call.
    std::vector<InputEvent> next_frame();
    bool empty() const { return m_pending.empty(); }

  private:
    std::deque<InputEvent> m_pending;
};

}  // namespace nbody
