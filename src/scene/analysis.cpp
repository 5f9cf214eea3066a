#include "scene/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "core/errors.hpp"
#include "scene/generators.hpp"

namespace nbody {

namespace {
Double3 pos(const State& s, std::size_t i) { return {s.pos_mass[i].x, s.pos_mass[i].y, s.pos_mass[i].z}; }
Double3 vel(const State& s, std::size_t i) { return {s.vel[i].x, s.vel[i].y, s.vel[i].z}; }
}  // namespace

std::vector<std::size_t> bodies_in_group(const State& s, uint32_t g) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s.group[i] == g) out.push_back(i);
    return out;
}

Double3 center_of_mass(const State& s, std::span<const std::size_t> idx) {
    double m = 0;
    Double3 mx;
    for (std::size_t i : idx) m += s.pos_mass[i].w, mx = mx + double(s.pos_mass[i].w) * pos(s, i);
    return m > 0 ? (1.0 / m) * mx : Double3{};
}

Double3 density_center(const State& s, std::span<const std::size_t> idx, std::size_t min_bodies) {
    const std::size_t stop = std::max<std::size_t>(min_bodies, idx.size() / 100);
    Double3 c = center_of_mass(s, idx);
    double r2 = 0;
    for (std::size_t i : idx) r2 = std::max(r2, dot(pos(s, i) - c, pos(s, i) - c));
    std::vector<std::size_t> inside(idx.begin(), idx.end());
    while (inside.size() > stop) {
        r2 *= 0.85 * 0.85;
        std::vector<std::size_t> next;
        for (std::size_t i : inside)
            if (dot(pos(s, i) - c, pos(s, i) - c) < r2) next.push_back(i);
        if (next.size() < stop) break;
        inside.swap(next);
        c = center_of_mass(s, inside);
    }
    return c;
}

std::vector<double> lagrangian_radii(const State& s, std::span<const std::size_t> idx, Double3 c,
                                     std::span<const double> fractions) {
    std::vector<std::pair<double, double>> rm;  // (radius, mass)
    double total = 0;
    for (std::size_t i : idx) {
        rm.emplace_back(std::sqrt(dot(pos(s, i) - c, pos(s, i) - c)), s.pos_mass[i].w);
        total += s.pos_mass[i].w;
    }
    std::sort(rm.begin(), rm.end());
    std::vector<double> out;
    double m = 0;
    std::size_t k = 0;
    for (double f : fractions) {
        while (k < rm.size() && m + rm[k].second < f * total) m += rm[k++].second;
        out.push_back(k < rm.size() ? rm[k].first : (rm.empty() ? 0.0 : rm.back().first));
    }
    return out;
}

std::vector<double> surface_density(const State& s, std::span<const std::size_t> idx, Double3 c, Double3 axis,
                                    double r_max, int bins) {
    const Double3 a = normalized(axis);
    std::vector<double> mass(bins, 0.0);
    const double width = r_max / bins;
    for (std::size_t i : idx) {
        const Double3 d = pos(s, i) - c;
        const Double3 in_plane = d - dot(d, a) * a;
        const int b = static_cast<int>(std::sqrt(dot(in_plane, in_plane)) / width);
        if (b < bins) mass[b] += s.pos_mass[i].w;
    }
    for (int b = 0; b < bins; ++b) mass[b] /= std::numbers::pi * width * width * double(2 * b + 1);
    return mass;
}

double virial_ratio(const State& s, std::span<const std::size_t> idx, double eps, double G) {
    std::vector<Body> bodies;
    for (std::size_t i : idx) bodies.push_back({pos(s, i), vel(s, i), s.pos_mass[i].w});
    remove_center_of_mass(bodies);
    double kin = 0;
    for (const Body& b : bodies) kin += 0.5 * b.m * dot(b.v, b.v);
    const double v = clausius_virial(bodies, eps, G, bodies.size());
    return v < 0 ? 2.0 * kin / -v : 0.0;
}

std::vector<PointOrbitState> integrate_point_masses(std::vector<PointOrbitState> b, std::span<const double> m,
                                                    double G, double dt, long n) {
    const std::size_t k = b.size();
    std::vector<Double3> a(k);
    auto accelerations = [&] {
        for (std::size_t i = 0; i < k; ++i) {
            a[i] = {};
            for (std::size_t j = 0; j < k; ++j) {
                if (j == i) continue;
                const Double3 d = b[j].x - b[i].x;
                const double r2 = dot(d, d);
                a[i] = a[i] + (G * m[j] / (r2 * std::sqrt(r2))) * d;
            }
        }
    };
    accelerations();
    for (long step = 0; step < n; ++step) {
        for (std::size_t i = 0; i < k; ++i) b[i].v = b[i].v + (0.5 * dt) * a[i], b[i].x = b[i].x + dt * b[i].v;
        accelerations();
        for (std::size_t i = 0; i < k; ++i) b[i].v = b[i].v + (0.5 * dt) * a[i];
    }
    return b;
}

SurfaceMap surface_map(const State& s, Double3 c, double half, int bins) {
    SurfaceMap m{bins, half, std::vector<double>(std::size_t(bins) * std::size_t(bins), 0.0)};
    const double scale = bins / (2 * half);
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double fx = (s.pos_mass[i].x - c.x + half) * scale, fy = (s.pos_mass[i].y - c.y + half) * scale;
        if (!(fx >= 0 && fx < bins && fy >= 0 && fy < bins)) continue;  // outside, or not finite
        m.mass[std::size_t(fy) * std::size_t(bins) + std::size_t(fx)] += s.pos_mass[i].w;
    }
    return m;
}

MapDifference compare_maps(const SurfaceMap& a, const SurfaceMap& b, double floor_fraction) {
    if (a.bins != b.bins || a.half != b.half || a.mass.size() != b.mass.size())
        throw Error("surface maps of different grids (" + std::to_string(a.bins) + " and " +
                    std::to_string(b.bins) + " pixels a side)");
    double total = 0, moved = 0;
    for (std::size_t k = 0; k < a.mass.size(); ++k) total += a.mass[k], moved += std::fabs(a.mass[k] - b.mass[k]);
    MapDifference d;
    d.l1 = total > 0 ? moved / total : 0;
    const double floor = floor_fraction * total;
    double sum2 = 0;
    for (std::size_t k = 0; k < a.mass.size(); ++k) {
        if (a.mass[k] < floor && b.mass[k] < floor) continue;
        const double r = std::log10(std::max(a.mass[k], floor) / std::max(b.mass[k], floor));
        sum2 += r * r, ++d.pixels;
    }
    d.log_rms = d.pixels ? std::sqrt(sum2 / double(d.pixels)) : 0;
    return d;
}

}  // namespace nbody
