#pragma once
// The Dear ImGui layer: lifecycle (GLFW + OpenGL3 backends from libimgui), scale for projectors, the ini file
// in the user's config directory, and the panels. ImGui is used here only; the app reads back requests.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/physics/physical_units.hpp"
#include "core/session/perf_history.hpp"
#include "core/session/simulation.hpp"
#include "render/colour_scale.hpp"
#include "render/camera.hpp"
#include "render/colormap.hpp"
#include "render/particle_renderer.hpp"
#include "ui/imgui_input.hpp"
#include "ui/input_trickle.hpp"
#include "ui/panel_layout.hpp"
#include "ui/presentation.hpp"
#include "ui/ui_fonts.hpp"

struct GLFWwindow;

namespace nbody {

class RaceDriver;    // ui/race_driver.hpp
class Measurements;  // core/session/measurements.hpp

struct SceneEntry {
    std::string path, name, description;
    std::size_t bodies = 0;
};

// What the panels show and edit between frames; owned by the app.
struct UiState {
    bool show_ui = true;     // Tab
    bool show_help = false;  // F1
    bool presentation = false;  // P: Scene, Physics and big read-outs only (ui/presentation.hpp)
    bool show_scene = true, show_physics = true, show_kernel = true, show_view = true, show_perf = true,
         show_diag = true;
    bool show_timeline = true;
    int mass_group = 0;        // Timeline: the component whose mass the factor scales
    float mass_factor = 1.0f;
    float ui_scale = 1.0f;
    bool vsync = true;
    bool follow_com = false;
    bool allow_interop = true;
    int scene_index = -1;
    float body_multiplier = 1.0f;
    std::string open_path;  // "open another file"
    std::string message;    // status line: "saved screenshot-...png", load errors
    RaceDriver* race = nullptr;  // the Kernel panel's race, owned by the app (null: no Race button)
    bool show_measure = true;
    Measurements* measure = nullptr;  // the picks and read-outs of the Measure panel, owned by the app
    // The free area beside the panels, under the banner and above the legend (display pixels; 0, 0: all).
    float scene_left = 0, scene_right = 0, scene_top = 0, scene_bottom = 0;
    std::string slow_note;  // a backend chosen by hand runs far slower than the CPU would (app/slow_backend_note)
    bool quit_hint = false;      // Esc was pressed once with nothing to cancel: "Esc again quits" shows
};

// Read-only facts for the panels.
struct UiView {
    const std::vector<SceneEntry>* scenes = nullptr;
    std::string scene_name, scene_description, load_error;
    std::string scene_watch;  // plain sentences for the scene card (SceneSpec::watch); may be empty
    std::string scene_runs;   // what runs (method, integrator, steps a frame asked and run), for the card
    bool generating = false;  // a scene is being generated; the one before it runs meanwhile
    std::string step_note;    // dt "auto": the step chosen and why (core/session/auto_step.hpp); empty otherwise
    std::string upload_path, upload_note;  // which position path is active, and why not interop
    std::string gl_renderer;
    FrameTimes times;
    bool recording = false;
    std::vector<BackendOffer> backends;  // the Kernel panel's buttons: the factory's backend rows
    std::size_t group_count = 1;
    std::vector<std::string> group_names;  // the legend's name of each colour group (the scene's components)
    std::string guide_label;  // the scene's choreography path ("the four-body eight"); empty: none to draw
    PhysicalUnits units;                   // the scene's [units]: the legend's time and scale bar
    float depth_near = 0, depth_far = 1;
    double G = 1;  // the simulation's: the density colour bar's mass unit in M_sun comes from it
    // The colour bar's range in N-body units (render/colour_scale.hpp's colour_bar_text says which quantity
    // and scale); invalid while none is known (potential not computed, density not drawn yet).
    ValueRange colour_range;
    std::string colour_note;  // potential: what is shown, or why it is not
    const LoadedColormap* colormap = nullptr;  // the renderer's ramp (the legend); null: the built-in one
    std::vector<std::string> colormap_names;   // assets/colormaps/*.txt, for the View panel's choice
    int trail_samples = 0;          // held in the trail ring now
    std::size_t trail_bytes = 0;    // the ring's GPU memory (N x L x 16 B)
    std::string trail_note;         // why there are none although they are on
    std::size_t tree_cells = 0;     // tree cell boxes the renderer holds
    std::string reduced_note;       // the scene loaded with fewer bodies than asked, and why
    std::size_t full_bodies = 0;    // what "load full N" loads (0: no such button)
};

// What the user asked for this frame; the app acts on it.
struct UiRequests {
    bool screenshot = false, toggle_record = false, reset = false, frame_all = false, reset_camera = false;
    bool vsync_changed = false, interop_changed = false;
    // Esc, each press with its time (GLFW's clock): cancel what is under way, or arm / confirm a quit (the app
    // decides). Every press counts, however many come inside one slow frame.
    std::vector<double> escapes;
    bool load_full = false;  // the scene that loaded reduced, again with all its bodies
    std::optional<std::string> load_path;  // a scene file to load (scene list or "open")
    float load_multiplier = 1.0f;
};

// $XDG_CONFIG_HOME/nbody-sandbox or ~/.config/nbody-sandbox (created); empty when neither is usable.
std::string user_config_dir();

class Ui {
  public:
    // window null: no platform backend (tests, offscreen); the display size then comes from new_frame.
    // ini_path empty: layout not saved. Throws nbody::Error when the OpenGL3 backend cannot start.
    Ui(GLFWwindow* window, const std::string& ini_path, float scale);
    ~Ui();
    Ui(const Ui&) = delete;
    Ui& operator=(const Ui&) = delete;

    // The window's events since the last frame: ImGui gets them a frame's share at a time (input_trickle.hpp).
    void add_input(const std::vector<InputEvent>& events) { m_input_queue.add(events); }
    void new_frame(int width = 0, int height = 0, double dt = 1.0 / 60);
    UiRequests build(Simulation& sim, RenderSettings& render, Camera& camera, UiState& state,
                     const UiView& view);
    void render();  // into the framebuffer bound now
    // Before the window's first picture: the panels laid out `frames` times without drawing them (a panel's size
    // is known a frame after it first shows, and the column settles over a few), and the camera's free area
    // taken from them at once, so the first picture is framed where it stays (not under the banner, not in a
    // corner that the panels then move away from).
    void settle(Simulation& sim, RenderSettings& render, Camera& camera, UiState& state, const UiView& view,
                int frames);
    bool wants_mouse() const;
    bool wants_keyboard() const;
    // Takes effect at the next new_frame (the font atlas cannot change inside a frame): style sizes and
    // fonts re-made at the new size, panels re-laid out.
    void set_scale(float scale) { m_wanted_scale = scale; }
    float scale() const { return m_scale; }
    const UiFonts& fonts() const { return m_fonts; }

  private:
    void apply_scale();

    bool m_platform = false;
    InputTrickle m_input_queue;
    ImGuiInput m_input;
    float m_scale = 0, m_wanted_scale = 1;
    std::string m_ini;  // must outlive ImGui's pointer to it
    FontChoice m_font_choice;
    UiFonts m_fonts;
    PanelLayout m_layout;
    DescriptionCard m_card;
    std::string m_toast;     // the last status message, shown over the scene for a few seconds
    double m_toast_at = -1;  // ImGui time it changed
    float m_view[4] = {0, 0, 0, 0};  // the free area the camera frames now (left, top, right, bottom)
    bool m_view_set = false;
    bool m_had_pick = false;  // a body was picked last frame (the first pick unfolds Measure)
};

}  // namespace nbody
