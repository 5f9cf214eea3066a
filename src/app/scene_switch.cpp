#include "app/scene_switch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "app/step_probe.hpp"
#include "core/rows/force_method.hpp"
#include "engine/backend_factory.hpp"
#include "scene/scene_file.hpp"
#include "scene/scene_names.hpp"
#include "ui/load_budget.hpp"

namespace nbody {

namespace fs = std::filesystem;

namespace {
// What a scene file asks for: its bodies and force method (none and direct where it cannot be read: the
// load then says why).
struct SceneAsk {
    std::size_t bodies = 0;
    ForceMethod method = ForceMethod::Direct;
    std::string name;
};
SceneAsk scene_ask(const std::string& path) {
    try {
        const SceneSpec spec = load_scene_file(path);
        return {spec.total_bodies(), spec.apply_to({}).method, spec.name};
    } catch (const std::exception&) {
        return {0, ForceMethod::Direct, fs::path(path).stem().string()};
    }
}
}  // namespace

std::size_t SceneSwitch::smooth_bodies(ForceMethod method, int threads) {
    std::size_t& cached = m_smooth[method];
    if (cached == 0) cached = cpu_smooth_bodies(method, threads, LoadBudget::kStepSeconds);
    return cached;
}

std::string SceneSwitch::load(LoadRequest asked, bool full) {
    // "cartwheel" typed into Open is the shipped scene, as on the command line.
    if (std::optional<std::string> shipped = find_scene(asked.path, scenes_dir())) asked.path = *shipped;
    const bool replacing = m_viewer.loading();
    const SceneAsk ask = scene_ask(asked.path);  // a file opened by path is planned as a listed one
    const std::size_t bodies = ask.bodies;
    m_loading_name = ask.name;
    Simulation& sim = m_viewer.sim();
    const bool gpu = sim.backend().caps().gpu;
    double smooth = std::numeric_limits<double>::infinity();
    if (!full && gpu) {
        const double rate =
            LoadBudget::usable_rate(sim.perf().latest().rate.interactions_per_s, sim.backend().size());
        smooth = LoadBudget::smooth_bodies(rate, gpu);
    } else if (!full && double(bodies) * asked.multiplier > LoadBudget::kFloor) {
        // The CPU: measured here, with the scene's own force method.
        smooth = double(smooth_bodies(ask.method, sim.params().cpu_threads));
    }
    if (!replacing) m_running_plan = m_plan;  // the running scene's, back if this load fails or is cancelled
    const LoadRequest start = m_plan.plan(asked, bodies, smooth, gpu ? "this GPU" : "the CPU");
    m_viewer.begin_load_scene(start.path, start.multiplier);
    return replacing ? "the scene being generated was dropped for " + m_loading_name : "";
}

std::string SceneSwitch::load_full() {
    const std::optional<LoadRequest> f = m_plan.full();
    return f ? load(*f, true) : "";
}

bool SceneSwitch::poll() {
    if (std::optional<std::string> done = m_viewer.poll_load()) {
        m_status = *done;
        // Failed or cancelled: the scene before it runs on, and so does its "Load full N" and its note.
        if (!done->empty()) m_plan = m_running_plan;
        return done->empty();
    }
    if (m_viewer.loading()) {
        char text[256];
        std::snprintf(text, sizeof text, "generating %s: %.0f%% (Esc cancels; this one keeps running)",
                      m_loading_name.c_str(), 100.0 * m_viewer.load_progress());
        m_status = text;
    }
    return false;
}

void SceneSwitch::measure() {
    if (m_viewer.loading() || !m_plan.full() || m_plan.measured()) return;
    Simulation& sim = m_viewer.sim();
    if (sim.stepping_in_background()) return;  // at a frame with no step under way: nothing waits for one
    if (!sim.facts().caps.gpu) {
        // On the CPU the frames' own drawing (a software renderer, often) slows the steps beside them, far
        // more at the reduced scene's frame rate than at the full one's: a copy of the reduced scene is
        // stepped here once, with the frame held (a few tens of ms: its steps take about the budget).
        State now;
        sim.backend().read_state(now);
        const double step = measure_cpu_step(now, sim.params());
        m_plan.set_measured_step(step, now.size(), sim.params().method);
    } else {
        m_plan.add_measurement(sim.steps_last_frame(), sim.step_seconds_last_frame(), sim.facts().size,
                               sim.params().method);
    }
    if (m_plan.measured()) std::fprintf(stderr, "nbody-sandbox: %s\n", m_plan.note().c_str());
}

AppOptions window_start_options(const AppOptions& o, LoadPlan& plan) {
    if (!o.snapshot_path.empty() || !o.resume_path.empty()) return o;
    const std::string path = o.scene_path.empty() ? default_scene_path() : o.scene_path;
    const SceneSpec spec = load_scene_file(path);  // a bad file: the same error the viewer would give
    const double scene_n = double(std::max<std::size_t>(spec.total_bodies(), 1));
    const double asked_n = o.bodies ? double(*o.bodies) : scene_n;
    const bool gpu = o.backend != "cpu" && cuda_device_count() > 0;
    const ForceMethod method = o.method.empty() ? spec.apply_to({}).method : *parse_method(o.method);
    const double smooth = gpu || asked_n <= LoadBudget::kFloor
                              ? LoadBudget::smooth_bodies(0, gpu)
                              : double(cpu_smooth_bodies(method, o.threads, LoadBudget::kStepSeconds));
    const LoadRequest start =
        plan.plan({path, asked_n / scene_n}, std::size_t(scene_n), smooth, gpu ? "this GPU" : "the CPU");
    if (!plan.full()) return o;
    AppOptions r = o;
    r.bodies = std::llround(scene_n * start.multiplier);
    std::fprintf(stderr, "nbody-sandbox: %s\n", plan.note().c_str());
    return r;
}

}  // namespace nbody
