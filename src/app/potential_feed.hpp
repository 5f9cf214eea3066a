#pragma once
// Colour by potential: each body's phi_i = -G sum_j m_j / sqrt(r_ij^2 + eps^2), summed exactly in float64 on
// worker threads (core/diagnostics body_potentials) from the renderer's own positions, whatever backend wrote
// them, and handed to the renderer as a per-body value. A refresh starts only after the last one finished (at
// most once a second, and see kDutyFactor), so the picture never waits for it; the bodies keep the values of
// their positions at the refresh's start (up to about two refresh intervals old: 10 s at 16,384 bodies on two
// cores, well under a second for a few thousand).
//
// The exact sum is O(N^2): on two shared cores 16,384 bodies (2.7e8 pairs) took 1.35 s, and 32,768 took 7.4 s
// while the machine was busy; above kExactMax bodies nothing is drawn by potential, and note() says why,
// rather than showing an estimate as if it were the potential.
#include <cstddef>
#include <future>
#include <string>
#include <vector>

#include "core/rows/sim_params.hpp"
#include "render/particle_renderer.hpp"

namespace nbody {

class PotentialFeed {
  public:
    static constexpr std::size_t kExactMax = 16384;
    static constexpr double kInterval = 1.0;  // seconds of wall time between refreshes, at least
    // ... and at least this many times the last sum's duration: the sums take at most a quarter of the cores'
    // time, so the CPU backend stepping beside them keeps three quarters (16,384 bodies on two cores: a
    // refresh about every 5 s).
    static constexpr double kDutyFactor = 4.0;

    ~PotentialFeed() { forget(); }
    // Every frame: while `wanted`, takes a finished refresh into the renderer and starts the next when due.
    // `wait_first`: wait for the first values (headless pictures); the window draws components meanwhile.
    void update(ParticleRenderer& r, const SimParams& p, double wall_now, bool wanted, bool wait_first);
    // A new scene, reset or backend: the values belong to bodies that are gone (waits for a running sum).
    void forget();
    // "exact sum over every pair of the 7500 bodies, ...", or why potential colouring is not shown.
    const std::string& note() const { return m_note; }
    bool summing() const { return m_job.valid(); }  // a sum is under way (or done, not yet taken)
    double last_sum_seconds() const { return m_last_seconds; }
    // For headless runs and tests: waits for a running refresh and hands it over.
    void finish(ParticleRenderer& r);

  private:
    void take(ParticleRenderer& r);

    struct Sum {
        std::vector<float> phi;  // (length/time)^2, one a body
        double seconds = 0;      // the sum's own duration
    };
    std::future<Sum> m_job;
    double m_started = -1e300;
    double m_last_seconds = 0;  // how long the last sum took on its worker
    std::string m_note;
};

// The words for a scene of n bodies: what is shown, or why nothing is (pure, for the tests).
std::string potential_note(std::size_t n, std::size_t exact_max);

}  // namespace nbody
