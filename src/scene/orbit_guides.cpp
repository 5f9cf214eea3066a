#include "scene/orbit_guides.hpp"

#include <algorithm>
#include <cmath>

#include "scene/analysis.hpp"
#include "scene/generators.hpp"

namespace nbody {

namespace {

double total_mass(const std::vector<ComponentSpec>& c) {
    double m = 0;
    for (const ComponentSpec& comp : c) m += comp.mass;
    return m;
}

// The member at `x` starts j / members of a period after member 0 along `path`: j from the nearest sample,
// rounded to the exact fraction (512 samples do not divide into thirds).
double phase_on(const std::vector<Double3>& path, Double3 x, std::size_t members) {
    std::size_t nearest = 0;
    double best = 1e300;
    for (std::size_t k = 0; k + 1 < path.size(); ++k) {
        const Double3 d = path[k] - x;
        if (dot(d, d) < best) best = dot(d, d), nearest = k;
    }
    const double samples = double(path.size() - 1), m = double(members);
    return std::fmod(std::round(double(nearest) / samples * m), m) / m;
}

}  // namespace

Double3 guide_position(const OrbitGuide& g, double phase, double t) {
    if (g.points.size() < 2 || !(g.period > 0) || !std::isfinite(t))
        return g.points.empty() ? Double3{} : g.points[0];
    const double samples = double(g.points.size() - 1);
    double f = std::fmod(t / g.period + phase, 1.0);
    if (f < 0) f += 1.0;
    const double at = f * samples;
    const std::size_t k = std::min(std::size_t(at), g.points.size() - 2);
    const double w = at - double(k);
    return (1.0 - w) * g.points[k] + w * g.points[k + 1] + t * g.velocity;
}

std::vector<Double3> choreography_path(std::span<const PointOrbitState> ic, double period, int samples) {
    constexpr long kStepsPerSample = 64;
    std::vector<PointOrbitState> b(ic.begin(), ic.end());
    const std::vector<double> unit_masses(b.size(), 1.0);
    const double dt = period / (double(samples) * kStepsPerSample);
    std::vector<Double3> path{b[0].x};
    for (int s = 0; s < samples; ++s) {
        b = integrate_point_masses(std::move(b), unit_masses, 1.0, dt, kStepsPerSample);
        path.push_back(b[0].x);
    }
    path.back() = path.front();  // closed: the few 1e-5 left over would draw a visible gap at a large lambda
    return path;
}

std::vector<OrbitGuide> orbit_guides(const SceneSpec& scene, int samples) {
    // The whole system's velocity, which zero_momentum takes away from every body (and so from the curve).
    Double3 shift{};
    if (const double mass = total_mass(scene.components); scene.zero_momentum && mass > 0) {
        std::vector<ComponentSpec> placed = scene.components;
        apply_orbits(placed, scene.orbits, scene.G);
        for (const ComponentSpec& c : placed) shift = shift + (c.mass / mass) * c.velocity;
    }
    std::vector<OrbitGuide> guides;
    for (const OrbitSpec& o : scene.orbits) {
        if (!is_choreography(o.type)) continue;
        const double m = o.members.empty() || o.members[0] >= scene.components.size()
                             ? 1.0
                             : scene.components[o.members[0]].mass;
        if (!(m > 0) || !(scene.G > 0)) continue;  // no orbit to draw
        const std::vector<PointOrbitState> ic = choreography_initial(o.type);
        OrbitGuide g;
        g.label = o.type == OrbitType::Figure8Four ? "the four-body eight" : "the three-body eight";
        g.period = choreography_period(o, scene.G, m);
        g.velocity = o.velocity - shift;
        const Rotation turn = Rotation::z_onto(o.axis);
        const std::vector<Double3> path = choreography_path(ic, choreography_unit_period(o.type), samples);
        for (const Double3& p : path) g.points.push_back(o.position + turn(o.scale * p));
        for (const PointOrbitState& member : ic) g.phases.push_back(phase_on(path, member.x, ic.size()));
        guides.push_back(std::move(g));
    }
    return guides;
}

}  // namespace nbody
