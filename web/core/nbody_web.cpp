// The desktop's C++ core as the page sees it (embind): scenes by name or text -> bodies and parameters, the
// parameter registry's ranges and words, the float64 reference force, energies, the desktop's framing and how
// its window draws the scene (look_web.cpp; the kernel shapes: shape_web.cpp; the desktop's CPU backend:
// cpu_backend_web.cpp). Compiled by web/core/build.sh from the desktop's own sources; it adds nothing to them. Errors come back as text ("cartwheel.toml:12:7: component[0].n: ...").
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_registry.hpp"
#include "core/session/auto_step.hpp"
#include "cpu/reference_force.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "render/camera.hpp"
#include "scene/orbit_guides.hpp"
#include "scene/scene.hpp"
#include "scene/scene_file.hpp"
#include "scene/scene_names.hpp"
#include "js_arrays.hpp"
#include "look_web.hpp"
#include "view_controls_web.hpp"

namespace nbody::web {
namespace {

using emscripten::val;

constexpr const char* kSceneDir = "/scenes";  // scenes/ embedded at build time

// The camera the desktop's window starts a scene with (app/viewer.cpp): 90% of the bodies fitted about the
// centre of mass, unless the scene names its own view.
val home_view(const SceneSpec& scene, const State& s) {
    const CentreOfMass com = centre_of_mass(s);
    std::vector<Float4> pos(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        pos[i] = {float(s.pos_mass[i].x), float(s.pos_mass[i].y), float(s.pos_mass[i].z), float(s.pos_mass[i].w)};
    const glm::vec3 c(float(com.position.x), float(com.position.y), float(com.position.z));
    const float radius = framing_radius(pos, c);
    Camera cam;
    cam.frame_all(c, radius);
    val v = val::object();
    v.set("radius", radius);
    if (scene.camera) {
        const CameraSpec& k = *scene.camera;
        set_scene_home(cam, k);  // its distance, or the one that fits its frame box's height
        v.set("target", val::array(std::vector<double>{k.target.x, k.target.y, k.target.z}));
        v.set("distance", cam.distance());
        v.set("yawDeg", k.yaw_deg);
        v.set("pitchDeg", k.pitch_deg);
    } else {
        v.set("target", val::array(std::vector<double>{c.x, c.y, c.z}));
        v.set("distance", cam.distance());
        v.set("yawDeg", 0.0);
        v.set("pitchDeg", 30.0);  // the desktop camera's home pitch
    }
    v.set("frameAspect", cam.frame_aspect());  // the box kept whole is this many times wider than high
    v.set("fovY", cam.fov_y);                  // 45 degrees, or a frame box's 20
    v.set("trails",
          scene.camera ? scene.camera->trails : 0);  // samples a body the scene opens with (0: none)
    return v;
}

// The shared step the page runs a scene with, and why where it is not the scene's own. The page steps every
// body together (no block steps in WGSL), so a scene made for block steps (dt its largest step) or for the
// automatic step takes the desktop's automatic shared step (core/session/auto_step.hpp: the smallest step any
// body wants at the start, a power of two) from the start's accelerations. Those come from the CPU tree
// (N log N, within about 1e-3 of direct summation: plenty to pick a power of two) rather than the O(N^2) sum.
struct PageStep {
    double dt;
    std::string note;  // empty: the scene's own dt
};
PageStep page_step(const SceneSpec& scene, const State& s) {
    const bool block = scene.integrator && integrator_info(*scene.integrator).block_steps;
    if (!block && !scene.dt_auto) return {scene.dt, ""};
    const std::size_t n = s.size();
    std::vector<Float4> acc(n);
    CpuTree(1).evaluate(s.pos_mass.data(), n, TreeParams{}, scene.eps, acc.data());
    std::vector<Double4> a(n);
    for (std::size_t i = 0; i < n; ++i) a[i] = {acc[i].x * scene.G, acc[i].y * scene.G, acc[i].z * scene.G, 0.0};
    AutoStep step = auto_step(s, a, scene.eps, scene.G);
    if (block && step.dt >= scene.dt) return {scene.dt, ""};  // no body wants less than the largest block step
    const std::string why = block ? "This scene takes block steps on the desktop (" +
                                        std::string(integrator_name(*scene.integrator)) + ", steps up to " +
                                        step_text(scene.dt) + "); the page steps every body together: "
                                  : "The scene asks for the automatic step: ";
    return {step.dt, why + auto_step_words(step) + "."};
}

// The scene's choreography paths (scene/orbit_guides.hpp), for the page's orbit guide: x, y, z a sample.
val guides_js(const SceneSpec& scene) {
    val out = val::array();
    for (const OrbitGuide& g : orbit_guides(scene)) {
        std::vector<float> xyz;
        for (const Double3& p : g.points) xyz.insert(xyz.end(), {float(p.x), float(p.y), float(p.z)});
        val v = val::object();
        v.set("label", g.label);
        v.set("points", float32_copy(xyz));
        v.set("velocity", val::array(std::vector<double>{g.velocity.x, g.velocity.y, g.velocity.z}));
        v.set("period", g.period);
        v.set("phases", val::array(g.phases));
        out.call<void>("push", v);
    }
    return out;
}

val scene_result(const SceneSpec& scene, const State& s) {
    val r = val::object();
    r.set("ok", true);
    r.set("name", scene.name);
    r.set("description", scene.description);
    r.set("watch", scene.watch);
    r.set("source", scene.source);
    const PageStep step = page_step(scene, s);
    r.set("dt", step.dt);
    r.set("stepNote", step.note);
    r.set("eps", scene.eps);
    r.set("G", scene.G);
    r.set("stepsPerFrame", scene.steps_per_frame);
    r.set("method", scene.method && *scene.method == ForceMethod::Tree ? "tree" : "direct");
    r.set("n", double(s.size()));
    r.set("sceneBodies", double(scene.total_bodies()));
    r.set("posMass", float32_copy(packed(s.pos_mass)));
    r.set("vel", float32_copy(packed(s.vel)));
    std::vector<double> groups(s.group.begin(), s.group.end());
    r.set("group", val::global("Uint32Array").call<val>("from", val::array(groups)));
    r.set("view", home_view(scene, s));
    r.set("look", scene_look(scene, s));
    r.set("guides", guides_js(scene));
    return r;
}

val failure(const std::string& why) {
    val r = val::object();
    r.set("ok", false);
    r.set("error", why);
    return r;
}

}  // namespace

val scene_names_js() { return val::array(scene_names(kSceneDir)); }

// A shipped scene by name (text empty) or scene text under `name`, parsed and checked (no bodies made).
SceneSpec read_scene(const std::string& name, const std::string& text) {
    if (!text.empty()) return parse_scene(text, name);
    const auto path = find_scene(name, kSceneDir);
    if (!path) throw Error(unknown_scene_message(name, kSceneDir));
    return load_scene_file(*path);
}

// The body count and force method a scene asks for, without generating it (so a page can reduce a big scene
// first).
val scene_bodies_js(const std::string& name, const std::string& text) {
    try {
        val r = val::object();
        r.set("ok", true);
        const SceneSpec scene = read_scene(name, text);
        r.set("n", double(scene.total_bodies()));
        r.set("method", scene.method && *scene.method == ForceMethod::Tree ? "tree" : "direct");
        return r;
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// The scene's bodies; `bodies` > 0 rescales the body count as the desktop's body-count multiplier does.
val load_scene_js(const std::string& name, const std::string& text, double bodies) {
    try {
        SceneSpec scene = read_scene(name, text);
        if (bodies > 0 && std::size_t(bodies) != scene.total_bodies()) rescale_bodies(scene, std::size_t(bodies));
        return scene_result(scene, build_scene(scene));
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// "" when `value` is allowed for parameter `name`, else the registry's words ("must be from 1e-12 to 1e6
// (got -1)"); the View panel's exposure and glow are checked alike; unknown names say so.
std::string param_problem_js(const std::string& name, double value) {
    const ParamSpec* p = find_param(name);
    if (p) return param_problem(*p, value);
    return view_control_problem(name, value).value_or("unknown parameter '" + name + "'");
}

val param_info_js(const std::string& name) {
    const ParamSpec* p = find_param(name);
    if (!p) return val::null();
    val v = val::object();
    v.set("lo", p->lo);
    v.set("hi", p->hi);
    v.set("zeroMeans", std::string(p->zero));
    v.set("unit", std::string(p->unit));
    v.set("help", param_help_text(*p));
    v.set("range", range_text(*p));
    return v;
}

// a_i in float64 (cpu/reference_force.cpp), 3 doubles a body, from float32 x, y, z, m.
val reference_accelerations_js(const val& pos_mass, double eps, double G) {
    const State s = state_from(pos_mass, val::undefined());
    const std::vector<Double3> a = reference_accelerations(s, eps, G, 1);
    std::vector<double> out(3 * a.size());
    for (std::size_t i = 0; i < a.size(); ++i) out[3 * i] = a[i].x, out[3 * i + 1] = a[i].y, out[3 * i + 2] = a[i].z;
    return float64_copy(out);
}

// Kinetic, potential and total energy in float64 (core/physics/diagnostics.cpp), O(N^2).
val energy_js(const val& pos_mass, const val& vel, double eps, double G) {
    const Diagnostics d = compute_diagnostics(state_from(pos_mass, vel), eps, G, 1);
    val v = val::object();
    v.set("kinetic", d.kinetic);
    v.set("potential", d.potential);
    v.set("total", d.total);
    return v;
}

}  // namespace nbody::web

EMSCRIPTEN_BINDINGS(nbody_core) {
    using namespace nbody::web;
    emscripten::function("sceneNames", &scene_names_js);
    emscripten::function("sceneBodies", &scene_bodies_js);
    emscripten::function("loadScene", &load_scene_js);
    emscripten::function("paramProblem", &param_problem_js);
    emscripten::function("paramInfo", &param_info_js);
    emscripten::function("viewControls", &view_controls);
    emscripten::function("referenceAccelerations", &reference_accelerations_js);
    emscripten::function("energy", &energy_js);
}
