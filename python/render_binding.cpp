// Simulation.render(width, height): the bodies drawn as the sandbox draws them, through a headless EGL
// context (an NVIDIA device or Mesa), returned as an H x W x 3 uint8 array. The GL lives in the renderer
// (src/render, linked into this module only); libnbody itself stays free of GL.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "py_simulation.hpp"
#include "render/gl_context.hpp"
#include "render/image_capture.hpp"
#include "render/particle_renderer.hpp"
#include "render/shader.hpp"

namespace nbody::python {

namespace {

struct Bodies {
    std::vector<Float4> pos;  // x, y, z, mass in float32, as the renderer's vertex buffer holds them
    std::vector<std::uint32_t> group;
};

// Keeps the bodies whose group is listed (all when the list is empty).
void keep_groups(Bodies& b, const std::vector<std::uint32_t>& groups) {
    if (groups.empty()) return;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < b.pos.size(); ++i) {
        if (std::find(groups.begin(), groups.end(), b.group[i]) == groups.end()) continue;
        b.pos[kept] = b.pos[i], b.group[kept] = b.group[i], ++kept;
    }
    b.pos.resize(kept), b.group.resize(kept);
}

Bodies read_bodies(api::Simulation& s) {
    const std::size_t n = s.size();
    std::vector<double> x(3 * n), m(n);
    Bodies b{std::vector<Float4>(n), std::vector<std::uint32_t>(n)};
    s.get_positions(x.data());
    s.get_masses(m.data());
    s.get_groups(b.group.data());
    for (std::size_t i = 0; i < n; ++i)
        b.pos[i] = to_float4(Double4{x[3 * i], x[3 * i + 1], x[3 * i + 2], m[i]});
    return b;
}

// The camera fits the bodies about their centre of mass, as the sandbox's "frame all" does.
float frame(const Bodies& b, Camera& cam) {
    double mass = 0;
    glm::dvec3 mx(0);
    for (const Float4& p : b.pos) mass += p.w, mx += double(p.w) * glm::dvec3(p.x, p.y, p.z);
    const glm::vec3 c = mass > 0 ? glm::vec3(mx / mass) : glm::vec3(0);
    const float radius = framing_radius(b.pos, c);
    cam.frame_all(c, radius);
    return radius;
}

struct View {
    int width, height;
    std::optional<float> point_size, yaw, pitch;
    float brightness;
    ColorMode color;
};

// Draws into a fresh context (made and released within the call, so any thread may call it) and returns
// RGBA, top row first. Throws std::runtime_error with EGL's reasons when no context can be made.
Image draw(const Bodies& b, const View& v) {
    std::string why;
    auto ctx = create_headless_context(v.width, v.height, &why);
    if (!ctx) throw std::runtime_error("render: no headless OpenGL 4.5 context (EGL device or Mesa): " + why);
    ParticleRenderer r(shader_dir());
    r.set_particle_count(b.pos.size());
    r.set_groups(b.group);
    r.begin_position_update(0);
    r.upload_positions(b.pos.data(), b.pos.size());
    RenderSettings s;
    s.point_size = v.point_size.value_or(default_point_size(b.pos.size()));
    s.brightness = v.brightness;
    s.color_mode = v.color;
    r.end_position_update(s.trails);
    Camera cam;
    const float radius = frame(b, cam);
    if (v.yaw || v.pitch) cam.set_angles(v.yaw.value_or(cam.yaw()), v.pitch.value_or(cam.pitch()));
    const DepthRange depth{std::max(cam.distance() - radius, 0.0f), cam.distance() + radius};
    r.draw(cam, s, depth, v.width, v.height, ctx->target_framebuffer());
    return read_framebuffer(ctx->target_framebuffer(), v.width, v.height);
}

ColorMode color_mode(const std::string& name) {
    if (name == "group") return ColorMode::Group;
    if (name == "depth") return ColorMode::Depth;
    throw py::value_error("color: must be group or depth (got '" + name + "')");
}

py::array_t<std::uint8_t> render(PySimulation& self, int width, int height, std::optional<float> point_size,
                                 float brightness, const std::string& color, std::optional<float> yaw,
                                 std::optional<float> pitch, const std::vector<std::uint32_t>& groups) {
    if (width < 1 || width > 8192 || height < 1 || height > 8192)
        throw py::value_error("render: width and height must be from 1 to 8192 (got " +
                              std::to_string(width) + " x " + std::to_string(height) + ")");
    if (point_size && !(*point_size > 0 && *point_size <= 256))
        throw py::value_error("point_size: must be in (0, 256] pixels");
    if (!(brightness > 0 && std::isfinite(brightness))) throw py::value_error("brightness: must be > 0");
    const View v{width, height, point_size, yaw, pitch, brightness, color_mode(color)};
    Bodies b = without_gil(self, read_bodies);
    keep_groups(b, groups);
    if (b.pos.empty()) throw py::value_error("groups: no body belongs to the groups given");
    Image img;
    {
        py::gil_scoped_release release;  // the bodies are copied: other threads may step meanwhile
        img = draw(b, v);
    }
    py::array_t<std::uint8_t> out({height, width, 3});
    std::uint8_t* o = out.mutable_data();
    for (std::size_t i = 0; i < std::size_t(width) * height; ++i)
        for (int c = 0; c < 3; ++c) o[3 * i + c] = img.rgba[4 * i + c];
    return out;
}

}  // namespace

void bind_render(py::class_<PySimulation>& c) {
    c.def(
        "render", &render, py::arg("width") = 640, py::arg("height") = 480, py::kw_only(),
        py::arg("point_size") = py::none(), py::arg("brightness") = 1.0f, py::arg("color") = "group",
        py::arg("yaw") = py::none(), py::arg("pitch") = py::none(),
        py::arg("groups") = std::vector<std::uint32_t>{},
        R"(The bodies drawn as nbody-sandbox draws them (additive glowing sprites, tone-mapped), framed
on the centre of mass and the sphere holding 90% of the bodies, seen from 70 degrees above the x-y plane
unless yaw and pitch (radians: yaw about z from +x, pitch the elevation) say otherwise. color: 'group'
(the scene component each body came from) or 'depth'. point_size in pixels (default: suited to N).
groups: draw only the bodies of these groups (see Simulation.groups), framed on them; all when empty.

Returns a new uint8 array of shape (height, width, 3), top row first. Renders through a headless EGL
context (an NVIDIA GPU, or Mesa's llvmpipe on the CPU), made for this call; RuntimeError with EGL's reasons
where there is neither.)");
}

}  // namespace nbody::python
