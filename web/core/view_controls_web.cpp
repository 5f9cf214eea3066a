// The desktop window's exposure and glow controls as the page's View panel shows them, and its trails'
// settings (samples a body, frames between samples, light): the defaults are
// RenderSettings' (render/particle_renderer.hpp); the ranges are the window's sliders (ui/panels.cpp,
// view_panel), ImGui code that is not in the web build: they are repeated here, this one place; keep them in
// step. Each is written as a parameter-registry row so that a refused value gets the registry's words, as dt
// and eps do.
#include "view_controls_web.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>

#include "core/rows/param_registry.hpp"
#include "render/particle_renderer.hpp"

namespace nbody::web {
namespace {

using emscripten::val;

// The names are the link's (the desktop's command-line words: --exposure-ev, --exposure, --glow).
constexpr std::array<ParamSpec, 3> kControls{{
    {"exposure-ev", false, -6, 6, "", "stops",
     "the automatic exposure this many stops brighter (+) or darker (-) than measured", 0, 0, nullptr, nullptr},
    {"exposure", false, 1e-3, 1e4, "", "", "a fixed exposure: light 1 / exposure is white", 0, 0, nullptr, nullptr},
    {"glow", false, 0, 4, "", "", "bloom around dense regions (0: none)", 0, 0, nullptr, nullptr},
}};

const ParamSpec* find_control(const std::string& name) {
    for (const ParamSpec& s : kControls)
        if (s.name == name) return &s;
    return nullptr;
}

// The shortest decimal that reads back as `f` (0.3f is 0.30000001192... as a double): the default a slider
// shows and the link compares with. (libc++ 14 has no floating-point std::to_chars.)
double shortest_decimal(float f) {
    char text[32];
    for (int digits = 1; digits < 9; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, double(f));
        if (float(std::strtod(text, nullptr)) == f) return std::strtod(text, nullptr);
    }
    return f;
}

val control(const ParamSpec& s, float value) {
    val v = val::object();
    v.set("lo", s.lo);
    v.set("hi", s.hi);
    v.set("value", shortest_decimal(value));
    v.set("unit", std::string(s.unit));
    v.set("help", std::string(s.help));
    return v;
}

}  // namespace

val view_controls() {
    // `groups` given so that default_group_styles (particle_renderer.cpp, GL) is not called.
    const RenderSettings desktop{.groups = {}};
    val v = val::object();
    v.set("autoExposure", desktop.auto_exposure);
    v.set("exposureEv", control(kControls[0], desktop.exposure_ev));
    v.set("exposure", control(kControls[1], desktop.exposure));
    v.set("glow", control(kControls[2], desktop.glow));
    val trails = val::object();  // TrailSettings (render/trails.hpp): the page's trails take the same
    trails.set("length", desktop.trails.length);
    trails.set("stride", desktop.trails.stride);
    trails.set("brightness", shortest_decimal(desktop.trails.brightness));
    v.set("trails", trails);
    return v;
}

std::optional<std::string> view_control_problem(const std::string& name, double value) {
    const ParamSpec* s = find_control(name);
    if (!s) return std::nullopt;
    return param_problem(*s, value);
}

}  // namespace nbody::web
