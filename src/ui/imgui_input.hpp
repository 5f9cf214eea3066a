#pragma once
// The window's events as ImGui's input state (ImGui 1.86 keeps key and button states, not events): one
// frame's share from InputTrickle applied over what the GLFW backend polled, so a press ImGui must see is
// seen, at the position it happened.
#include <vector>

#include "render/glfw_window.hpp"

namespace nbody {

class ImGuiInput {
  public:
    // Call between the platform backend's NewFrame and ImGui::NewFrame.
    void apply(const std::vector<InputEvent>& frame_events);

  private:
    bool m_have_pos = false;
    double m_x = 0, m_y = 0;
    bool m_buttons[5] = {};
};

}  // namespace nbody
