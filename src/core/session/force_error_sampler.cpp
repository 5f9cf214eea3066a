#include "core/session/force_error_sampler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "core/physics/force_reference.hpp"

namespace nbody {

std::size_t ForceErrorSampler::sample_size(std::size_t n) {
    const double by_pairs = n > 0 ? kMaxPairs / double(n) : double(kMaxSample);
    const std::size_t s = std::clamp(std::size_t(by_pairs), kMinSample, kMaxSample);
    return std::min(s, n);
}

ForceErrorSampler::~ForceErrorSampler() {
    if (m_job.valid()) m_job.wait();  // the job owns its copies: nothing of ours to outlive, only the thread
}

bool ForceErrorSampler::same_key(const Key& a, const Key& b) {
    const SimParams &p = a.params, &q = b.params;
    return a.n == b.n && p.method == q.method && p.eps == q.eps && p.G == q.G && p.precision == q.precision &&
           p.tree == q.tree;
}

void ForceErrorSampler::invalidate() {
    // Not waited for: the float64 sums may take a second, and the window must not freeze for them.
    m_job_stale = m_job.valid();
    m_result.reset();
    m_result_steps = -1;
    m_key.reset();
    m_next_due = 0;
}

void ForceErrorSampler::collect() {
    Job j = m_job.get();
    m_buf = std::move(j.buf);
    m_interval = std::max(m_base_interval, 4.0 * j.result.seconds);
    if (m_job_stale) {
        m_job_stale = false;
        return;
    }
    m_result = j.result;
    m_result_steps = j.steps;
}

void ForceErrorSampler::wait() {
    if (m_job.valid()) collect();
}

void ForceErrorSampler::poll(Backend& backend, double wall_now) {
    const Key key{backend.params(), backend.size()};
    if (m_key && !same_key(*m_key, key)) invalidate();
    if (m_job.valid()) {
        if (m_job.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        collect();
    }
    m_key = key;
    if (wall_now < m_next_due || key.n == 0) return;
    if (m_result && backend.steps_taken() == m_result_steps)
        return;  // paused: the same state, the same error
    m_next_due = wall_now + m_interval;

    m_buf.pos.resize(key.n);
    backend.copy_positions_to_host(m_buf.pos.data());
    std::vector<std::size_t> rows = spread_rows(key.n, sample_size(key.n));
    std::vector<Double4> picked;
    backend.read_accelerations_of(rows, picked);

    Job j;
    j.steps = backend.steps_taken();
    j.result.n = key.n;
    j.result.wall = wall_now;
    j.result.sim_time = backend.time();
    j.buf = std::move(m_buf);
    const double eps = key.params.eps, G = key.params.G;
    m_job =
        std::async(std::launch::async, [j = std::move(j), rows = std::move(rows), picked = std::move(picked),
                                        eps, G, threads = m_threads]() mutable {
            const auto t0 = std::chrono::steady_clock::now();
            std::vector<Double4>& pm = j.buf.pos_d;
            pm.resize(j.buf.pos.size());
            for (std::size_t i = 0; i < pm.size(); ++i) pm[i] = to_double4(j.buf.pos[i]);
            const ForceError e = compare_forces(picked, direct_reference(pm, rows, eps, G, threads));
            j.result.sample = e.counted;  // a body feeling no force has no relative error
            j.result.median = e.median_rel;
            j.result.p99 = e.p99_rel;
            j.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return std::move(j);  // a captured member: returned by copy (the N-body buffers) unless moved
        });
}

}  // namespace nbody
