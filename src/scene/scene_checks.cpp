#include "scene/scene_checks.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "scene/generators.hpp"

namespace nbody {

RingTracker::RingTracker(const State& initial, uint32_t disk_group, Double3 axis, double r_max, int bins, double r_min)
    : m_group(disk_group), m_axis(normalized(axis)), m_r_max(r_max), m_r_min(r_min), m_bins(bins) {
    const auto idx = bodies_in_group(initial, m_group);
    const Double3 c = density_center(initial, idx);
    m_sigma0 = surface_density(initial, idx, c, m_axis, r_max, bins);
    // bodies per annulus = Sigma * area / body mass (the disk's bodies share one mass)
    const double m = idx.empty() ? 1.0 : initial.pos_mass[idx[0]].w, w = r_max / bins;
    for (int b = 0; b < bins; ++b)
        m_count0.push_back(static_cast<std::size_t>(
            std::llround(m_sigma0[b] * 3.141592653589793 * w * w * (2 * b + 1) / m)));
}

RingSample RingTracker::measure(const State& s) const {
    const auto idx = bodies_in_group(s, m_group);
    const std::vector<double> sigma = surface_density(s, idx, density_center(s, idx), m_axis, m_r_max, m_bins);
    RingSample out;
    out.time = s.time;
    const double w = m_r_max / m_bins;
    int best = -1;
    double excess = 0, excess_r = 0;
    for (int b = 0; b < m_bins; ++b) {
        if ((b + 0.5) * w < m_r_min || m_count0[b] < 16) continue;
        const double ratio = sigma[b] / m_sigma0[b];
        if (best < 0 || ratio > out.contrast) best = b, out.contrast = ratio;
        const double extra = std::max(0.0, sigma[b] - m_sigma0[b]) * (2 * b + 1);  // mass, up to a constant
        excess += extra, excess_r += extra * (b + 0.5) * w;
    }
    if (best < 0) return out;
    out.excess_radius = excess > 0 ? excess_r / excess : 0.0;
    out.radius = (best + 0.5) * w;
    out.local_max = best > 0 && sigma[best] > sigma[best - 1] && (best + 1 == m_bins || sigma[best] >= sigma[best + 1]);
    return out;
}

ChoreographyTracker::ChoreographyTracker(const SceneSpec& scene, std::size_t orbit_index) : m_G(scene.G) {
    if (orbit_index >= scene.orbits.size())
        throw ParamError("orbit", "the scene has no orbit " + std::to_string(orbit_index));
    const OrbitSpec& o = scene.orbits[orbit_index];
    std::vector<ComponentSpec> comps = scene.components;
    apply_orbits(comps, scene.orbits, scene.G);
    for (std::size_t k : o.members) {
        m_ideal.push_back({comps[k].position, comps[k].velocity});
        m_mass.push_back(comps[k].mass);
        m_groups.push_back(comps[k].group);
    }
    m_period = choreography_period(o, scene.G, m_mass[0]);
    m_dt = m_period / 20000.0;  // float64 KDK: error ~ (dt / T)^2, far below what is measured
    // The path over one period, sampled 4000 times (spacing about 1e-3 of the size), and its extent.
    Double3 lo{1e300, 1e300, 0}, hi{-1e300, -1e300, 0};
    std::vector<PointOrbitState> b = m_ideal;
    for (int i = 0; i < 4000; ++i) {
        for (const auto& p : b) {
            lo = {std::min(lo.x, p.x.x), std::min(lo.y, p.x.y), 0};
            hi = {std::max(hi.x, p.x.x), std::max(hi.y, p.x.y), 0};
            m_path.push_back(p.x);
        }
        b = integrate_point_masses(b, m_mass, m_G, m_dt, 5);
    }
    m_size = std::max(hi.x - lo.x, hi.y - lo.y);
}

double ChoreographyTracker::deviation(const State& s) {
    const long n = std::lround((s.time - m_time) / m_dt);
    if (n > 0) {
        // land exactly on s.time: n steps of (s.time - m_time) / n
        m_ideal = integrate_point_masses(m_ideal, m_mass, m_G, (s.time - m_time) / double(n), n);
        m_time = s.time;
    }
    double worst = 0;
    for (std::size_t k = 0; k < m_ideal.size(); ++k) {
        const auto idx = bodies_in_group(s, m_groups[k]);
        const Double3 d = density_center(s, idx) - m_ideal[k].x;
        worst = std::max(worst, std::sqrt(dot(d, d)));
    }
    return worst / m_size;
}

double ChoreographyTracker::path_deviation(const State& s) const {
    double worst = 0;
    for (uint32_t g : m_groups) {
        const auto idx = bodies_in_group(s, g);
        const Double3 c = density_center(s, idx);
        double best = 1e300;
        for (const Double3& p : m_path) best = std::min(best, dot(c - p, c - p));
        worst = std::max(worst, std::sqrt(best));
    }
    return worst / m_size;
}

}  // namespace nbody
