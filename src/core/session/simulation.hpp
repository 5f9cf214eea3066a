#pragma once
// The interactive simulation: owns the backend, the SimParams in effect and a pending copy that the UI,
// the command line or a scene edit; the pending copy is applied at the next frame boundary without losing
// the particles (a backend switch carries the state across). Pause, single step, steps per frame or "as
// fast as possible", reset to the loaded scene, NaN/Inf detection, live counters and sampled diagnostics.
// With background steps on (the window), a step slower than the frame on a host backend runs on a worker
// thread while the frames go on drawing the last state (simulation_background.cpp).
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "core/backend/backend_choice.hpp"
#include "core/session/diagnostics_sampler.hpp"
#include "core/session/force_error_sampler.hpp"
#include "core/session/perf_history.hpp"
#include "core/session/rewind.hpp"

namespace nbody {

// Makes a backend for SimParams::backend; puts what it chose (and why) in *choice (may be null); throws
// BackendError.
using BackendFactory = std::function<std::unique_ptr<Backend>(const SimParams&, BackendChoice* choice)>;

// A change of backend kind, CPU thread count or GPU count makes a new backend (the state is carried across);
// everything else is applied to the running one with Backend::set_params.
bool needs_new_backend(const SimParams& next, const SimParams& now);

// What the panels show of the running backend every frame, copied on the UI thread whenever no step runs in
// the background, so a frame never waits for a step to read them.
struct BackendFacts {
    std::string name, kernel_label, kernel_choice;
    BackendCaps caps;
    std::size_t size = 0;
    double time = 0;
    long long steps = 0;
    std::vector<DeviceTiming> device_timings;
    std::string stage_times;  // Readouts::stage_times: where a step's time goes (the tree), empty elsewhere
};

class Simulation {
  public:
    explicit Simulation(BackendFactory factory);
    ~Simulation();  // waits for a step running in the background

    // Starts from a new initial state (a scene): makes a backend when none exists or the kind changed.
    // Throws (ParamError, BackendError) and leaves the running simulation untouched on failure.
    void load(const State& initial, const SimParams& p);
    void reset();  // back to the loaded initial state, with the parameters in effect

    SimParams& pending() { return m_pending; }  // edit freely; applied at the next frame
    const SimParams& params() const { return m_current; }

    void set_paused(bool p) { m_paused = p; }
    bool paused() const { return m_paused; }
    void request_step() { m_single_step = true; }  // one step at the next frame, even when paused
    // "As fast as possible": steps per frame chosen to fill the frame budget given to advance_frame.
    void set_auto_steps(bool on) { m_auto_steps = on; }
    bool auto_steps() const { return m_auto_steps; }

    // One frame boundary: applies pending parameters, then steps (unless paused) and checks the state.
    // `budget_s`: the time the simulation may use this frame (auto steps). `wall_now`: seconds, monotonic.
    // Returns the number of steps taken.
    int advance_frame(double budget_s, double wall_now);

    // Steps slower than the frame budget on a host backend run on a worker thread (the window: panels,
    // camera and Pause stay live while a 131,072-body CPU step takes seconds). Off by default: headless
    // and off-screen runs step in the frame, in order.
    void set_background_steps(bool on) { m_background_allowed = on; }
    bool stepping_in_background() const { return m_inflight.valid(); }

    // The backend, for anything beyond its facts: waits for a step running in the background first, so no
    // caller ever sees a state half stepped.
    Backend& backend() {
        finish_background_step();
        return *m_backend;
    }
    const BackendFacts& facts() const { return m_facts; }
    // What the factory made and why (the banner and the Kernel panel read it), and its one-line note.
    const BackendChoice& backend_choice() const { return m_choice; }
    const std::string& backend_note() const { return m_choice.note; }
    // Changes whenever the backend object or N changes: the renderer must re-attach its position feed.
    uint64_t generation() const { return m_generation; }
    const State& initial_state() const { return m_initial; }

    // Problems for the UI: a rejected parameter, a backend failure, a NaN blow-up. Cleared by clear_error.
    const std::string& error() const { return m_error; }
    void clear_error() { m_error.clear(); }
    bool blew_up() const { return m_blew_up; }

    // Rewind (simulation_rewind.cpp): while it runs, a state is saved every rewind_settings().interval time
    // units into the backend's snapshot slots; load, reset, a backend switch or a new precision or integrator
    // start a new timeline. set_rewind applies new settings now (the timeline starts again from here).
    const RewindRing& rewind() const { return m_rewind; }
    const RewindSettings& rewind_settings() const { return m_rewind_settings; }
    void set_rewind(const RewindSettings& r);
    // Why the ring is smaller than asked, or off (memory); empty when it got what it asked for.
    const std::string& rewind_note() const { return m_rewind_note; }
    // Goes back to the i-th saved state (0 the oldest) and pauses; its time and step count come back. The
    // later states stay (scrubbing back and forth) until the run steps on from here. Throws Error for i
    // outside [0, rewind().size()) or a backend that cannot restore, keeping the state.
    void restore(int i);
    // The timeline slider: restores the saved state nearest simulated time `t` unless the run stands there
    // already. Returns whether it restored one (false with an empty ring).
    bool scrub_to(double t);
    // Multiplies the mass of every body of colour group `group` (a scene component) by `factor`, keeping
    // positions, velocities, time and step count; the states saved from here on are the new timeline. Throws
    // Error for a factor that is not positive and finite, or a group with no bodies.
    void scale_group_mass(uint32_t group, double factor);

    // The tree's cells for drawing: `depth` >= 0 asks for the boxes down to that depth (Readouts::tree_cells),
    // < 0 for none. They are copied from the backend at a frame boundary with no step in the background, when
    // the depth or the state changed, at most every kTreeCellsInterval seconds of wall time, so a GPU tree's
    // copy never runs every frame. tree_cells_version() changes whenever tree_cells() does.
    void set_tree_cells_depth(int depth) { m_cells_depth = depth; }
    const std::vector<TreeCellBox>& tree_cells() const { return m_cells; }
    uint64_t tree_cells_version() const { return m_cells_version; }
    static constexpr double kTreeCellsInterval = 0.25;
    // Block steps: the bodies on each level and the last block step's active count (Readouts::block_levels),
    // copied as the tree cells are: at a frame boundary with no step in the background, when the state moved,
    // at most every kBlockLevelsInterval seconds of wall time (at once after a new backend or parameters).
    // nullopt under shared steps.
    const std::optional<BlockLevels>& block_levels() const { return m_levels; }
    static constexpr double kBlockLevelsInterval = 0.25;

    int steps_last_frame() const { return m_steps_last_frame; }
    // Seconds the steps collected by the last frame took themselves (on the worker thread for a background
    // step, whatever the frame spent): what a rate over several frames divides by.
    double step_seconds_last_frame() const { return m_step_seconds_last_frame; }
    // The last frame's samplers after its steps (NaN check, energy, force error, levels, cells), wall seconds.
    double sampler_seconds_last_frame() const { return m_sampler_seconds_last_frame; }
    double seconds_per_step() const { return m_sec_per_step; }
    PerfHistory& perf() { return m_perf; }
    DiagnosticsSampler& diagnostics() { return m_diag; }
    // The tree's force error against float64 direct summation on a sample, about once a second; empty under
    // direct summation (its error is float32 rounding, measured by the race and nbody-bench).
    const ForceErrorSampler& force_error() const { return m_force_error; }
    ForceErrorSampler& force_error() { return m_force_error; }
    // The last frame's wall_now: a force error result's age is measured against it.
    double wall_now() const { return m_last_wall; }

  private:
    // simulation_background.cpp
    bool wants_background(int steps, double budget_s) const;
    void start_background_step(double wall_now);
    bool collect_background_step(double wall_now, bool wait);  // true when a step was collected
    void finish_background_step();
    void refresh_facts();
    void refresh_tree_cells(double wall_now);
    void refresh_block_levels(double wall_now);
    void after_steps(int steps, double seconds, double wall_now);

    // "; on cpu choose fp64": the values of a refused field that validate and that the running backend has code
    // for, with everything else of `p` as asked ("" for another field or a backend about to change).
    std::string choices_here(const SimParams& p, const std::string& field) const;
    void apply_pending(double wall_now);
    void mark_what_runs(double wall_now);
    void switch_backend(const SimParams& p);
    void check_finite(double wall_now);
    int steps_for_frame(double budget_s) const;
    void step_recording(int k);  // k steps, saving a state at every rewind stride on the way
    void setup_rewind();         // a fresh timeline: slots reserved, the current state saved
    void record();               // the current state into the ring

    RewindSettings m_rewind_settings;
    RewindRing m_rewind;
    std::string m_rewind_note;

    BackendFactory m_factory;
    std::unique_ptr<Backend> m_backend;
    BackendChoice m_choice;
    std::string m_running_label;  // the backend's kernel_label() at the last frame (performance markers)
    State m_initial;
    SimParams m_current, m_pending;
    bool m_paused = false, m_single_step = false, m_auto_steps = false, m_blew_up = false;
    std::string m_error;
    uint64_t m_generation = 0;
    int m_steps_last_frame = 0;
    double m_step_seconds_last_frame = 0;
    double m_sampler_seconds_last_frame = 0;
    double m_sec_per_step = 0;  // smoothed, for auto steps
    double m_next_finite_check = 0;
    BackendFacts m_facts;
    bool m_background_allowed = false;
    std::future<void> m_inflight;  // the step running on the worker thread (valid while it runs)
    double m_inflight_t0 = 0;      // steady-clock seconds when it started
    double m_last_wall = 0;        // wall_now of the last advance_frame
    WorkCount m_inflight_before;
    PerfHistory m_perf;
    DiagnosticsSampler m_diag;
    // The drawn tree cells and what they were copied from: depth asked, backend generation and time.
    int m_cells_depth = -1, m_cells_made_depth = -1;
    uint64_t m_cells_generation = 0, m_cells_version = 0;
    double m_cells_time = 0, m_cells_wall = -1;
    std::vector<TreeCellBox> m_cells;
    ForceErrorSampler m_force_error;
    // The level histogram and what it was copied from: backend generation, parameters, time and wall time.
    std::optional<BlockLevels> m_levels;
    uint64_t m_levels_generation = 0;
    SimParams m_levels_params;
    double m_levels_time = 0, m_levels_wall = -1;
};

}  // namespace nbody
