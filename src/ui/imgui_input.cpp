#include "ui/imgui_input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cfloat>

namespace nbody {

void ImGuiInput::apply(const std::vector<InputEvent>& frame_events) {
    ImGuiIO& io = ImGui::GetIO();
    for (const InputEvent& e : frame_events) {
        switch (e.kind) {
            case InputEvent::Kind::MouseButton:
                if (e.button_or_key >= 0 && e.button_or_key < 5) m_buttons[e.button_or_key] = e.action == GLFW_PRESS;
                break;
            case InputEvent::Kind::CursorMove:
                m_have_pos = true, m_x = e.x, m_y = e.y;
                break;
            case InputEvent::Kind::Scroll:
                io.MouseWheelH += float(e.x);
                io.MouseWheel += float(e.y);
                break;
            case InputEvent::Kind::Key:
                if (e.button_or_key >= 0 && e.button_or_key < IM_ARRAYSIZE(io.KeysDown) && e.action != GLFW_REPEAT)
                    io.KeysDown[e.button_or_key] = e.action == GLFW_PRESS;
                break;
            case InputEvent::Kind::Char:
                if (e.button_or_key > 0) io.AddInputCharacter(unsigned(e.button_or_key));
                break;
        }
    }
    for (int b = 0; b < 5; ++b) io.MouseDown[b] = m_buttons[b];
    // The backend leaves the position unknown (-FLT_MAX) while the window has no focus: keep that.
    if (m_have_pos && io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(float(m_x), float(m_y));
    const bool* k = io.KeysDown;
    io.KeyCtrl = k[GLFW_KEY_LEFT_CONTROL] || k[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = k[GLFW_KEY_LEFT_SHIFT] || k[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = k[GLFW_KEY_LEFT_ALT] || k[GLFW_KEY_RIGHT_ALT];
    io.KeySuper = k[GLFW_KEY_LEFT_SUPER] || k[GLFW_KEY_RIGHT_SUPER];
}

}  // namespace nbody
