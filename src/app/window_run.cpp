// nbody-sandbox scene.toml: the interactive window. One frame: events -> simulate -> upload -> draw ->
// panels -> present. Mouse and keys go to the camera and the shortcuts only when ImGui does not want them.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

#include "app/checkpoint.hpp"
#include "app/frame_summary.hpp"
#include "app/input_router.hpp"
#include "app/sandbox.hpp"
#include "app/scene_switch.hpp"
#include "app/slow_backend_note.hpp"
#include "app/viewer.hpp"
#include "core/errors.hpp"
#include "engine/backend_factory.hpp"
#include "engine/backend_rows.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "render/assets.hpp"
#include "render/glfw_window.hpp"
#include "scene/scene_file.hpp"
#include "ui/panels.hpp"  // rate_sample
#include "ui/plain_words.hpp"
#include "ui/race_driver.hpp"
#include "ui/ui.hpp"

namespace nbody {

namespace {
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

const char* kHeadlessHint =
    "To run without a display: nbody-sandbox --headless --frames 300 --screenshot out.png [scene.toml]\n"
    "  (renders off-screen through EGL), or nbody-sandbox --headless --steps 1000 [scene.toml] (simulation\n"
    "  summary only). Under a virtual display: xvfb-run -a -s \"-screen 0 1280x720x24\" nbody-sandbox ...";

std::vector<SceneEntry> find_scenes(const std::string& dir) {
    std::vector<SceneEntry> out;
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(dir, ec)) {
        if (f.path().extension() != ".toml") continue;
        try {
            const SceneSpec s = load_scene_file(f.path().string());
            out.push_back({f.path().string(), s.name, s.description, s.total_bodies()});
        } catch (const std::exception& e) {
            out.push_back(
                {f.path().string(), f.path().filename().string() + " (does not load)", e.what(), 0});
        }
    }
    std::sort(out.begin(), out.end(),
              [](const SceneEntry& a, const SceneEntry& b) { return a.name < b.name; });
    return out;
}

}  // namespace

namespace {

// The panels' layout settles over a few frames (ui/panel_layout.cpp); laid out that often before the first picture.
constexpr int kSettleFrames = 8;

// The window's state between frames and what it does with the UI's requests.
class WindowApp {
  public:
    WindowApp(const AppOptions& o, GlfwWindow& w)
        : m_opts(o),
          m_window(w),
          m_viewer(window_start_options(o, m_start_plan), w),
          m_scenes(find_scenes(scenes_dir())),
          m_input(w, m_viewer, m_state),
          m_switch(m_viewer) {
        m_switch.plan() = m_start_plan;
        // A CPU step slower than a frame runs beside the frames: the window never freezes on a heavy scene.
        m_viewer.sim().set_background_steps(true);
        m_state.vsync = o.vsync;
        m_state.allow_interop = o.interop;
        m_state.ui_scale = o.ui_scale > 0 ? o.ui_scale : ui_scale_for_display(w.display_info());
        m_state.presentation = o.presentation;
        w.set_vsync(o.vsync);
        const std::string cfg = user_config_dir();
        m_ui = std::make_unique<Ui>(w.handle(), cfg.empty() ? "" : cfg + "/imgui.ini", m_state.ui_scale);
        m_view.backends = backend_offers(backend_rows_with_gl({GlContextSource::Current, {}}));
        m_view.gl_renderer = w.description();
        m_view.scenes = &m_scenes;
        m_state.race = &m_race;
        m_state.measure = &m_viewer.measurements();
        m_view.colormap_names = colormap_names(asset_dir());
        select_current_scene();
        fill_view();
        m_ui->settle(m_viewer.sim(), m_viewer.settings(), m_viewer.camera(), m_state, m_view, kSettleFrames);
    }

    int run() {
        const auto t_start = Clock::now();
        auto t_prev = t_start;
        long long frame = 0;
        UiRequests req;
        FrameTimes sum;  // for the summary a --frames run prints
        const WorkCount work0 = m_viewer.sim().backend().work();
        while (!m_window.should_close() && (!m_opts.frames || frame < *m_opts.frames)) {
            const auto t0 = Clock::now();
            const double now = std::chrono::duration<double>(t0 - t_start).count();
            m_viewer.camera().update(float(std::chrono::duration<double>(t0 - t_prev).count()));
            t_prev = t0;
            req = {};
            const std::vector<InputEvent> events = m_window.poll_events();
            m_input.handle(events, m_ui->wants_mouse(), m_ui->wants_keyboard(), req);
            m_ui->add_input(events);
            act(req);  // keys first, so a reset happens before this frame's step
            m_viewer.set_follow_com(m_state.follow_com);
            if (m_race.running()) {  // the race has the backend this frame: one slice, the bodies stay put
                m_race.tick(m_viewer.sim());
                m_viewer.draw_only();
            } else {
                m_viewer.simulate_and_draw(now, m_viewer.simulation_budget());
                m_switch.measure();
                m_slow.update(m_viewer.sim());
                m_state.slow_note = m_slow.text();
                write_checkpoint_if_due();
            }
            capture_if_asked();
            const auto tu = Clock::now();
            m_ui->new_frame();
            fill_view();
            req = m_ui->build(m_viewer.sim(), m_viewer.settings(), m_viewer.camera(), m_state, m_view);
            m_ui->render();
            m_viewer.times().ui = std::chrono::duration<double>(Clock::now() - tu).count();
            act(req);
            poll_load();
            if (m_opts.frames && frame + 1 == *m_opts.frames) save_final_screenshot();
            m_window.present();
            m_viewer.times().frame = std::chrono::duration<double>(Clock::now() - t0).count();
            add_frame_times(sum, m_viewer.times());
            ++frame;
        }
        // Quitting answers at once: the window goes, then a step or an energy sample under way finishes.
        m_window.hide();
        stop_video();
        if (m_opts.frames) {
            const double seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
            print_frame_summary(m_viewer, frame, m_viewer.sim().backend().work() - work0, seconds, sum,
                                m_window.description());
        }
        return 0;
    }

  private:
    // --checkpoint FILE --checkpoint-every T: every T of simulated time, at a frame boundary.
    void write_checkpoint_if_due() {
        if (m_opts.checkpoint_path.empty() || m_checkpoint_failed) return;
        if (m_viewer.sim().stepping_in_background()) return;  // at the frame that collects the step
        if (!m_checkpoints)
            m_checkpoints.emplace(m_opts.checkpoint_path, m_opts.checkpoint_every, m_viewer.sim().backend().time(),
                                  m_viewer.scene().name, m_viewer.group_names());
        try {
            m_checkpoints->maybe_write(m_viewer.sim().backend());
        } catch (const Error& e) {  // the window goes on; the previous checkpoint is whole
            std::fprintf(stderr, "checkpoint: %s\n", e.what());
            m_checkpoint_failed = true;
        }
    }
    std::optional<CheckpointWriter> m_checkpoints;
    bool m_checkpoint_failed = false;

    void select_current_scene() {
        m_window.set_title("nbody-sandbox: " + m_viewer.scene().name);
        for (std::size_t i = 0; i < m_scenes.size(); ++i)
            if (fs::equivalent(m_scenes[i].path, m_viewer.scene().source, m_ec)) m_state.scene_index = int(i);
    }

    void fill_view() {
        m_view.scene_name = m_viewer.scene().name;
        m_view.scene_description = m_viewer.scene().description;
        m_view.scene_watch = m_viewer.scene().watch;
        // What runs (the scene's physics and the user's edits since), and how many steps a frame really run.
        Simulation& sim = m_viewer.sim();
        m_view.scene_runs = scene_runs_text(sim.params());
        if (!sim.auto_steps() && !sim.paused())
            m_view.scene_runs += steps_here_text(sim.params().steps_per_frame, rate_sample(sim).rate.steps_per_s,
                                                 sim.perf().latest().frames_per_s);
        m_view.generating = m_viewer.loading();
        m_view.step_note = m_viewer.step_note();
        m_view.colormap = &m_viewer.colormap();
        m_view.upload_path = upload_path_name(m_viewer.feed().path());
        m_view.upload_note = m_viewer.feed().note();
        m_view.times = m_viewer.times();
        m_view.recording = m_video.has_value();
        m_view.group_count = m_viewer.group_count();
        m_view.group_names = m_viewer.group_names();
        m_view.guide_label = m_viewer.guides().empty() ? std::string() : m_viewer.guides().front().label;
        m_view.units = m_viewer.scene().units;
        const DepthRange d = m_viewer.depth_range();
        m_view.depth_near = d.near_d, m_view.depth_far = d.far_d;
        m_view.G = sim.params().G;
        const ParticleRenderer& r = m_viewer.renderer();
        const ColorMode mode = m_viewer.settings().color_mode;
        m_view.colour_range = mode == ColorMode::Density     ? r.density_log_range()
                              : mode == ColorMode::Potential ? r.body_scalar_range()
                                                             : ValueRange{};
        m_view.colour_note = m_viewer.potential_note();
        m_view.trail_samples = m_viewer.trails().ring().count();
        m_view.trail_bytes = m_viewer.trails().bytes();
        m_view.trail_note = m_viewer.trail_note();
        m_view.tree_cells = m_viewer.cells().boxes();
        m_view.reduced_note = m_switch.plan().note();
        m_view.full_bodies = m_switch.plan().full_bodies();
    }

    void act(const UiRequests& r) {
        if (r.reset) m_viewer.reset();
        if (r.reset_camera) m_viewer.camera().reset();
        if (r.frame_all) m_viewer.frame_all();
        if (r.vsync_changed) m_window.set_vsync(m_state.vsync);
        if (r.interop_changed) m_viewer.set_allow_interop(m_state.allow_interop);
        if (r.screenshot) m_want_screenshot = true;
        if (r.toggle_record) m_video ? stop_video() : start_video();
        if (r.load_path) note_replaced(m_switch.load({*r.load_path, r.load_multiplier}));
        if (r.load_full) note_replaced(m_switch.load_full());
        for (double at : r.escapes) escape(at);
        m_state.quit_hint = m_escape.hint_visible(m_window.now());
    }

    void note_replaced(const std::string& message) {
        if (!message.empty()) m_state.message = message;
    }

    // Esc closes Help when it is open; else it stops every job under way and nothing else; with none, the
    // first press arms a quit (a hint shows) and a second within a second confirms it.
    void escape(double at) {
        if (m_state.show_help) {  // Help open: Esc closes it, as it closes any dialog, and arms nothing
            m_state.show_help = false;
            return;
        }
        const bool busy = m_viewer.loading() || m_race.running() || m_video.has_value();
        switch (m_escape.press(at, busy)) {
            case EscapeKey::Action::Cancel:
                if (m_viewer.loading()) m_viewer.cancel_load();
                if (m_race.running()) m_race.cancel(m_viewer.sim());
                if (m_video) stop_video();
                break;
            case EscapeKey::Action::Quit:
                m_window.request_close();
                break;
            case EscapeKey::Action::ArmQuit:
                break;
        }
    }

    // A scene generated off the frame loop: progress while it builds, then the new scene or the message.
    void poll_load() {
        if (m_switch.poll()) select_current_scene();
        m_view.load_error = m_switch.status();
    }

    // Screenshots and video frames are taken after the particles are drawn and before the panels.
    void capture_if_asked() {
        try {
            if (m_want_screenshot) {
                m_want_screenshot = false;
                const std::string name = timestamped_name("screenshot", ".png");
                write_png(name, m_viewer.capture());
                m_state.message = "saved " + fs::absolute(name).string();
            }
            if (m_video) m_video->add_frame(m_viewer.capture());
        } catch (const std::exception& e) {
            m_state.message = e.what();
            m_video.reset();
        }
    }

    // --frames K --screenshot out.png with a window: the last frame, panels included, before the swap.
    void save_final_screenshot() {
        if (m_opts.screenshot_path.empty()) return;
        int w = 0, h = 0;
        m_window.framebuffer_size(w, h);
        write_png(m_opts.screenshot_path, read_framebuffer(0, w, h));
        std::printf("wrote %s (%dx%d)\n", m_opts.screenshot_path.c_str(), w, h);
    }

    void start_video() {
        int w = 0, h = 0;
        m_window.framebuffer_size(w, h);
        try {
            m_video.emplace(timestamped_name("video", ".mp4"), w, h, 60);
            m_state.message = "recording " + m_video->path() + " (V stops)";
        } catch (const std::exception& e) {
            m_state.message = e.what();
        }
    }

    void stop_video() {
        if (!m_video) return;
        try {
            m_video->finish();
            m_state.message =
                "saved " + m_video->path() + " (" + std::to_string(m_video->frames()) + " frames)";
        } catch (const std::exception& e) {
            m_state.message = e.what();
        }
        m_video.reset();
    }

    const AppOptions& m_opts;
    GlfwWindow& m_window;
    LoadPlan m_start_plan;  // the command line's scene, reduced (made before the viewer, handed to m_switch)
    Viewer m_viewer;
    std::vector<SceneEntry> m_scenes;
    UiState m_state;
    UiView m_view;
    InputRouter m_input;
    SceneSwitch m_switch;
    SlowBackendNote m_slow;
    RaceDriver m_race;  // the Kernel panel's race (UiState points at it)
    std::unique_ptr<Ui> m_ui;
    std::optional<VideoRecorder> m_video;
    bool m_want_screenshot = false;
    EscapeKey m_escape;
    std::error_code m_ec;
};

}  // namespace

int run_window(const AppOptions& o) {
    if (!o.record_path.empty()) {
        std::fprintf(
            stderr, "nbody-sandbox: --record needs --headless (in the window, V starts and stops a video)\n");
        return 2;
    }
    if (!o.screenshot_path.empty() && !o.frames) {
        std::fprintf(stderr, "nbody-sandbox: --screenshot in a window needs --frames K (or press F12)\n");
        return 2;
    }
    if (!display_available()) {
        std::fprintf(
            stderr,
            "nbody-sandbox: no display ($DISPLAY and $WAYLAND_DISPLAY are unset), so no window.\n%s\n",
            kHeadlessHint);
        return 2;
    }
    std::string why;
    auto window = GlfwWindow::create(o.width, o.height, "nbody-sandbox", &why);
    if (!window) {
        std::fprintf(stderr, "nbody-sandbox: cannot open the window: %s\n%s\n", why.c_str(), kHeadlessHint);
        return 2;
    }
    WindowApp app(o, *window);
    return app.run();
}

}  // namespace nbody
