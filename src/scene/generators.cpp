#include "scene/generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/limits.hpp"
#include "scene/build_control.hpp"
#include "scene/rng.hpp"

namespace nbody {

Double3 center_of_mass(const std::vector<Body>& bodies, std::size_t begin, std::size_t end) {
    double m = 0;
    Double3 mx;
    for (std::size_t i = begin; i < end; ++i) m += bodies[i].m, mx = mx + bodies[i].m * bodies[i].x;
    return m > 0 ? (1.0 / m) * mx : Double3{};
}

void remove_center_of_mass(std::vector<Body>& bodies) {
    double m = 0;
    Double3 mx, mv;
    for (const Body& b : bodies) {
        m += b.m;
        mx = mx + b.m * b.x;
        mv = mv + b.m * b.v;
    }
    if (m <= 0) return;
    const Double3 cx = (1.0 / m) * mx, cv = (1.0 / m) * mv;
    for (Body& b : bodies) {
        b.x = b.x - cx;
        b.v = b.v - cv;
    }
}

namespace {
// -G sum over pairs of m_i m_j kernel(r^2 + eps^2, r^2), over all pairs of the first max_exact bodies and
// scaled to all n (n - 1) / 2 pairs (an unbiased estimate: the bodies are independent draws).
template <class Kernel>
double pair_sum(const std::vector<Body>& bodies, double eps, double G, std::size_t max_exact,
                BuildControl* control, Kernel kernel) {
    const std::size_t n = bodies.size(), k = std::min(n, max_exact);
    if (k < 2) return 0.0;
    double sum = 0;
    for (std::size_t i = 0; i < k; ++i) {
        if (control && control->cancelled()) throw BuildCancelled();  // up to 8M pairs: checked per row
        for (std::size_t j = i + 1; j < k; ++j) {
            const Double3 d = bodies[j].x - bodies[i].x;
            const double r2 = dot(d, d);
            sum += bodies[i].m * bodies[j].m * kernel(r2 + eps * eps, r2);
        }
    }
    const double pairs_all = 0.5 * double(n) * double(n - 1), pairs_used = 0.5 * double(k) * double(k - 1);
    return -G * sum * pairs_all / pairs_used;
}
}  // namespace

double potential_energy(const std::vector<Body>& bodies, double eps, double G, std::size_t max_exact,
                        BuildControl* control) {
    return pair_sum(bodies, eps, G, max_exact, control,
                    [](double s2, double) { return 1.0 / std::sqrt(s2); });
}

double clausius_virial(const std::vector<Body>& bodies, double eps, double G, std::size_t max_exact,
                       BuildControl* control) {
    // r = 0 with eps = 0 (two bodies drawn at one point) contributes 0, not 0/0
    return pair_sum(bodies, eps, G, max_exact, control,
                    [](double s2, double r2) { return s2 > 0 ? r2 / (s2 * std::sqrt(s2)) : 0.0; });
}

void virialize(std::vector<Body>& bodies, double eps, double G, BuildControl* control) {
    double kin = 0;
    for (const Body& b : bodies) kin += 0.5 * b.m * dot(b.v, b.v);
    const double v = clausius_virial(bodies, eps, G, 4096, control);
    if (kin <= 0 || v >= 0) return;
    const double s = std::sqrt(-0.5 * v / kin);
    for (Body& b : bodies) b.v = s * b.v;
}

Double3 normalized(Double3 v) {
    const double r = std::sqrt(dot(v, v));
    return r > 0 ? (1.0 / r) * v : Double3{0, 0, 1};
}

Rotation Rotation::z_onto(Double3 axis) {
    const Double3 a = normalized(axis);
    Rotation r;
    if (a.z > 1.0 - 1e-15) return r;
    if (a.z < -1.0 + 1e-15) {  // half turn about x: y -> -y, z -> -z
        r.m[1][1] = r.m[2][2] = -1;
        return r;
    }
    // Rodrigues for the unit rotation axis k = z x a / |z x a| and angle acos(a.z):
    // R = I + sin K + (1 - cos) K^2, with K the cross-product matrix of k.
    const Double3 k = normalized(cross({0, 0, 1}, a));
    const double c = a.z, s = std::sqrt(1.0 - c * c);
    const double kk[3][3] = {{0, -k.z, k.y}, {k.z, 0, -k.x}, {-k.y, k.x, 0}};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            double k2 = 0;
            for (int l = 0; l < 3; ++l) k2 += kk[i][l] * kk[l][j];
            r.m[i][j] = (i == j ? 1.0 : 0.0) + s * kk[i][j] + (1.0 - c) * k2;
        }
    return r;
}

Double3 Rotation::operator()(Double3 v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
}

void require_range(const char* field, double v, double lo, double hi) {
    if (v >= lo && v <= hi) return;
    char buf[160];
    std::snprintf(buf, sizeof buf, "must be from %g to %g (got %g)", lo, hi, v);
    throw ParamError(field, buf);
}
void require_mass(double mass) {
    require_range("mass", mass, limits::kMinMass, limits::kMaxMass);
}
void require_length(const char* field, double length) {
    require_range(field, length, limits::kMinLength, limits::kMaxLength);
}
void require_G(double G) {
    require_range("G", G, limits::kMinG, limits::kMaxG);
}

double plummer_speed_fraction(Rng& rng) {
    // q = v / v_escape by rejection under the envelope 0.1 (the maximum of g is 0.092): accepts 37% of the
    // draws whatever the parameters.
    return draw_until(
        [&rng]() -> std::optional<double> {
            const double q = rng.uniform(), y = rng.uniform() * 0.1;
            if (y >= q * q * std::pow(1.0 - q * q, 3.5)) return std::nullopt;
            return q;
        },
        "plummer speed", "the distribution is fixed; the random stream is broken");
}

std::vector<Body> make_plummer(const PlummerParams& p, uint64_t seed, BuildControl* control) {
    require_mass(p.mass);
    require_length("scale", p.scale);
    require_range("mass_cut", p.mass_cut, 1e-6, 1.0 - 1e-9);
    require_G(p.G);
    Rng rng(seed);
    std::vector<Body> out(p.n);
    const double vscale = std::sqrt(p.G * p.mass / p.scale);
    for (std::size_t i = 0; i < out.size(); ++i) {
        Body& b = out[i];
        b.m = p.mass / static_cast<double>(p.n);
        // Radius in units of a from the enclosed-mass fraction; X1 > 0 avoids r = 0 / inf edge cases.
        const double x1 = draw_until(
            [&]() -> std::optional<double> {
                const double x = rng.uniform() * p.mass_cut;
                return x > 0 ? std::optional(x) : std::nullopt;
            },
            "mass_cut", "the enclosed-mass fraction is never above 0");
        const double r = 1.0 / std::sqrt(std::pow(x1, -2.0 / 3.0) - 1.0);
        b.x = (r * p.scale) * rng.unit_vector();
        const double speed = plummer_speed_fraction(rng) * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
        b.v = (speed * vscale) * rng.unit_vector();
        tick(control, i);
    }
    remove_center_of_mass(out);
    return out;
}

std::vector<Body> make_uniform_sphere(const UniformSphereParams& p, uint64_t seed, BuildControl* control) {
    require_mass(p.mass);
    require_length("radius", p.radius);
    require_range("virial_ratio", p.virial_ratio, 0.0, 10.0);
    require_G(p.G);
    Rng rng(seed);
    std::vector<Body> out(p.n);
    for (std::size_t i = 0; i < out.size(); ++i) {
        Body& b = out[i];
        b.m = p.mass / static_cast<double>(p.n);
        b.x = (p.radius * std::cbrt(rng.uniform())) * rng.unit_vector();
        b.v = {rng.normal(), rng.normal(), rng.normal()};
        tick(control, i);
    }
    remove_center_of_mass(out);
    double kin = 0;
    for (const Body& b : out) kin += 0.5 * b.m * dot(b.v, b.v);
    const double w = 0.6 * p.G * p.mass * p.mass / p.radius;  // |W| of a uniform sphere
    const double target_kin = 0.5 * p.virial_ratio * w;
    const double s = kin > 0 ? std::sqrt(target_kin / kin) : 0.0;
    for (Body& b : out) b.v = s * b.v;
    return out;
}

}  // namespace nbody
