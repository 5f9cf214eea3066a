#pragma once
// GLFW's events as the window queues them (render/glfw_window.hpp), for the input tests: a key's press, its
// character and its release as GLFW reports typing; clicks and moves.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>
#include <vector>

#include "render/glfw_window.hpp"

namespace nbody::test {

using K = InputEvent::Kind;
inline InputEvent key(int k, int action) { return {K::Key, k, action, 0, 0, 0}; }
inline InputEvent chr(char c) { return {K::Char, int(c), 0, 0, 0, 0}; }
inline InputEvent button(int action) { return {K::MouseButton, GLFW_MOUSE_BUTTON_LEFT, action, 0, 0, 0}; }
inline InputEvent move(double x, double y) { return {K::CursorMove, 0, 0, 0, x, y}; }

// Digits and '.' typed, then Return: each key's press, its character, its release.
inline std::vector<InputEvent> typed(const std::string& text) {
    std::vector<InputEvent> out;
    for (char c : text) {
        const int k = c == '.' ? GLFW_KEY_PERIOD : GLFW_KEY_0 + (c - '0');
        out.push_back(key(k, GLFW_PRESS));
        out.push_back(chr(c));
        out.push_back(key(k, GLFW_RELEASE));
    }
    out.push_back(key(GLFW_KEY_ENTER, GLFW_PRESS));
    out.push_back(key(GLFW_KEY_ENTER, GLFW_RELEASE));
    return out;
}

}  // namespace nbody::test
