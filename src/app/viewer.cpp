#include "app/viewer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "app/checkpoint.hpp"
#include "core/errors.hpp"
#include "core/rows/integrator.hpp"
#include "engine/backend_factory.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "gl_backend/gl_limits.hpp"
#include "render/colour_scale.hpp"
#include "render/screen_pick.hpp"
#include "render/shader.hpp"
#include "scene/group_labels.hpp"
#include "scene/scene_file.hpp"

namespace nbody {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Speed at the top of the colour map: a bit above what 90% of the bodies start with.
float typical_top_speed(const State& s) {
    std::vector<float> v(s.size());
    for (std::size_t i = 0; i < s.size(); ++i)
        v[i] = static_cast<float>(
            std::sqrt(s.vel[i].x * s.vel[i].x + s.vel[i].y * s.vel[i].y + s.vel[i].z * s.vel[i].z));
    if (v.empty()) return 1;
    auto mid = v.begin() + std::ptrdiff_t(v.size() * 9 / 10);
    std::nth_element(v.begin(), mid, v.end());
    return std::max(1.5f * *mid, 1e-6f);
}

glm::vec3 to_vec3(const Double3& d) {
    return glm::vec3(float(d.x), float(d.y), float(d.z));
}

}  // namespace

Viewer::Viewer(const AppOptions& o, GlContext& ctx)
    : m_ctx(ctx), m_sim([](const SimParams& p, BackendChoice* choice) {
          return make_sandbox_backend(p, choice, {GlContextSource::Current, {}});
      }) {
    m_allow_interop = o.interop;
    m_headless = o.headless;
    m_settings.color_mode = parse_color_mode(o.color).value_or(ColorMode::Group);  // options checked the word
    if (o.trails) m_settings.trails.on = true, m_settings.trails.length = *o.trails;
    m_scene_trails.from_flag = o.trails.has_value();
    if (o.tree_cells) m_settings.cells.on = true, m_settings.cells.depth = *o.tree_cells;
    if (o.exposure) m_settings.auto_exposure = false, m_settings.exposure = *o.exposure;
    m_settings.exposure_ev = o.exposure_ev;
    if (o.glow) m_settings.glow = *o.glow;
    m_settings.show_dark_matter = o.dark_matter == "show";
    if (o.dark_matter == "hide") m_settings.dark_matter_light = 0;
    m_renderer = std::make_unique<ParticleRenderer>(shader_dir());
    m_draw_timer = std::make_unique<GpuTimer>();
    m_measure_renderer = std::make_unique<MeasureRenderer>(shader_dir());
    const RunSetup setup = prepare_run(o);
    // Off-screen runs have no timeline to drag: no rewind slots, and frames stepped in one piece.
    if (o.headless) m_sim.set_rewind(RewindSettings{false});
    start(setup.scene, setup.params, initial_state(setup), run_group_labels(setup));
    if (setup.resume) resume_backend(m_sim.backend(), *setup.resume);  // --resume: the integrator's own state
    m_sim.set_paused(o.paused);
    m_sim.set_auto_steps(o.auto_steps);
    try {  // --pick: a number past the scene's bodies says so, with the flag
        if (!o.pick.empty()) m_measure.pick(o.pick[0]);
        if (o.pick.size() > 1) m_measure.pick_second(o.pick[1]);
    } catch (const Error& e) {
        throw ParamError("--pick", e.what());
    }
}

Viewer::~Viewer() {
    m_sim.diagnostics().wait();
    m_feed.detach();  // unregister from CUDA before the renderer deletes the buffer
}

void Viewer::start(const SceneSpec& scene, const SimParams& p, const State& initial,
                   const std::vector<std::string>& group_names) {
    m_sim.load(initial, p);  // throws, leaving the old scene running
    m_scene = scene;
    // dt "auto": from the accelerations the backend took at its reset, applied at the next frame boundary.
    // Block steps (an integrator chosen in the panel before this scene) keep dt as their largest step.
    m_auto_step.reset();
    if (scene.dt_auto && !integrator_info(p.integrator).block_steps) {
        m_auto_step = auto_step_of(m_sim.backend());
        m_sim.pending().dt = m_auto_step->dt;
    }
    m_com = centre_of_mass(initial);
    m_group_count = 1;
    for (uint32_t g : initial.group) m_group_count = std::max<std::size_t>(m_group_count, g + 1);
    m_group_names = group_names;
    for (std::size_t g = m_group_names.size(); g < m_group_count; ++g)
        m_group_names.push_back("group " + std::to_string(g));
    apply_group_looks(group_looks(scene));
    m_guides = orbit_guides(scene);
    m_settings.speed_max = typical_top_speed(initial);
    m_settings.point_size = default_point_size(initial.size());
    m_settings.min_sprite_px = few_body_sprite_px(initial.size());
    attach_renderer();
    frame_all();  // sets the radius the sprite sizes use, and a home view
    double mass = 0;
    for (const Double4& b : initial.pos_mass) mass += b.w;
    m_renderer->set_scene_scale(mass, m_radius);
    if (scene.camera) set_scene_home(m_camera, *scene.camera);  // the scene's own suggested view wins
    m_scene_trails.apply(m_settings.trails, scene.camera ? scene.camera->trails : 0,
                         software_renderer(m_ctx.description()));
    m_measure.new_scene(initial.size(), m_radius);  // a new scene: the picks go
}

std::string Viewer::trail_note() const {
    const std::string& ring = m_renderer->trails().note();
    return !ring.empty() || m_settings.trails.on ? ring : m_scene_trails.note;
}

std::string Viewer::step_note() const {
    const bool still = m_auto_step && m_sim.params().dt == m_auto_step->dt;
    return still ? auto_step_words(*m_auto_step) : std::string();
}

void Viewer::apply_group_looks(const std::vector<ComponentLook>& looks) {
    m_group_kinds.assign(m_group_count, ComponentKind::Cluster);
    m_settings.groups = default_group_styles();
    for (std::size_t g = 0; g < looks.size(); ++g) {
        if (g < m_group_kinds.size()) m_group_kinds[g] = looks[g].kind;
        GroupStyle& st = m_settings.groups[g % kGroupColours];
        if (looks[g].colour)
            st.colour = glm::vec3((*looks[g].colour)[0], (*looks[g].colour)[1], (*looks[g].colour)[2]);
        st.dark_matter = is_dark_matter(looks[g].kind);
    }
}

void Viewer::attach_renderer() {
    m_potential.forget();  // the values belong to the bodies as they were
    m_renderer->set_body_scalars({}, {});
    m_feed.attach(m_sim.backend(), *m_renderer, m_allow_interop);
    m_renderer->set_groups(m_sim.initial_state().group);
    m_feed.update(m_sim.backend(), *m_renderer);
    m_renderer->begin_position_update(0);
    m_renderer->clear_trails();  // a reset, a new scene or backend: no line back to where the bodies were
    m_attached_generation = m_sim.generation();
    m_last_sim_time = m_sim.backend().time();
}

void Viewer::set_allow_interop(bool on) {
    m_allow_interop = on;
    attach_renderer();
}

std::string Viewer::load_scene(const std::string& path, double multiplier) {
    begin_load_scene(path, multiplier);
    for (;;) {
        if (std::optional<std::string> r = poll_load()) return *r;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

std::optional<std::string> Viewer::poll_load() {
    std::optional<SceneLoader::Result> r = m_loader.take();
    if (!r) return std::nullopt;
    if (!r->error.empty()) return r->error;  // the current scene keeps running
    try {
        start(r->scene, r->scene.with_own_physics(m_sim.params()), r->state, group_labels(r->scene));
        return std::string();
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
}

void Viewer::reset() {
    m_sim.reset();
    attach_renderer();
    m_measure.restart_trace();
}

bool Viewer::pick_at(float x, float y, bool second) {
    const std::vector<Float4>& pos = host_positions();
    int w = 0, h = 0;
    m_ctx.framebuffer_size(w, h);
    const std::vector<uint32_t>& group = m_sim.initial_state().group;
    // A body of a hidden component (or of dark matter set to hide) is not drawn, so a click cannot mean it.
    const auto drawn = [&](std::size_t i) {
        if (i >= group.size()) return true;
        const GroupStyle& g = m_settings.groups[group[i] % kGroupColours];
        const bool dark_hidden =
            g.dark_matter && !m_settings.show_dark_matter && m_settings.dark_matter_light <= 0;
        return g.visible && !dark_hidden;
    };
    const std::optional<std::size_t> hit =
        nearest_on_screen(pos, m_camera, w, h, {x, y}, kPickRadiusPx, drawn);
    if (!hit || *hit >= m_measure.bodies()) return false;
    second ? m_measure.pick_second(*hit) : m_measure.pick(*hit);
    return true;
}

const std::vector<Float4>& Viewer::host_positions() {
    if (!m_feed.host_positions().empty()) return m_feed.host_positions();
    m_host.resize(m_sim.backend().size());
    m_sim.backend().copy_positions_to_host(m_host.data());
    return m_host;
}

void Viewer::frame_all() {
    const auto& pos = host_positions();
    if (pos.empty()) return;
    const glm::vec3 c = to_vec3(m_com.at(m_sim.backend().time()));
    m_radius = framing_radius(pos, c);
    m_camera.frame_all(c, m_radius);
}

DepthRange Viewer::depth_range() const {
    return {std::max(m_camera.distance() - m_radius, 0.0f), m_camera.distance() + m_radius};
}

void Viewer::simulate_and_draw(double wall_now, double budget_s) {
    m_sim.set_tree_cells_depth(m_settings.cells.on ? m_settings.cells.depth : -1);
    const auto t_sim = Clock::now();
    m_sim.advance_frame(budget_s, wall_now);
    m_times.sim_frame = since(t_sim);
    m_times.samplers = m_sim.sampler_seconds_last_frame();
    if (m_sim.tree_cells_version() != m_cells_version) {  // copied from the backend a few times a second
        m_renderer->set_cells(m_sim.tree_cells());
        m_cells_version = m_sim.tree_cells_version();
    }
    // The steps' own duration (a background step's on its worker, not the moment this frame spent collecting
    // it)
    m_times.sim = m_sim.step_seconds_last_frame();
    if (m_sim.generation() != m_attached_generation) attach_renderer();  // backend switched or reset
    const auto t0 = Clock::now();
    const double now =
        m_sim.facts().time;  // a step running in the background leaves it (and the bodies) as drawn
    if (now != m_last_sim_time) {
        m_renderer->begin_position_update(now - m_last_sim_time);
        m_feed.update(m_sim.backend(), *m_renderer);
        m_renderer->end_position_update(m_settings.trails);  // a rewind (time going back) clears the trails
        m_last_sim_time = now;
    }
    m_times.upload = since(t0);
    // The picked bodies' few rows (never all N), at a frame with no step under way: none is waited for.
    if (!m_sim.stepping_in_background()) m_measure.update(m_sim.backend(), now, m_com.at(now));
    const BodyReading* followed = m_measure.picked() ? m_measure.reading_of(*m_measure.picked()) : nullptr;
    if (m_measure.follow && followed)
        m_camera.set_target(to_vec3(followed->pos));
    else if (m_follow_com)
        m_camera.set_target(to_vec3(m_com.at(now)));
    m_potential.update(*m_renderer, m_sim.params(), wall_now, m_settings.color_mode == ColorMode::Potential,
                       m_headless);
    draw_only();
}

void Viewer::draw_only() {
    int w = 0, h = 0;
    m_ctx.framebuffer_size(w, h);
    const auto t0 = Clock::now();
    m_draw_timer->begin();
    m_renderer->draw(m_camera, m_settings, depth_range(), w, h, m_ctx.target_framebuffer());
    OverlayShapes shapes = measure_shapes(m_measure);
    if (m_settings.orbit_guides) add_guides(shapes);
    m_measure_renderer->draw(overlay_triangles(shapes, m_camera, w, h), w, h, m_ctx.target_framebuffer());
    m_draw_timer->end();
    // The frame's own time, and the GPU's where the queries have it (the draw is asynchronous).
    m_times.draw = since(t0);
    m_times.draw_gpu = m_draw_timer->seconds();
    m_times.sprites_gpu = m_renderer->sprite_seconds();
    m_times.density_gpu = m_settings.color_mode == ColorMode::Density ? m_renderer->density_seconds() : 0.0;
}

void Viewer::add_guides(OverlayShapes& shapes) const {
    // Dashes of 4 samples with 4 left out: 64 a period, each 1/128 of it (1.1 time units on the four-body
    // eight at lambda = 8), 2 px wide; a small ring where each point mass would be now.
    constexpr int kDashSamples = 4;
    constexpr float kMarkRadiusPx = 8.0f;
    const glm::vec4 mark_colour(kGuideColour.r, kGuideColour.g, kGuideColour.b, 0.8f);
    for (const OrbitGuide& g : m_guides) {
        const Double3 moved = m_last_sim_time * g.velocity;
        std::vector<glm::vec3> curve;
        curve.reserve(g.points.size());
        for (const Double3& p : g.points) curve.push_back(to_vec3(p + moved));
        add_dashes(shapes, curve, kGuideColour, 2.0f, kDashSamples, kDashSamples);
        for (double phase : g.phases)
            shapes.rings.push_back(
                {to_vec3(guide_position(g, phase, m_last_sim_time)), mark_colour, kMarkRadiusPx});
    }
}

double Viewer::simulation_budget() const {
    const FrameTimes& t = m_times;
    // 2 ms for the rest of the frame; the draw at the GPU's time where that is longer (it is asynchronous).
    return std::max(0.002, 1.0 / 60 - t.upload - std::max(t.draw, t.draw_gpu) - t.ui - 0.002);
}

Image Viewer::capture() const {
    int w = 0, h = 0;
    m_ctx.framebuffer_size(w, h);
    return read_framebuffer(m_ctx.target_framebuffer(), w, h);
}

}  // namespace nbody
