#pragma once
// Energy error and momentum drift for the interactive sandbox, sampled so they never slow the simulation:
// a copy of the state goes to a background thread, which computes the O(N^2) float64 energy on one core;
// the next sample starts only when that one has finished and the interval has passed. Above max_n a GPU
// backend evaluates the potential itself (Backend::potential_energy, about the cost of one step).
#include <cstddef>
#include <deque>
#include <future>
#include <optional>
#include <string>

#include "core/backend/backend.hpp"
#include "core/physics/diagnostics.hpp"

namespace nbody {

struct DiagnosticsPoint {
    double sim_time = 0;
    double energy_error = 0;    // |E - E0| / |E0|
    double momentum_drift = 0;  // |P - P0| / sum m|v|
};

// The most bodies the tree method's energy is sampled at: the exact O(N^2) potential on the GPU costs about
// one direct step, 25 ms at 262,144 on an H200 but 0.35 s at 1M, tens of seconds at 10M, against a tree step
// of 10 ms at 1M. A scripted run (nbody-scene-metrics) asks the backend at any N.
inline constexpr std::size_t kSampledTreePotentialMaxN = std::size_t(1) << 18;

class DiagnosticsSampler {
  public:
    // Above max_n the O(N^2) energy on one CPU core would take too long to be useful: a GPU backend
    // computes the potential instead, and with the CPU backend sampling is off.
    explicit DiagnosticsSampler(std::size_t max_n = 32768, double interval_s = 2.0)
        : m_max_n(max_n), m_interval(interval_s) {}
    ~DiagnosticsSampler();

    // The next sample becomes the reference (after a reset, a new scene, or an eps or G change).
    void rebaseline();
    // Once per frame: collects a finished job, and starts the next one when due (copies the state now).
    void poll(Backend& backend, double wall_now);
    // Waits for the job in flight (tests, shutdown).
    void wait();

    bool enabled(std::size_t n) const { return n <= m_max_n || m_on_device; }
    bool on_device() const { return m_on_device; }  // the last sample's potential came from the GPU
    // The GPU backend declined the O(N^2) potential at this N, or this sampler did for the tree above
    // kSampledTreePotentialMaxN: sampling is off.
    bool declined() const { return m_declined; }
    std::size_t max_n() const { return m_max_n; }
    std::optional<DiagnosticsPoint> latest() const;
    const std::deque<DiagnosticsPoint>& history() const { return m_history; }
    const std::optional<Diagnostics>& baseline() const { return m_baseline; }

  private:
    struct Job {
        Diagnostics d;
        double sim_time;
        double seconds;  // how long the computation took
    };
    void collect(const Job& j);
    State start_job(Backend& backend);

    std::size_t m_max_n;
    double m_interval;
    double m_next_due = 0;
    bool m_want_baseline = true, m_job_is_baseline = false, m_job_stale = false, m_on_device = false;
    bool m_declined = false;
    std::future<Job> m_job;
    std::optional<Diagnostics> m_baseline;
    std::deque<DiagnosticsPoint> m_history;  // since the baseline, at most 512 points
};

}  // namespace nbody
