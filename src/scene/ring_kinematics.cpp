#include "scene/ring_kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "scene/tabulated.hpp"

namespace nbody {

namespace {

constexpr double kPi = std::numbers::pi;

// kappa^2 = R dOmega^2/dR + 4 Omega^2 at every grid point (one-sided at the ends).
void fill_kappa2(RotationCurve& c) {
    const std::size_t n = c.R.size();
    c.kappa2.assign(n, 0.0);
    if (n < 2) return;
    auto omega2 = [&](std::size_t i) { return c.vc2[i] / (c.R[i] * c.R[i]); };
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t lo = i == 0 ? 0 : i - 1, hi = i + 1 == n ? i : i + 1;
        const double d = (omega2(hi) - omega2(lo)) / (c.R[hi] - c.R[lo]);
        c.kappa2[i] = c.R[i] * d + 4.0 * omega2(i);
    }
}

// Enclosed-mass fraction of an exponential disk inside R (x = R / h): 1 - (1 + x) e^-x.
double exp_disk_fraction(double x) {
    return 1.0 - (1.0 + x) * std::exp(-x);
}

// The radius holding fraction u of the disk truncated at `cutoff` (bisection: monotonic, bounded).
double exp_disk_quantile(double u, double h, double cutoff) {
    const double target = u * exp_disk_fraction(cutoff / h);
    double lo = 0, hi = cutoff;
    for (int k = 0; k < 60; ++k) {
        const double mid = 0.5 * (lo + hi);
        (exp_disk_fraction(mid / h) < target ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

}  // namespace

double RotationCurve::vc2_at(double r) const {
    if (R.empty()) return 0;
    if (r <= R.front()) return vc2.front() * (r * r) / (R.front() * R.front());
    return interpolate_clamped(R, vc2, r);
}

std::vector<double> radius_grid(double lo, double hi, double step) {
    std::vector<double> r;
    for (int k = 0; lo + k * step <= hi + 1e-12; ++k) r.push_back(lo + k * step);
    return r;
}

RotationCurve model_rotation(const DiskGalaxyParams& p, const std::vector<double>& radii) {
    RotationCurve c;
    c.R = radii;
    for (double r : radii) c.vc2.push_back(disk_galaxy_vc2(p, r));
    fill_kappa2(c);
    return c;
}

RotationCurve measured_rotation(const State& s, std::span<const std::size_t> idx, Double3 c,
                                const std::vector<double>& radii, double eps, double G, int azimuths) {
    RotationCurve out;
    out.R = radii;
    const double eps2 = eps * eps;
    for (double r : radii) {
        double pull = 0;  // <-g_R>, summed over azimuths
        for (int k = 0; k < azimuths; ++k) {
            const double phi = 2.0 * kPi * (k + 0.5) / azimuths;
            const Double3 at{c.x + r * std::cos(phi), c.y + r * std::sin(phi), c.z};
            const Double3 radial{std::cos(phi), std::sin(phi), 0};
            Double3 g;
            for (std::size_t j : idx) {
                const Double3 d{s.pos_mass[j].x - at.x, s.pos_mass[j].y - at.y, s.pos_mass[j].z - at.z};
                const double r2 = dot(d, d) + eps2;
                if (r2 == 0) continue;
                g = g + (s.pos_mass[j].w / (r2 * std::sqrt(r2))) * d;
            }
            pull -= G * dot(g, radial);
        }
        out.vc2.push_back(r * pull / azimuths);
    }
    fill_kappa2(out);
    return out;
}

DiskKinematics measured_disk_kinematics(const State& s, std::span<const std::size_t> idx, Double3 c,
                                        double r_max, int bins) {
    DiskKinematics k;
    std::vector<double> sum_phi(bins, 0.0), sum_r(bins, 0.0), sum_r2(bins, 0.0);
    k.count.assign(bins, 0);
    const double w = r_max / bins;
    for (std::size_t i : idx) {
        const double x = s.pos_mass[i].x - c.x, y = s.pos_mass[i].y - c.y, R = std::hypot(x, y);
        const int b = int(R / w);
        if (b >= bins || R == 0) continue;
        const double vr = (x * s.vel[i].x + y * s.vel[i].y) / R, vphi = (x * s.vel[i].y - y * s.vel[i].x) / R;
        sum_phi[b] += vphi, sum_r[b] += vr, sum_r2[b] += vr * vr;
        ++k.count[b];
    }
    for (int b = 0; b < bins; ++b) {
        const double n = double(std::max<std::size_t>(k.count[b], 1)), mr = sum_r[b] / n;
        k.R.push_back((b + 0.5) * w);
        k.vphi_mean.push_back(sum_phi[b] / n);
        k.sigma_R.push_back(std::sqrt(std::max(0.0, sum_r2[b] / n - mr * mr)));
    }
    return k;
}

double IntruderPassage::z_at(double time) const {
    if (t.empty()) return 1e30;  // no intruder
    return interpolate_clamped(t, z, time);
}

IntruderPassage computed_passage(const RotationCurve& target, double target_mass, double intruder_mass,
                                 double intruder_scale, double z0, double v0, double t_end, double G) {
    IntruderPassage p{{}, {}, intruder_mass, intruder_scale, G};
    const double recoil = 1.0 + intruder_mass / target_mass, dt = 1.0 / 1024;
    auto pull = [&](double z) {
        const double r = std::max(std::fabs(z), 1e-6);
        return -std::copysign(recoil * target.vc2_at(r) / r, z);
    };
    double z = z0, v = -std::fabs(v0) * (z0 > 0 ? 1 : -1);
    for (double t = 0; t <= t_end + 0.5 * dt; t += dt) {
        p.t.push_back(t), p.z.push_back(z);
        v += 0.5 * dt * pull(z);
        z += dt * v;
        v += 0.5 * dt * pull(z);
    }
    return p;
}

KinematicDisk::KinematicDisk(const RotationCurve& target, const DiskSpec& disk, double disk_mass,
                             IntruderPassage passage, int rings, int azimuths)
    : m_curve(target), m_path(std::move(passage)), m_azimuths(std::max(azimuths, 1)) {
    rings = std::max(rings, 2);
    for (int k = 0; k < rings; ++k) {
        const double r0 = exp_disk_quantile((k + 0.5) / rings, disk.scale_length, disk.cutoff);
        m_R0.push_back(r0);
        m_L2.push_back(r0 * r0 * m_curve.vc2_at(r0));  // circular: L = R0 v_c(R0)
    }
    m_R = m_R0;
    m_vR.assign(m_R0.size(), 0.0);
    m_mass_per_body = disk_mass / double(rings * m_azimuths);
    m_t = m_path.t.empty() ? 0.0 : std::min(0.0, m_path.t.front());
}

double KinematicDisk::accel(std::size_t i, double R, double t) const {
    const double z = m_path.z_at(t), a = m_path.scale;
    const double pull = m_path.G * m_path.mass * R / std::pow(R * R + z * z + a * a, 1.5);
    return m_L2[i] / (R * R * R) - m_curve.vc2_at(R) / R - pull;
}

void KinematicDisk::advance_to(double t, double dt) {
    if (t <= m_t) return;
    const int steps = int(std::ceil((t - m_t) / dt));
    const double h = (t - m_t) / steps;
    for (int s = 0; s < steps; ++s, m_t += h)
        for (std::size_t i = 0; i < m_R.size(); ++i) {
            // RK4 on (R, v_R); R stays positive since L > 0 makes the centrifugal term a wall.
            const double R = m_R[i], v = m_vR[i];
            const double k1x = v, k1v = accel(i, R, m_t);
            const double k2x = v + 0.5 * h * k1v, k2v = accel(i, R + 0.5 * h * k1x, m_t + 0.5 * h);
            const double k3x = v + 0.5 * h * k2v, k3v = accel(i, R + 0.5 * h * k2x, m_t + 0.5 * h);
            const double k4x = v + h * k3v, k4v = accel(i, R + h * k3x, m_t + h);
            m_R[i] = std::max(1e-6, R + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x));
            m_vR[i] = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        }
    m_t = t;
}

State KinematicDisk::state() const {
    State s;
    s.resize(m_R.size() * std::size_t(m_azimuths));
    s.time = m_t;
    std::size_t at = 0;
    for (std::size_t i = 0; i < m_R.size(); ++i)
        for (int k = 0; k < m_azimuths; ++k, ++at) {
            // each ring's bodies turned by an irrational fraction of a turn, so rings do not line up in
            // spokes
            const double phi = 2.0 * kPi * ((k + 0.5) / m_azimuths + 0.6180339887 * double(i));
            s.pos_mass[at] = {m_R[i] * std::cos(phi), m_R[i] * std::sin(phi), 0.0, m_mass_per_body};
        }
    return s;
}

double epicyclic_ring_speed(const RotationCurve& c, double R, double since_passage) {
    if (since_passage <= 0 || c.R.size() < 3) return 0;
    const std::size_t i = std::clamp<std::size_t>(
        std::size_t(std::lower_bound(c.R.begin(), c.R.end(), R) - c.R.begin()), 1, c.R.size() - 2);
    const double k0 = std::sqrt(std::max(0.0, c.kappa2[i - 1])),
                 k1 = std::sqrt(std::max(0.0, c.kappa2[i + 1]));
    const double dk = (k1 - k0) / (c.R[i + 1] - c.R[i - 1]), k = std::sqrt(std::max(0.0, c.kappa2[i]));
    return dk < 0 ? k / (since_passage * -dk) : 0;
}

}  // namespace nbody
