#include "ui/input_trickle.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace nbody {

namespace {
bool is_mouse(const InputEvent& e) {
    return e.kind == InputEvent::Kind::MouseButton || e.kind == InputEvent::Kind::CursorMove ||
           e.kind == InputEvent::Kind::Scroll;
}
bool contains(const std::vector<int>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}
}  // namespace

void InputTrickle::add(const std::vector<InputEvent>& events) {
    m_pending.insert(m_pending.end(), events.begin(), events.end());
}

std::vector<InputEvent> InputTrickle::next_frame() {
    std::vector<InputEvent> out;
    std::deque<InputEvent> rest;
    bool mouse_waits = false, keys_wait = false;
    // Buttons and keys that changed this frame in a way the GUI must see; keys that typed a character.
    std::vector<int> buttons_changed, keys_changed, keys_typing;
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        const InputEvent& e = m_pending[i];
        if (is_mouse(e)) {
            if (!mouse_waits && e.kind == InputEvent::Kind::MouseButton) {
                if (contains(buttons_changed, e.button_or_key)) mouse_waits = true;
                else buttons_changed.push_back(e.button_or_key);
            } else if (!mouse_waits && e.kind == InputEvent::Kind::CursorMove && !buttons_changed.empty()) {
                mouse_waits = true;
            }
            if (mouse_waits) rest.push_back(e);
            else out.push_back(e);
            continue;
        }
        if (!keys_wait && e.kind == InputEvent::Kind::Key && e.action != GLFW_REPEAT) {
            const int k = e.button_or_key;
            // A key that types a character reaches the GUI as that character (GLFW sends it right after the
            // press): it may go down and up, and down again, in one frame. Any other must be seen in each state.
            const bool types = e.action == GLFW_PRESS && i + 1 < m_pending.size() &&
                               m_pending[i + 1].kind == InputEvent::Kind::Char;
            if (types) {
                keys_typing.push_back(k);
            } else if (e.action == GLFW_RELEASE && contains(keys_typing, k)) {
                // its press typed this frame: the release may follow it at once
            } else if (contains(keys_changed, k)) {
                keys_wait = true;
            } else {
                keys_changed.push_back(k);
            }
        }
        if (keys_wait) rest.push_back(e);
        else out.push_back(e);
    }
    m_pending.swap(rest);
    return out;
}

}  // namespace nbody
