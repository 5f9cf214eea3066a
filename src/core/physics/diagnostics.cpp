#include "core/physics/diagnostics.hpp"

#include <cmath>
#include <vector>

#include "core/parallel.hpp"

namespace nbody {

namespace {

// -1/2 sum_{i != j} m_i m_j / sqrt(r^2 + eps^2), without G: sum_i m_i phi_i / 2 in the same order, so the
// result does not depend on scheduling.
double pair_potential(const State& s, double eps, int threads) {
    const std::vector<double> phi = body_potentials(s, eps, 1.0, threads);
    double w = 0;
    for (std::size_t i = 0; i < phi.size(); ++i) w += double(s.pos_mass[i].w) * phi[i];
    return 0.5 * w;
}

}  // namespace

std::vector<double> body_potentials(const State& s, double eps, double G, int threads) {
    const std::size_t n = s.size();
    const double eps2 = eps * eps;
    std::vector<double> phi(n, 0.0);
    // Each thread writes its own rows: 8 flops and a square root per pair.
    parallel_for(n, resolve_threads(threads), [&](std::size_t b, std::size_t e) {
        for (std::size_t i = b; i < e; ++i) {
            const Double4 pi = s.pos_mass[i];
            double sum = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (j == i) continue;
                const Double4 pj = s.pos_mass[j];
                double dx = double(pj.x) - pi.x, dy = double(pj.y) - pi.y, dz = double(pj.z) - pi.z;
                double r2 = dx * dx + dy * dy + dz * dz + eps2;
                if (r2 > 0) sum += double(pj.w) / std::sqrt(r2);
            }
            phi[i] = -G * sum;
        }
    }, 16);
    return phi;
}

CentreOfMass centre_of_mass(const State& s) {
    CentreOfMass c;
    c.time = s.time;
    Double3 mx, mv;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double m = s.pos_mass[i].w;
        c.mass += m;
        mx = mx + m * Double3{s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z};
        mv = mv + m * Double3{s.vel[i].x, s.vel[i].y, s.vel[i].z};
    }
    if (c.mass > 0) {
        c.position = (1.0 / c.mass) * mx;
        c.velocity = (1.0 / c.mass) * mv;
    }
    return c;
}

Diagnostics compute_diagnostics(const State& s, double eps, double G, int threads, std::optional<double> potential) {
    Diagnostics d;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double m = s.pos_mass[i].w;
        const Double3 x{s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z};
        const Double3 v{s.vel[i].x, s.vel[i].y, s.vel[i].z};
        d.mass += m;
        d.kinetic += 0.5 * m * dot(v, v);
        d.momentum = d.momentum + m * v;
        d.angular_momentum = d.angular_momentum + m * cross(x, v);
        d.momentum_scale += m * std::sqrt(dot(v, v));
    }
    const CentreOfMass com = centre_of_mass(s);
    d.com_position = com.position;
    d.com_velocity = com.velocity;
    d.potential = potential ? *potential : G * pair_potential(s, eps, threads);
    d.total = d.kinetic + d.potential;
    d.virial_ratio = d.potential != 0 ? 2.0 * d.kinetic / std::fabs(d.potential) : 0.0;
    return d;
}

double relative_energy_error(const Diagnostics& start, const Diagnostics& now) {
    const double de = std::fabs(now.total - start.total);
    return start.total != 0 ? de / std::fabs(start.total) : de;
}

double momentum_drift(const Diagnostics& start, const Diagnostics& now) {
    const Double3 dp = now.momentum - start.momentum;
    const double scale = start.momentum_scale > 0 ? start.momentum_scale : 1.0;
    return std::sqrt(dot(dp, dp)) / scale;
}

}  // namespace nbody
