#pragma once
// Colour by potential: each body's phi_i = -G sum_{j != i} m_j / sqrt(r_ij^2 + eps^2) from the renderer's own
// positions, whatever backend wrote them, computed on worker threads and handed to the renderer as a per-body
// value. Up to kExactMax bodies the exact float64 sum over every pair (core/diagnostics body_potentials);
// above it, up to kTreeMax, the CPU tree's estimate (CpuTree::potentials at app/potential_note.hpp's theta;
// its measured error is what the note states). A refresh starts only after the last one finished (at most
// once a second, and see kDutyFactor), so the picture never waits for it; the bodies keep the values of their
// positions at the refresh's start (up to about two refresh intervals old).
//
// The exact sum is O(N^2): on two shared cores 16,384 bodies (2.7e8 pairs) took 1.35 s, and 32,768 took 7.4 s
// while the machine was busy. The tree estimate is O(N log N): at theta 0.6 a body takes about 1,200
// body-body and 1,650 body-cell terms, and on two shared cores (load 5 to 8) one estimate of
// milky-way-andromeda's 2,097,152 bodies took 8.0 to 8.6 s (build 0.2 to 0.9 s, the rest the walk),
// cartwheel-1m's 1,048,576 4.6 to 7.4 s. Beyond kTreeMax (the largest scene) the note says nothing is shown,
// since an estimate would take longer still and its values would lag the picture by a minute and more.
#include <chrono>
#include <cstddef>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "app/potential_note.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "render/particle_renderer.hpp"

namespace nbody {

class PotentialFeed {
  public:
    static constexpr std::size_t kExactMax = potential_view::kExactMax;
    static constexpr std::size_t kTreeMax = potential_view::kTreeMax;
    static constexpr double kInterval = 1.0;  // seconds of wall time between refreshes, at least
    // ... and at least this many times the last sum's duration: the sums take at most a quarter of the cores'
    // time, so the CPU backend stepping beside them keeps three quarters (16,384 bodies on two cores: a
    // refresh about every 5 s; the tree at 2,097,152 bodies: about every 33 s).
    static constexpr double kDutyFactor = 4.0;

    ~PotentialFeed() { forget(); }
    // Every frame: while `wanted`, takes a finished refresh into the renderer and starts the next when due.
    // `wait_first`: wait for the first values (headless pictures); the window draws components meanwhile.
    void update(ParticleRenderer& r, const SimParams& p, double wall_now, bool wanted, bool wait_first);
    // A new scene, reset or backend: the values belong to bodies that are gone (waits for a running sum).
    void forget();
    // "exact sum over every pair of the 7500 bodies, ...", "tree estimate for the ...", or why potential
    // colouring is not shown (potential_note).
    const std::string& note() const { return m_note; }
    bool summing() const { return m_job.valid(); }  // a sum is under way (or done, not yet taken)
    double last_sum_seconds() const { return m_last_seconds; }
    // For headless runs and tests: waits for a running refresh and hands it over.
    void finish(ParticleRenderer& r);

  private:
    void take(ParticleRenderer& r);
    void say(const ParticleRenderer& r);  // m_note for the renderer's bodies and what it holds

    struct Sum {
        std::vector<float> phi;  // (length/time)^2, one a body
        double seconds = 0;      // the sum's own duration
        std::string error;       // why there are no values (the tree refused the bodies), else empty
    };
    // The values as the renderer takes them, times `scale`, and how long the sum took since t0.
    static Sum finished(const std::vector<double>& phi, double scale,
                        std::chrono::steady_clock::time_point t0);

    std::future<Sum> m_job;
    std::unique_ptr<CpuTree> m_tree;  // the tree estimate's, kept between refreshes (only the job uses it)
    double m_started = -1e300;
    double m_last_seconds = 0;  // how long the last sum took on its worker
    std::string m_note;
    std::string m_error;  // the last refresh's refusal: the note says it, and refreshes keep their pace
};

}  // namespace nbody
