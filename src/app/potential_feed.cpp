#include "app/potential_feed.hpp"

#include <algorithm>
#include <chrono>

#include "core/physics/diagnostics.hpp"

namespace nbody {

std::string potential_note(std::size_t n, std::size_t exact_max) {
    if (n == 0) return "no bodies";
    if (n > exact_max)
        return "not shown: the exact potential is summed over every pair of bodies on the CPU, up to " +
               std::to_string(exact_max) + " bodies (this scene has " + std::to_string(n) +
               "); bodies keep their component colours";
    return "exact sum over every pair of the " + std::to_string(n) +
           " bodies, summed again at most once a second and for at most a quarter of the time";
}

void PotentialFeed::forget() {
    if (m_job.valid()) m_job.wait();
    m_job = {};
    m_started = -1e300;
    m_last_seconds = 0;
}

void PotentialFeed::take(ParticleRenderer& r) {
    Sum sum = m_job.get();
    m_last_seconds = sum.seconds;
    const std::vector<float>& phi = sum.phi;
    // The ends of the ramp: the 0.5th and 99.5th percentiles, so one bound pair deep in its own well does
    // not push every other body into the bottom colour.
    const ValueRange range = quantile_range(phi, 0.005, 0.995);
    r.set_body_scalars(phi, range);
}

void PotentialFeed::finish(ParticleRenderer& r) {
    if (m_job.valid()) take(r);
}

void PotentialFeed::update(ParticleRenderer& r, const SimParams& p, double wall_now, bool wanted,
                           bool wait_first) {
    const std::size_t n = r.particle_count();
    m_note = potential_note(n, kExactMax);
    if (n <= kExactMax && !r.has_body_scalars())
        m_note = "summing the first values; component colours until then (" + m_note + ")";
    if (!wanted || n == 0 || n > kExactMax) return;
    if (m_job.valid()) {
        if (m_job.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        take(r);
    }
    const double due = std::max(kInterval, kDutyFactor * m_last_seconds);
    if (wall_now - m_started < due && r.has_body_scalars()) return;
    m_started = wall_now;
    std::vector<Float4> pos;
    r.read_positions(pos);  // n x 16 bytes from the GPU, at most 512 KiB
    State s;
    s.resize(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i)
        s.pos_mass[i] = {double(pos[i].x), double(pos[i].y), double(pos[i].z), double(pos[i].w)};
    const double eps = p.eps, G = p.G;
    m_job = std::async(std::launch::async, [s = std::move(s), eps, G] {
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<double> phi = body_potentials(s, eps, G);
        return Sum{std::vector<float>(phi.begin(), phi.end()),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    });
    if (wait_first && !r.has_body_scalars()) take(r);
}

}  // namespace nbody
