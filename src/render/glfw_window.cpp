#define GLFW_INCLUDE_NONE
#include "render/glfw_window.hpp"

#include "render/assets.hpp"

#include <GLFW/glfw3.h>
#include <glad/gl.h>

#include <cstdlib>

namespace nbody {

namespace {
std::string glfw_error() {
    const char* desc = nullptr;
    const int code = glfwGetError(&desc);
    return code == GLFW_NO_ERROR ? std::string("unknown GLFW error")
                                 : std::string(desc ? desc : "GLFW error");
}
}  // namespace

bool display_available() {
    const char* x = std::getenv("DISPLAY");
    const char* wl = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wl && *wl);
}

std::unique_ptr<GlfwWindow> GlfwWindow::create(int width, int height, const std::string& title,
                                               std::string* why) {
    auto fail = [&](const std::string& r) -> std::unique_ptr<GlfwWindow> {
        if (why) *why = r;
        return nullptr;
    };
    if (!glfwInit()) return fail("glfwInit: " + glfw_error());
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    glfwWindowHint(GLFW_SCALE_TO_MONITOR,
                   GLFW_TRUE);  // HiDPI: window size in screen units scaled by the monitor
    GLFWwindow* w = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!w) {
        const std::string e = glfw_error();
        glfwTerminate();
        return fail("no OpenGL 4.5 core window: " + e);
    }
    glfwMakeContextCurrent(w);
    // The icon (assets/icon.png); a missing one leaves the desktop's default, not an error.
    if (const RgbaImage icon = load_rgba(asset_dir() + "/icon.png"); icon.width > 0) {
        GLFWimage image{icon.width, icon.height, const_cast<unsigned char*>(icon.pixels.data())};
        glfwSetWindowIcon(w, 1, &image);
    }
    std::unique_ptr<GlfwWindow> win(new GlfwWindow(w));
    if (std::string e = load_gl_functions(reinterpret_cast<void* (*)(const char*)>(glfwGetProcAddress));
        !e.empty())
        return fail(e);
    win->set_vsync(true);
    glfwSetWindowUserPointer(w, win.get());
    // The only callbacks: ImGui gets the same queue, a frame at a time (ui/input_trickle.hpp).
    glfwSetMouseButtonCallback(w, &GlfwWindow::on_mouse_button);
    glfwSetCursorPosCallback(w, &GlfwWindow::on_cursor);
    glfwSetScrollCallback(w, &GlfwWindow::on_scroll);
    glfwSetKeyCallback(w, &GlfwWindow::on_key);
    glfwSetCharCallback(w, &GlfwWindow::on_char);
    return win;
}

GlfwWindow::~GlfwWindow() {
    glfwDestroyWindow(m_window);
    glfwTerminate();
}

void GlfwWindow::framebuffer_size(int& width, int& height) const {
    glfwGetFramebufferSize(m_window, &width, &height);
}
void GlfwWindow::present() {
    glfwSwapBuffers(m_window);
}
std::string GlfwWindow::description() const {
    return gl_renderer_string() + " via GLFW";
}
bool GlfwWindow::should_close() const {
    return glfwWindowShouldClose(m_window);
}
void GlfwWindow::hide() {
    glfwHideWindow(m_window);
    glfwPollEvents();  // the window system acts on it now, not at the next event
}

void GlfwWindow::request_close() {
    glfwSetWindowShouldClose(m_window, GLFW_TRUE);
}
bool GlfwWindow::mouse_button_down(int button) const {
    return glfwGetMouseButton(m_window, button) == GLFW_PRESS;
}

std::vector<InputEvent> GlfwWindow::poll_events() {
    glfwPollEvents();
    std::vector<InputEvent> out;
    out.swap(m_events);
    return out;
}

void GlfwWindow::set_vsync(bool on) {
    glfwSwapInterval(on ? 1 : 0);
    m_vsync = on;
}

void GlfwWindow::set_title(const std::string& title) { glfwSetWindowTitle(m_window, title.c_str()); }

float GlfwWindow::content_scale() const {
    float sx = 1, sy = 1;
    glfwGetWindowContentScale(m_window, &sx, &sy);
    return sx > 0 ? sx : 1.0f;
}

DisplayInfo GlfwWindow::display_info() const {
    DisplayInfo d;
    d.content_scale = content_scale();
    int wx = 0, wy = 0, ww = 0, wh = 0;
    glfwGetWindowPos(m_window, &wx, &wy);
    glfwGetWindowSize(m_window, &ww, &wh);
    const int cx = wx + ww / 2, cy = wy + wh / 2;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* on = glfwGetPrimaryMonitor();
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0;
        glfwGetMonitorPos(monitors[i], &mx, &my);
        const GLFWvidmode* m = glfwGetVideoMode(monitors[i]);
        if (m && cx >= mx && cx < mx + m->width && cy >= my && cy < my + m->height) on = monitors[i];
    }
    if (!on) return d;
    glfwGetMonitorPhysicalSize(on, &d.width_mm, &d.height_mm);
    if (const GLFWvidmode* m = glfwGetVideoMode(on)) d.mode_width = m->width, d.mode_height = m->height;
    return d;
}

void GlfwWindow::push(GLFWwindow* w, InputEvent e) {
    e.time = glfwGetTime();
    if (auto* self = static_cast<GlfwWindow*>(glfwGetWindowUserPointer(w))) self->m_events.push_back(e);
}
void GlfwWindow::on_mouse_button(GLFWwindow* w, int button, int action, int mods) {
    push(w, {InputEvent::Kind::MouseButton, button, action, mods, 0, 0});
}
void GlfwWindow::on_cursor(GLFWwindow* w, double x, double y) {
    push(w, {InputEvent::Kind::CursorMove, 0, 0, 0, x, y});
}
void GlfwWindow::on_scroll(GLFWwindow* w, double dx, double dy) {
    push(w, {InputEvent::Kind::Scroll, 0, 0, 0, dx, dy});
}
void GlfwWindow::on_key(GLFWwindow* w, int key, int, int action, int mods) {
    push(w, {InputEvent::Kind::Key, key, action, mods, 0, 0});
}
void GlfwWindow::on_char(GLFWwindow* w, unsigned int codepoint) {
    push(w, {InputEvent::Kind::Char, int(codepoint), 0, 0, 0, 0});
}

double GlfwWindow::now() const {
    return glfwGetTime();
}

}  // namespace nbody
