#pragma once
// The kernel race: every kernel variant (and `auto`) in every precision, each timed for about a second on a
// copy of the running state, then the backend put back where it was. nbody-bench --race and the Kernel
// panel's Race button both drive it; it runs on the caller's thread in slices (the backend is not thread
// safe), so the window keeps drawing between them and a race can be cancelled between slices.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_runner.hpp"
#include "core/backend/backend.hpp"

namespace nbody {

struct RaceEntry {
    std::string name;                      // "ij-unrolled fp32", "auto ds", "cpu fp64", "tree theta 0.5 fp32"
    std::optional<KernelVariant> variant;  // a fixed variant at `shape`; nullopt: auto, the one loop, a tree
    KernelShape shape;                     // the variant's default shape
    Precision precision = Precision::Fp32;
    ForceMethod method = ForceMethod::Direct;
    TreeParams tree{};  // method tree: the opening angle (and leaf, group) it races at
};

// Every variant of variant_table() at its default shape plus auto, in every precision, where the backend
// honours kernel variants (caps.kernel_variants); one entry per precision otherwise (the CPU backend). Then
// the tree at `tree` (the parameters in effect), in fp32 leap-frog, the one way it runs: a backend that
// cannot run it (several GPUs, ranks) refuses it at reset and the entry is skipped with the reason.
std::vector<RaceEntry> race_entries(const BackendCaps& caps, const TreeParams& tree);

// The parameters one entry runs with: `base` (the ones in effect) with the entry's method, precision and
// kernel (or tree parameters) and the leap-frog integrator (the race times the leap-frog force: N^2 pairs at
// 20 or 38 flops each for direct summation, what it evaluated for the tree).
SimParams entry_params(const SimParams& base, const RaceEntry& e, const BackendCaps& caps);

struct RaceResult {
    RaceEntry entry;
    BenchRow row;         // rate (interactions/s, Gflop/s at 20 and 38, steps/s), kernel label, error
    std::string skipped;  // why the entry did not run (a shape the GPU cannot launch); empty when it ran
};

struct RaceOptions {
    double seconds = 1.0;  // timed seconds per entry (about: warm-up and the first evaluation come on top)
    StepTimer timer = host_clock_ms;
    std::string
        backend;  // the rows' backend column ("cuda", "gl", "cpu"); empty: "cuda" on a GPU, else "cpu"
    // The float64 reference is O(N^2) on the CPU: up to this many pair evaluations it covers every body;
    // above, an evenly spaced sample of pairs / N bodies (at least kMinSampledBodies), said in the note.
    double reference_pairs = 4e8;
    // Where one force evaluation takes longer than this (seconds; 0: no limit), the entry is skipped after
    // its first evaluation instead of timed (timing takes at least four more): the window sets it so a slow
    // entry (fp64 on the CPU at large N) freezes it for one evaluation, not minutes.
    double max_evaluation_seconds = 0;
};
inline constexpr std::size_t kMinSampledBodies = 256;

struct RaceProgress {
    std::size_t done = 0, total = 0;  // slices: the reference, then one per entry
    std::string doing;                // "float64 reference", "ij-unrolled fp32"
};

// One race, advanced a slice at a time. The constructor reads the backend's state and parameters; finishing
// or cancel() puts back exactly those: positions, velocities, masses, groups and time bit for bit (the
// backend is reset from its own read_state; under hermite-block that state is every body predicted to the
// current time, as a backend switch does), the SimParams, and the step count (Backend::set_steps_taken). The
// accelerations are evaluated again at the restored positions with the restored kernel. Not restored: the
// work counters (reset zeroes them) and integrator history a reset rebuilds (Hermite's jerks and block steps
// are recomputed at the restored positions). The backend must outlive the race, or the race must be
// abandon()ed.
class Race {
  public:
    Race(Backend& backend, std::vector<RaceEntry> entries, RaceOptions options);

    // Runs the next slice (the reference, or one entry); returns true while slices remain. After the last
    // one the backend is restored. An entry the backend refuses (nbody::Error) is recorded as skipped; any
    // other exception leaves the race mid-way: call cancel() to restore.
    bool step();
    void cancel();   // restores the backend now; step() does nothing afterwards
    void abandon();  // the backend was replaced or reset behind the race: stops without touching it
    bool finished() const { return m_finished; }
    bool cancelled() const { return m_cancelled; }
    RaceProgress progress() const;
    const std::vector<RaceResult>& results() const { return m_results; }
    const std::string& note() const { return m_note; }  // how the error was measured, integrator notes

  private:
    void restore();
    void run_entry(const RaceEntry& e);
    void compute_reference();

    Backend& m_backend;
    std::vector<RaceEntry> m_entries;
    RaceOptions m_options;
    State m_saved;
    SimParams m_params;
    long long m_steps = 0;
    ForceReference m_reference;  // on every body, or a sample
    std::vector<RaceResult> m_results;
    std::size_t m_next = 0;  // entry index; the reference comes first
    bool m_reference_done = false, m_finished = false, m_cancelled = false;
    std::string m_note;
};

// The whole race at once (nbody-bench --race): on_progress before each slice; returning false cancels.
std::vector<RaceResult> run_race(Backend& backend, const std::vector<RaceEntry>& entries,
                                 const RaceOptions& options,
                                 const std::function<bool(const RaceProgress&)>& on_progress,
                                 std::string* note);

}  // namespace nbody
