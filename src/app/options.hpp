#pragma once
// The command line of nbody-sandbox, parsed into options, and how they turn into a scene and SimParams.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/rows/sim_params.hpp"
#include "io/hdf5_snapshot.hpp"
#include "scene/scene.hpp"

namespace nbody {

struct AppOptions {
    std::string scene_path;  // empty: the default scene
    bool headless = false;
    long long steps = 100;
    std::optional<double> t_end;  // headless: run until this simulated time instead of a step count
    std::optional<long long> bodies;
    std::optional<double> dt, eps, G;
    bool dt_auto = false;  // --dt auto: the step core/session/auto_step.hpp chooses at the start
    std::optional<uint64_t> seed;
    std::string backend = "auto";
    std::string variant;  // empty: the default (auto); "auto" or a variant name
    std::optional<int> k, u, block, q;
    std::string method;      // empty: the scene's, else direct
    std::string precision;   // empty: the scene's, else fp32
    std::string integrator;  // empty: the scene's, else leapfrog
    // The method's and integrator's own parameters given as flags (--eta, --theta, --alpha, --leaf, --group:
    // every row of core/rows/param_registry.hpp that belongs to a method or an integrator), by registry name.
    std::map<std::string, double> method_params;
    std::string gpus;  // empty: 1; "all" or a count
    double rank_timeout = 60;  // under mpirun: seconds a gather or barrier may wait for the other ranks
    int threads = 0;
    std::string json_path;
    // The window and off-screen rendering.
    std::optional<long long> frames;  // quit after this many frames (window or headless rendering)
    std::string screenshot_path;      // headless: PNG of the last frame
    std::string record_path;          // headless: video of every frame through ffmpeg
    int width = 1280, height = 720;   // window (screen units) or off-screen image (pixels)
    bool vsync = true;
    bool interop = true;          // false: always copy positions through the host
    float ui_scale = 0;           // 0: from the monitor (ui_scale_for_display)
    bool presentation = false;    // the window starts in the presentation layout (P toggles)
    std::string color = "component";  // render/colour_scale.hpp color_mode_words ("group" as component)
    std::optional<int> steps_per_frame;
    bool auto_steps = false;  // steps per frame chosen to fill the frame budget (1/60 s)
    bool paused = false;      // start paused (the window: Space runs; headless: frames of the start)
    std::optional<int> trails;  // --trails [L]: fading trails of L samples per body (128 when L is left out)
    std::optional<int> tree_cells;  // --tree-cells D: the tree's cells drawn down to depth D (method tree)
    std::optional<float> exposure;  // --exposure X: a fixed exposure (automatic exposure off)
    float exposure_ev = 0;          // --exposure-ev S: the automatic exposure S stops brighter
    std::optional<float> glow;      // --glow G: bloom around dense regions (0: none)
    std::string dark_matter = "dim";  // --dark-matter: dim, show or hide the groups a scene marks as halo
    std::vector<std::size_t> pick;    // --pick N[,M]: bodies picked for the measuring tools (M: the ruler's)

    // Headless with --frames, --screenshot or --record renders off-screen; plain --headless only simulates.
    bool renders_offscreen() const {
        return headless && (frames || !screenshot_path.empty() || !record_path.empty());
    }
    bool diagnostics = true;
    bool quiet = false;
    std::string save_path;      // headless: write the final state as a CSV snapshot here
    std::string snapshot_path;  // start from this CSV snapshot instead of the scene's generators
    // HDF5 checkpoints (app/checkpoint.hpp): written to checkpoint_path every checkpoint_every units of
    // simulated time (and at the end of a headless run); resume_path continues a run from one.
    std::string checkpoint_path;
    double checkpoint_every = 0;
    std::string resume_path;
};

// Parses argv. Returns the options, or the exit code to end with (0 after --help, non-zero after a bad
// flag or value, with the message already printed naming the flag: to `out` and `err`, std::cout and
// std::cerr when null).
std::variant<AppOptions, int> parse_command_line(int argc, char** argv, std::ostream* out = nullptr,
                                                 std::ostream* err = nullptr);

struct RunSetup {
    SceneSpec scene;
    SimParams params;
    std::optional<State> snapshot;  // --load-snapshot: the state to resume from
    std::shared_ptr<const Hdf5File> resume;  // --resume: the checkpoint (resume_backend after the reset)
    // --resume: the legend's names the checkpoint was written with (empty: the scene's)
    std::vector<std::string> saved_group_labels;
};

// Loads the scene, applies --bodies, --dt, --eps, --G, --seed, backend and kernel flags on top of it, and
// validates. Throws SceneError or ParamError naming the file or flag.
RunSetup prepare_run(const AppOptions& o);

// A saved state (snapshot or checkpoint) whose scene is titled `saved`. Where that is the loaded scene, or
// names none, the scene stays. Where a shipped scene has that title, it becomes the scene: its card, view,
// units and components (the legend's names and colours, dark matter dimmed) describe the saved bodies.
// Otherwise (the default scene was loaded and the state came from another file) the loaded scene's words,
// view, units, components and file go, so that nothing of it describes bodies that are not its own; the name
// is the saved one.
void adopt_saved_scene(SceneSpec& scene, const std::string& saved);

// The legend's name of each colour group: the checkpoint's own where it has them, else the scene's.
std::vector<std::string> run_group_labels(const RunSetup& setup);

// The state to start from: the snapshot when one was loaded, else the scene built from its generators.
State initial_state(const RunSetup& setup);

// Where the shipped scenes live: next to the executable (installed) or in the source tree (build tree).
// The default scene is the figure-eight galaxies (figure8-3.toml) where shipped, else plummer.toml.
std::string default_scene_path();
std::string scenes_dir();

}  // namespace nbody
