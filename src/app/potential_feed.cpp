#include "app/potential_feed.hpp"

#include <algorithm>
#include <chrono>

#include "core/errors.hpp"
#include "core/physics/diagnostics.hpp"

namespace nbody {

PotentialFeed::Sum PotentialFeed::finished(const std::vector<double>& phi, double scale,
                                           std::chrono::steady_clock::time_point t0) {
    Sum sum;
    sum.phi.resize(phi.size());
    for (std::size_t i = 0; i < phi.size(); ++i) sum.phi[i] = float(scale * phi[i]);
    sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return sum;
}

void PotentialFeed::forget() {
    if (m_job.valid()) m_job.wait();
    m_job = {};
    m_started = -1e300;
    m_last_seconds = 0;
    m_error.clear();
}

void PotentialFeed::take(ParticleRenderer& r) {
    Sum sum = m_job.get();
    m_last_seconds = sum.seconds;
    m_error = sum.error;
    if (!m_error.empty()) return;
    const std::vector<float>& phi = sum.phi;
    // The ends of the ramp: the 0.5th and 99.5th percentiles, so one bound pair deep in its own well does
    // not push every other body into the bottom colour.
    const ValueRange range = quantile_range(phi, 0.005, 0.995);
    r.set_body_scalars(phi, range);
}

void PotentialFeed::say(const ParticleRenderer& r) {
    const std::size_t n = r.particle_count();
    m_note = potential_note(n);
    if (!m_error.empty())
        m_note = "not shown: " + m_error + "; bodies keep their component colours";
    else if (n > 0 && n <= kTreeMax && !r.has_body_scalars())
        m_note = "summing the first values; component colours until then (" + m_note + ")";
}

void PotentialFeed::finish(ParticleRenderer& r) {
    if (m_job.valid()) take(r);
}

void PotentialFeed::update(ParticleRenderer& r, const SimParams& p, double wall_now, bool wanted,
                           bool wait_first) {
    const std::size_t n = r.particle_count();
    const bool shown = n > 0 && n <= kTreeMax;
    say(r);
    if (!wanted || !shown) return;
    if (m_job.valid()) {
        if (m_job.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        take(r);
    }
    const double due = std::max(kInterval, kDutyFactor * m_last_seconds);
    if (wall_now - m_started < due && (r.has_body_scalars() || !m_error.empty())) return;
    m_started = wall_now;
    // n x 16 bytes from the GPU: 256 KiB at the exact sum's limit, 32 MiB at the tree's.
    std::vector<Float4> pos;
    r.read_positions(pos);
    const double eps = p.eps, G = p.G;
    if (n <= kExactMax) {
        m_job = std::async(std::launch::async, [pos = std::move(pos), eps, G] {
            const auto t0 = std::chrono::steady_clock::now();
            State s;
            s.resize(pos.size());
            for (std::size_t i = 0; i < pos.size(); ++i)
                s.pos_mass[i] = {double(pos[i].x), double(pos[i].y), double(pos[i].z), double(pos[i].w)};
            return finished(body_potentials(s, eps, G), 1.0, t0);
        });
    } else {
        if (!m_tree) m_tree = std::make_unique<CpuTree>();
        m_job = std::async(std::launch::async, [tree = m_tree.get(), pos = std::move(pos), eps, G] {
            const auto t0 = std::chrono::steady_clock::now();
            TreeParams tp;
            tp.theta = potential_view::kTreeTheta;
            std::vector<double> phi(pos.size());
            try {
                tree->potentials(pos.data(), pos.size(), tp, eps, phi.data());  // without G
            } catch (const Error& e) {
                // A body the tree cannot place (NaN, infinite), or too many for memory.
                Sum refused;
                refused.error = e.what();
                return refused;
            }
            return finished(phi, G, t0);
        });
    }
    if (wait_first && !r.has_body_scalars()) {
        take(r);
        say(r);  // a one-frame picture's summary speaks of the values it drew
    }
}

}  // namespace nbody
