#include "scene/generators.hpp"

#include <cmath>

#include "scene/rng.hpp"

namespace nbody {

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

std::vector<Body> make_plummer(const PlummerParams& p, uint64_t seed) {
    Rng rng(seed);
    std::vector<Body> out(p.n);
    const double vscale = std::sqrt(p.G * p.mass / p.scale);
    for (Body& b : out) {
        b.m = p.mass / static_cast<double>(p.n);
        // Radius in units of a from the enclosed-mass fraction; X1 > 0 avoids r = 0 / inf edge cases.
        double x1;
        do x1 = rng.uniform() * p.mass_cut;
        while (x1 <= 0);
        const double r = 1.0 / std::sqrt(std::pow(x1, -2.0 / 3.0) - 1.0);
        b.x = (r * p.scale) * rng.unit_vector();
        // q = v / v_escape by rejection under the envelope 0.1 (max of g is 0.092).
        double q, y;
        do {
            q = rng.uniform();
            y = rng.uniform() * 0.1;
        } while (y >= q * q * std::pow(1.0 - q * q, 3.5));
        const double speed = q * std::sqrt(2.0) * std::pow(1.0 + r * r, -0.25);
        b.v = (speed * vscale) * rng.unit_vector();
    }
    remove_center_of_mass(out);
    return out;
}

std::vector<Body> make_uniform_sphere(const UniformSphereParams& p, uint64_t seed) {
    Rng rng(seed);
    std::vector<Body> out(p.n);
    for (Body& b : out) {
        b.m = p.mass / static_cast<double>(p.n);
        b.x = (p.radius * std::cbrt(rng.uniform())) * rng.unit_vector();
        b.v = {rng.normal(), rng.normal(), rng.normal()};
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
