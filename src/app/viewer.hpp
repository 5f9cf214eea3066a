#pragma once
// What the window and the headless renderer share: the simulation, the scene it came from, the particle
// renderer with its position feed, the camera, and one frame = simulate, upload, draw. The GL context
// (window or EGL) is made by the caller and must be current.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/options.hpp"
#include "app/potential_feed.hpp"
#include "app/scene_trails.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/session/auto_step.hpp"
#include "core/session/measurements.hpp"
#include "core/session/simulation.hpp"
#include "render/camera.hpp"
#include "render/gl_context.hpp"
#include "render/gpu_timer.hpp"
#include "render/image_capture.hpp"
#include "render/measure_renderer.hpp"
#include "render/particle_renderer.hpp"
#include "render/position_feed.hpp"
#include "scene/orbit_guides.hpp"
#include "scene/scene.hpp"
#include "scene/scene_loader.hpp"

namespace nbody {

class Viewer {
  public:
    // Loads the scene and parameters from the options, makes the backend and the renderer. Throws
    // SceneError, ParamError, BackendError or GlError (a shader that does not compile) with the reason.
    Viewer(const AppOptions& o, GlContext& ctx);
    ~Viewer();

    // Loads another scene file with the particle count times `multiplier`, on a worker thread, so the
    // current scene keeps running until poll_load(), called each frame, hands over the result: nullopt
    // while none is ready, "" once the new scene runs, else the message (a bad file, a cancel) and the
    // current scene keeps running.
    void begin_load_scene(const std::string& path, double multiplier) { m_loader.start(path, multiplier); }
    std::optional<std::string> poll_load();
    bool loading() const { return m_loader.busy(); }
    double load_progress() const { return m_loader.progress(); }
    void cancel_load() { m_loader.cancel(); }
    // The same, waiting for it (tests and scripted runs).
    std::string load_scene(const std::string& path, double multiplier);
    void reset();  // the loaded scene from the start

    // Simulate (budget_s of wall time for auto steps), update the positions, draw into the context's
    // target framebuffer. Fills times().sim, .upload and .draw.
    void simulate_and_draw(double wall_now, double budget_s);
    void draw_only();  // redraw the current positions (after a resize)
    // What the simulation may spend in a 60 Hz frame: what the last frame's upload, draw and UI left.
    double simulation_budget() const;

    void frame_all();  // camera fits the bodies (90% of them) and makes that the home view
    void set_follow_com(bool on) { m_follow_com = on; }
    // The measuring tools (picks, readings, arrows): read each frame with no step under way, drawn over the
    // picture.
    Measurements& measurements() { return m_measure; }
    // A click at window pixel (x, y) of the picture (origin top left): picks the body drawn nearest within
    // kPickRadiusPx, as the ruler's second with `second`; a click on empty sky changes nothing. Reads every
    // position once. Returns whether a body was picked.
    bool pick_at(float x, float y, bool second);
    void set_allow_interop(bool on);
    Image capture() const;  // the context's target framebuffer as it is now

    Simulation& sim() { return m_sim; }
    Camera& camera() { return m_camera; }
    RenderSettings& settings() { return m_settings; }
    FrameTimes& times() { return m_times; }
    const PositionFeed& feed() const { return m_feed; }
    const SceneSpec& scene() const { return m_scene; }
    const LoadedColormap& colormap() const { return m_renderer->colormap(); }
    const ParticleRenderer& renderer() const { return *m_renderer; }
    const std::string& potential_note() const { return m_potential.note(); }
    DepthRange depth_range() const;
    const TrailRenderer& trails() const { return m_renderer->trails(); }
    const CellRenderer& cells() const { return m_renderer->cells(); }
    std::size_t group_count() const { return m_group_count; }
    // The scene's automatic time step (dt "auto"): what it chose and why, while dt is still that step; else
    // empty (a number given, or dt changed since).
    std::string step_note() const;
    // Why there are no trails: the ring's own words (out of GPU memory), or why the scene's were not turned
    // on.
    std::string trail_note() const;
    // The legend's names, one per colour group: the scene's component names ("target disk", "intruder"), or
    // "group g" for a state from a snapshot.
    const std::vector<std::string>& group_names() const { return m_group_names; }
    // What each colour group is (the scene's `kind`s; Cluster for groups no scene describes).
    const std::vector<ComponentKind>& group_kinds() const { return m_group_kinds; }
    // The scene's choreography paths, drawn dashed over the bodies while settings().orbit_guides is on.
    const std::vector<OrbitGuide>& guides() const { return m_guides; }

  private:
    // `group_names`: the legend's name of each colour group (the scene's, or a checkpoint's own).
    void start(const SceneSpec& scene, const SimParams& p, const State& initial,
               const std::vector<std::string>& group_names);
    void attach_renderer();
    // Colours and dark-matter flags of the groups into the render settings (the defaults where none given).
    void apply_group_looks(const std::vector<ComponentLook>& looks);
    const std::vector<Float4>& host_positions();
    void add_guides(OverlayShapes& shapes) const;  // the guides where they are at the drawn time

    GlContext& m_ctx;
    Simulation m_sim;
    SceneSpec m_scene;
    std::unique_ptr<ParticleRenderer> m_renderer;
    PositionFeed m_feed;
    std::unique_ptr<GpuTimer> m_draw_timer;
    Camera m_camera;
    RenderSettings m_settings;
    FrameTimes m_times;
    uint64_t m_attached_generation = ~uint64_t(0);
    bool m_allow_interop = true, m_follow_com = false;
    float m_radius = 1;  // of the bodies at the last frame_all (scene units)
    CentreOfMass m_com;  // of the loaded state; moves uniformly, so the camera follows it without a read-back
    double m_last_sim_time = 0;
    uint64_t m_cells_version = 0;  // of the tree cells the renderer holds (Simulation::tree_cells_version)
    std::size_t m_group_count = 1;
    std::vector<std::string> m_group_names;
    std::optional<AutoStep> m_auto_step;  // the loaded scene's automatic step, when its dt is "auto"
    std::vector<ComponentKind> m_group_kinds;
    std::vector<OrbitGuide> m_guides;
    std::vector<Float4> m_host;  // positions for frame_all when the feed has none on the host
    Measurements m_measure;
    PotentialFeed m_potential;   // colour by potential: the per-body sums on worker threads
    bool m_headless = false;     // pictures wait for the first potentials; the window does not
    SceneTrails m_scene_trails;  // the trails a scene opens with
    std::unique_ptr<MeasureRenderer> m_measure_renderer;
    SceneLoader m_loader;  // last member: its destructor cancels and joins the worker first
};

}  // namespace nbody
