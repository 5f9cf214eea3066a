#pragma once
// What the window loads when a scene is asked for (the Scene panel, "Load full N" or the command line): all
// its bodies, or fewer when a step of all of them would stall the window on this backend. A reduced load
// keeps the full request (by value) for "Load full N", and its note gives how long a step of all the bodies
// would take here: a step of the reduced scene measured here (on the CPU a copy stepped on its own, on a GPU
// the frames' steps), scaled by the method's cost (N^2 for direct summation, N log^2 N for the tree), never
// modelled from another machine.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/rows/force_method.hpp"

namespace nbody {

struct LoadRequest {
    std::string path;
    double multiplier = 1;  // of the scene file's body count
};

// Seconds a step of `n_to` bodies takes, from `seconds_at` measured at `n_from` bodies with `method`.
double scaled_step_seconds(double seconds_at, std::size_t n_from, std::size_t n_to, ForceMethod method);

class LoadPlan {
  public:
    // The request to start for `asked`, whose scene has `scene_bodies` bodies (times the multiplier), given
    // the most bodies that step smoothly here (`smooth_bodies`): reduced to that many when it asks for more
    // than twice as many. `what` names the backend in the note ("the CPU", "this GPU"). A request that loads
    // whole clears any earlier reduction.
    LoadRequest plan(const LoadRequest& asked, std::size_t scene_bodies, double smooth_bodies,
                     const std::string& what);
    // The full request of the reduced scene (a copy: the plan may change while it loads); none when the
    // scene loaded whole.
    std::optional<LoadRequest> full() const { return m_full; }
    std::size_t full_bodies() const { return m_full ? m_full_bodies : 0; }
    void clear();  // a failed or cancelled load: no reduction to speak of

    // Each frame while the reduced scene runs: `steps` steps of `n` bodies took `step_seconds` in all. After
    // two warm-up frames and about a second of steps (at least five frames), the note carries the estimate:
    // the median frame's step, scaled.
    void add_measurement(int steps, double step_seconds, std::size_t n, ForceMethod method);
    // A step of the reduced scene (`n` bodies) measured on its own: the estimate at once.
    void set_measured_step(double seconds, std::size_t n, ForceMethod method);
    bool measured() const { return m_estimate_s > 0; }
    double estimate_seconds() const { return m_estimate_s; }
    // The sentence under the Scene panel's list (empty when the scene loaded whole).
    std::string note() const;

  private:
    std::optional<LoadRequest> m_full;
    std::size_t m_full_bodies = 0, m_loaded_bodies = 0;
    std::string m_what;
    double m_seconds = 0, m_estimate_s = 0;
    std::vector<double> m_per_step;  // seconds a step, one entry a frame that stepped
    int m_skipped = 0;               // warm-up frames left out
};

}  // namespace nbody
