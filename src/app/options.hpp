#pragma once
// The command line of nbody-sandbox, parsed into options, and how they turn into a scene and SimParams.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "core/sim_params.hpp"
#include "scene/scene.hpp"

namespace nbody {

struct AppOptions {
    std::string scene_path;  // empty: the default scene
    bool headless = false;
    long long steps = 100;
    std::optional<long long> bodies;
    std::optional<double> dt, eps, G;
    std::optional<uint64_t> seed;
    std::string backend = "auto";
    std::string variant;  // empty: the default variant
    std::optional<int> k, u, block, q;
    int threads = 0;
    std::string json_path;
    bool diagnostics = true;
    bool quiet = false;
    std::string save_path;      // headless: write the final state as a CSV snapshot here
    std::string snapshot_path;  // start from this CSV snapshot instead of the scene's generators
};

// Parses argv. Returns the options, or the exit code to end with (0 after --help, non-zero after a bad
// flag or value, with the message already printed naming the flag).
std::variant<AppOptions, int> parse_command_line(int argc, char** argv);

struct RunSetup {
    SceneSpec scene;
    SimParams params;
    std::optional<State> snapshot;  // --load-snapshot: the state to resume from
};

// Loads the scene, applies --bodies, --dt, --eps, --G, --seed, backend and kernel flags on top of it, and
// validates. Throws SceneError or ParamError naming the file or flag.
RunSetup prepare_run(const AppOptions& o);

// The state to start from: the snapshot when one was loaded, else the scene built from its generators.
State initial_state(const RunSetup& setup);

// Where the shipped scenes live: next to the executable (installed) or in the source tree (build tree).
std::string default_scene_path();

}  // namespace nbody
