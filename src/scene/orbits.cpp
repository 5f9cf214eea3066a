#include "scene/orbits.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>

#include "core/errors.hpp"
#include "scene/generators.hpp"

namespace nbody {

std::array<PointOrbitState, 3> figure8_initial() {
    const Double3 x1{0.97000435669734, -0.24308753153583, 0};
    const Double3 v3{-0.93240737144104, -0.86473146092102, 0};
    return {{{x1, -0.5 * v3}, {-1.0 * x1, -0.5 * v3}, {{}, v3}}};
}

std::array<PointOrbitState, 4> figure8_four_initial() {
    return {{{{1.201675137236, 0, 0}, {0, 0.886694876272, 0}},
             {{0.053398577219, 0.475560020308, 0}, {-1.090116404239, -0.649319920504, 0}},
             {{-1.308472291674, 0, 0}, {0, 0.411944964736, 0}},
             {{0.053398577219, -0.475560020308, 0}, {1.090116404239, -0.649319920504, 0}}}};
}

bool is_choreography(OrbitType t) { return t == OrbitType::Figure8 || t == OrbitType::Figure8Four; }

std::vector<PointOrbitState> choreography_initial(OrbitType t) {
    if (t == OrbitType::Figure8) {
        const auto ic = figure8_initial();
        return {ic.begin(), ic.end()};
    }
    if (t == OrbitType::Figure8Four) {
        const auto ic = figure8_four_initial();
        return {ic.begin(), ic.end()};
    }
    return {};
}

double choreography_unit_period(OrbitType t) {
    return t == OrbitType::Figure8Four ? kFigure8FourPeriod : kFigure8Period;
}

double choreography_period(const OrbitSpec& o, double G, double member_mass) {
    return choreography_unit_period(o.type) * std::pow(o.scale, 1.5) / std::sqrt(G * member_mass);
}

std::size_t orbit_member_count(OrbitType t) {
    switch (t) {
        case OrbitType::Figure8: return 3;
        case OrbitType::Figure8Four: return 4;
        case OrbitType::HeadOn:
        case OrbitType::Parabolic: return 2;
    }
    return 0;
}

namespace {

void place_choreography(std::vector<ComponentSpec>& c, const OrbitSpec& o, std::span<const PointOrbitState> ic,
                        double G) {
    const double m = c[o.members[0]].mass;
    const double vs = std::sqrt(G * m / o.scale);
    const Rotation turn = Rotation::z_onto(o.axis);
    for (std::size_t k = 0; k < ic.size(); ++k) {
        ComponentSpec& comp = c[o.members[k]];
        comp.position = o.position + turn(o.scale * ic[k].x);
        comp.velocity = o.velocity + turn(vs * ic[k].v);
    }
}

// The direction perpendicular to `a` that tilting moves towards: +x projected off a (or +y when a is x).
Double3 tilt_direction(Double3 a) {
    Double3 u = Double3{1, 0, 0} - a.x * a;
    if (dot(u, u) < 1e-12) u = Double3{0, 1, 0} - a.y * a;
    return normalized(u);
}

void place_head_on(std::vector<ComponentSpec>& c, const OrbitSpec& o) {
    const ComponentSpec& target = c[o.members[0]];
    ComponentSpec& intruder = c[o.members[1]];
    const Double3 a = normalized(target.axis), u = tilt_direction(a);
    const double t = o.tilt_deg * std::numbers::pi / 180.0;
    const Double3 d = std::cos(t) * a + std::sin(t) * u;     // from the target towards the start point
    const Double3 w = -std::sin(t) * a + std::cos(t) * u;    // the miss direction, perpendicular to d
    intruder.position = target.position + o.distance * d + o.offset * w;
    intruder.velocity = target.velocity - o.speed * d;
}

void place_parabolic(std::vector<ComponentSpec>& c, const OrbitSpec& o, double G) {
    ComponentSpec& a = c[o.members[0]];
    ComponentSpec& b = c[o.members[1]];
    const double mt = a.mass + b.mass, q = o.pericentre, r = o.distance;
    // r = 2q / (1 + cos f); f < 0 on the way in. v_r = sqrt(mu / p) sin f, v_t = sqrt(mu / p)(1 + cos f), p = 2q.
    const double f = -std::acos(std::clamp(2.0 * q / r - 1.0, -1.0, 1.0));
    const double vp = std::sqrt(G * mt / (2.0 * q));
    const Double3 rhat{std::cos(f), std::sin(f), 0}, that{-std::sin(f), std::cos(f), 0};
    const Double3 rel = r * rhat, vrel = (vp * std::sin(f)) * rhat + (vp * (1.0 + std::cos(f))) * that;
    const Rotation turn = Rotation::z_onto(o.axis);
    a.position = o.position + turn((-b.mass / mt) * rel);
    a.velocity = o.velocity + turn((-b.mass / mt) * vrel);
    b.position = o.position + turn((a.mass / mt) * rel);
    b.velocity = o.velocity + turn((a.mass / mt) * vrel);
}

}  // namespace

void apply_orbits(std::vector<ComponentSpec>& components, const std::vector<OrbitSpec>& orbits, double G) {
    for (std::size_t i = 0; i < orbits.size(); ++i) {
        const OrbitSpec& o = orbits[i];
        if (o.members.size() != orbit_member_count(o.type))
            throw ParamError("orbit[" + std::to_string(i) + "].components",
                             "needs " + std::to_string(orbit_member_count(o.type)) + " components");
        for (std::size_t m : o.members)
            if (m >= components.size())
                throw ParamError("orbit[" + std::to_string(i) + "].components", "no component " + std::to_string(m));
        switch (o.type) {
            case OrbitType::Figure8:
            case OrbitType::Figure8Four: place_choreography(components, o, choreography_initial(o.type), G); break;
            case OrbitType::HeadOn: place_head_on(components, o); break;
            case OrbitType::Parabolic: place_parabolic(components, o, G); break;
        }
    }
}

}  // namespace nbody
