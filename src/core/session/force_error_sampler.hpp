#pragma once
// The force error of the running method, measured live: about once a second the positions and the
// accelerations the method left at them (Backend::copy_positions_to_host, and read_accelerations_of for the
// sample: leap-frog's last evaluation, at the current positions) are copied out, and a background thread sums
// float64 direct-summation accelerations for the sample of bodies against all N (core/physics/force_reference.hpp). The
// positions are the float32 drawing copy, 16 bytes a body: exactly what the tree evaluated on either backend
// (both round to float32 first), at a third of read_state's bytes, in buffers kept between measurements, so
// the copy on the frame's thread stays a plain memcpy (a float64 method would see its input's rounding,
// ~1e-7, as error). Published: the median and 99th percentile of |a_method - a_direct| / |a_direct| with the
// sample size and the wall time of the copy. Any backend works (CPU or CUDA, no device code); the Simulation
// polls it for the tree only, the one method whose error is not float32 rounding. What is measured (method,
// tree parameters, eps, G, precision, N) changing, or invalidate(), drops the result and the job in flight: a
// figure never stands beside a theta or a scene it was not measured at.
#include <cstddef>
#include <future>
#include <optional>
#include <vector>

#include "core/backend/backend.hpp"

namespace nbody {

struct ForceErrorResult {
    double median = 0, p99 = 0;  // relative force error, dimensionless
    std::size_t sample = 0;      // bodies measured (evenly spread over the index range)
    std::size_t n = 0;           // bodies in the system
    double wall = 0;             // poll clock (s) when the state was copied: its age is now - wall
    double sim_time = 0;         // simulation time of the state measured
    double seconds = 0;          // how long the float64 sums took (s)
};

class ForceErrorSampler {
  public:
    // The sample: up to 1,024 bodies, fewer at large N so that sample x N stays under kMaxPairs float64 pairs
    // (about 1 s on one core at ~4 ns a pair), but never fewer than 64 (a median and a tail still mean
    // something). N = 2M: 125 bodies.
    static constexpr std::size_t kMaxSample = 1024, kMinSample = 64;
    static constexpr double kMaxPairs = 2.5e8;
    static std::size_t sample_size(std::size_t n);

    // interval_s: wall seconds between measurements (stretched to 4x the sums' own time, so the background
    // cores stay mostly free); threads for the sums, 0 = all.
    explicit ForceErrorSampler(double interval_s = 1.0, int threads = 0)
        : m_base_interval(interval_s), m_interval(interval_s), m_threads(threads) {}
    ~ForceErrorSampler();
    ForceErrorSampler(const ForceErrorSampler&) = delete;
    ForceErrorSampler& operator=(const ForceErrorSampler&) = delete;

    // Once a frame, with the backend idle: drops a result measured under other parameters, collects a
    // finished job, and starts the next one when due (copies the positions, 16 bytes a body, and the sample's
    // accelerations now, on this thread). A state that has not stepped since the last measurement (paused) is
    // not measured again.
    void poll(Backend& backend, double wall_now);
    void invalidate();  // a new scene, a reset, another backend: forget the result, discard the job in flight
    void wait();        // waits for the job in flight (tests, shutdown)

    const std::optional<ForceErrorResult>& latest() const { return m_result; }
    bool measuring() const { return m_job.valid(); }

  private:
    // What a measurement is a measurement of.
    struct Key {
        SimParams params;
        std::size_t n = 0;
    };
    static bool same_key(const Key& a, const Key& b);
    // Host copies of N bodies, handed to the job and back: reused, so a measurement allocates nothing of size
    // N.
    struct Buffers {
        std::vector<Float4> pos;     // positions and masses as the backend drew them
        std::vector<Double4> pos_d;  // the same widened for the float64 sums (on the job's thread)
    };
    struct Job {
        ForceErrorResult result;
        long long steps = 0;  // the backend's step count when copied
        Buffers buf;
    };
    void collect();

    double m_base_interval, m_interval;
    int m_threads;
    double m_next_due = 0;
    std::optional<Key> m_key;  // of the result and the job in flight
    bool m_job_stale = false;  // the job in flight measures something no longer running: discard it
    std::future<Job> m_job;
    Buffers m_buf;               // empty while a job holds them
    std::optional<ForceErrorResult> m_result;
    long long m_result_steps = -1;
};

}  // namespace nbody
