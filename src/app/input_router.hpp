#pragma once
// The window's mouse drags and shortcut keys, routed from its event queue to the camera, the simulation and
// the frame's requests (used by window_run.cpp only).
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cmath>
#include <vector>

#include "app/viewer.hpp"
#include "render/glfw_window.hpp"
#include "ui/ui.hpp"

namespace nbody {

// Mouse drags and shortcut keys, routed from the window's event queue.
class InputRouter {
  public:
    InputRouter(GlfwWindow& w, Viewer& v, UiState& s) : m_window(w), m_viewer(v), m_state(s) {}

    void handle(const std::vector<InputEvent>& events, bool ui_mouse, bool ui_keys, UiRequests& req) {
        for (const InputEvent& e : events) {
            switch (e.kind) {
                case InputEvent::Kind::MouseButton:
                    button(e, ui_mouse);
                    break;
                case InputEvent::Kind::CursorMove:
                    move(e);
                    break;
                case InputEvent::Kind::Scroll:
                    if (!ui_mouse) m_viewer.camera().zoom(float(e.y));
                    break;
                case InputEvent::Kind::Key:
                    if (!ui_keys && e.action != GLFW_RELEASE) key(e, req);
                    break;
                case InputEvent::Kind::Char:  // typed text is the GUI's alone
                    break;
            }
        }
    }

  private:
    void button(const InputEvent& e, bool ui_mouse) {
        if (e.action == GLFW_PRESS && !ui_mouse && m_drag < 0) {
            m_drag = e.button_or_key;  // a drag that starts on the scene stays with the camera
            m_dragged_px = 0;
            m_viewer.camera().stop();
        } else if (e.action == GLFW_RELEASE && e.button_or_key == m_drag) {
            const bool click = m_dragged_px < kClickSlopPx;
            if (m_drag == GLFW_MOUSE_BUTTON_LEFT && click) {  // a click picks; the camera stays where it was
                m_viewer.camera().stop();
                pick(e.mods & GLFW_MOD_SHIFT);
            } else if (m_drag == GLFW_MOUSE_BUTTON_LEFT) {
                m_viewer.camera().release();
            }
            m_drag = -1;
        }
    }
    // The body under the cursor (Shift: the ruler's second). Cursor units are the window's, the picture's are
    // the framebuffer's pixels (they differ on a HiDPI screen).
    void pick(bool second) {
        int w = 0, h = 0, fw = 0, fh = 0;
        glfwGetWindowSize(m_window.handle(), &w, &h);
        m_window.framebuffer_size(fw, fh);
        if (w <= 0 || h <= 0) return;
        m_viewer.pick_at(float(m_x) * float(fw) / float(w), float(m_y) * float(fh) / float(h), second);
    }
    void move(const InputEvent& e) {
        const float dx = float(e.x - m_x), dy = float(e.y - m_y);
        m_x = e.x, m_y = e.y;
        if (m_drag >= 0) m_dragged_px += std::abs(dx) + std::abs(dy);
        if (m_drag == GLFW_MOUSE_BUTTON_LEFT) {
            m_viewer.camera().orbit(dx, dy);
        } else if (m_drag >= 0) {
            int w = 0, h = 0;
            glfwGetWindowSize(m_window.handle(), &w, &h);  // cursor deltas are in screen units
            m_viewer.camera().pan(dx, dy, h);
        }
    }
    void key(const InputEvent& e, UiRequests& req) {
        Simulation& sim = m_viewer.sim();
        switch (e.button_or_key) {
            case GLFW_KEY_SPACE:
                if (e.action == GLFW_PRESS) sim.set_paused(!sim.paused());
                break;
            case GLFW_KEY_RIGHT:
                sim.request_step();
                break;  // repeats while held
            case GLFW_KEY_R:
                req.reset = true;
                break;
            case GLFW_KEY_C:
                req.reset_camera = true;
                break;
            case GLFW_KEY_F:
                req.frame_all = true;
                break;
            case GLFW_KEY_G:
                m_state.follow_com = !m_state.follow_com;
                break;
            case GLFW_KEY_F12:
                req.screenshot = true;
                break;
            case GLFW_KEY_V:
                if (e.action == GLFW_PRESS) req.toggle_record = true;
                break;
            case GLFW_KEY_TAB:
                m_state.show_ui = !m_state.show_ui;
                break;
            case GLFW_KEY_F1:
                m_state.show_help = !m_state.show_help;
                break;
            case GLFW_KEY_P:
                if (e.action == GLFW_PRESS) m_state.presentation = !m_state.presentation;
                break;
            case GLFW_KEY_ESCAPE:  // cancels what is under way; twice within a second quits (plain_words.hpp)
                if (e.action == GLFW_PRESS) req.escapes.push_back(e.time);
                break;
            case GLFW_KEY_Q:
                if (e.action == GLFW_PRESS && (e.mods & GLFW_MOD_CONTROL)) m_window.request_close();
                break;
            default:
                break;
        }
    }

    GlfwWindow& m_window;
    Viewer& m_viewer;
    UiState& m_state;
    int m_drag = -1;
    // A press and release that moved less than this (screen units) is a click, not a drag.
    static constexpr float kClickSlopPx = 4.0f;
    float m_dragged_px = 0;
    double m_x = 0, m_y = 0;
};

}  // namespace nbody
