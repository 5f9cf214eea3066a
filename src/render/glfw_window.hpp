#pragma once
// The desktop window: GLFW, OpenGL 4.5 core, resizable, vsync on by default, HiDPI-aware (the framebuffer
// is in pixels, the window in screen units). Input events are queued, each with its time, for the app, which
// routes them to the camera only when the GUI does not want them, and hands them to the GUI (ui/input_trickle.hpp).
#include <memory>
#include <string>
#include <vector>

#include "render/display_scale.hpp"
#include "render/gl_context.hpp"

struct GLFWwindow;

namespace nbody {

struct InputEvent {
    enum class Kind { MouseButton, CursorMove, Scroll, Key, Char };
    Kind kind;
    int button_or_key = 0;  // GLFW mouse button or key code; Char: the Unicode code point typed
    int action = 0;         // GLFW_PRESS / GLFW_RELEASE / GLFW_REPEAT
    int mods = 0;
    double x = 0, y = 0;  // cursor (screen units) or scroll offsets
    double time = 0;      // seconds on GLFW's clock when it happened (not when the frame read it)
};

class GlfwWindow final : public GlContext {
  public:
    // Null and the reason (no display, no GL 4.5) in *why.
    static std::unique_ptr<GlfwWindow> create(int width, int height, const std::string& title,
                                              std::string* why);
    ~GlfwWindow() override;

    void framebuffer_size(int& width, int& height) const override;
    unsigned target_framebuffer() const override { return 0; }
    void present() override;
    bool headless() const override { return false; }
    std::string description() const override;

    GLFWwindow* handle() const { return m_window; }
    bool should_close() const;
    void request_close();
    // Off the screen at once (the program then finishes its background work and exits).
    void hide();
    // Polls the window system and returns the events since the last call, in the order they happened.
    std::vector<InputEvent> poll_events();
    void set_vsync(bool on);
    void set_title(const std::string& title);
    bool vsync() const { return m_vsync; }
    float content_scale() const;  // 2 on a HiDPI display
    // The monitor the window's centre is on (the primary one when none is found): what ui_scale_for_display
    // needs.
    DisplayInfo display_info() const;
    bool mouse_button_down(int button) const;
    double now() const;  // seconds on the clock InputEvent::time is in

  private:
    explicit GlfwWindow(GLFWwindow* w) : m_window(w) {}
    static void on_mouse_button(GLFWwindow* w, int button, int action, int mods);
    static void on_cursor(GLFWwindow* w, double x, double y);
    static void on_scroll(GLFWwindow* w, double dx, double dy);
    static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);
    static void on_char(GLFWwindow* w, unsigned int codepoint);
    static void push(GLFWwindow* w, InputEvent e);

    GLFWwindow* m_window;
    bool m_vsync = true;
    std::vector<InputEvent> m_events;
};

// True when a display is available to open a window ($DISPLAY or $WAYLAND_DISPLAY set).
bool display_available();

}  // namespace nbody
