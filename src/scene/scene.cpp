#include "scene/scene.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "scene/generators.hpp"

namespace nbody {

std::size_t SceneSpec::total_bodies() const {
    std::size_t n = 0;
    for (const auto& c : components) n += c.n;
    return n;
}

SimParams SceneSpec::apply_to(SimParams p) const {
    p.dt = dt;
    p.eps = eps;
    p.G = G;
    p.steps_per_frame = steps_per_frame;
    return p;
}

SceneSpec henon_plummer_scene(std::size_t n, uint64_t seed) {
    SceneSpec s;
    s.name = "Plummer sphere (Henon units)";
    s.seed = seed;
    ComponentSpec c;
    c.type = ComponentType::Plummer;
    c.n = n;
    c.scale = 3.0 * 3.14159265358979323846 / 16.0;
    s.components.push_back(c);
    return s;
}

void rescale_bodies(SceneSpec& scene, std::size_t total) {
    const std::size_t k = scene.components.size();
    if (k == 0) return;
    if (total < k)
        throw ParamError("bodies", "must be at least " + std::to_string(k) + " (one per scene component), got " +
                                       std::to_string(total));
    const double old_total = static_cast<double>(scene.total_bodies());
    std::size_t assigned = 0;
    for (std::size_t i = 0; i < k; ++i) {
        auto& c = scene.components[i];
        std::size_t n;
        if (i + 1 == k) {
            n = total - assigned;
        } else {
            n = static_cast<std::size_t>(std::llround(static_cast<double>(c.n) * static_cast<double>(total) / old_total));
            n = std::max<std::size_t>(1, std::min(n, total - assigned - (k - 1 - i)));
        }
        c.n = n;
        assigned += n;
    }
}

namespace {
std::vector<Body> generate(const ComponentSpec& c, double G, uint64_t seed) {
    switch (c.type) {
        case ComponentType::Plummer:
            return make_plummer({c.n, c.mass, c.scale, c.mass_cut, G}, seed);
        case ComponentType::UniformSphere:
            return make_uniform_sphere({c.n, c.mass, c.scale, c.virial_ratio, G}, seed);
    }
    return {};
}
}  // namespace

State build_scene(const SceneSpec& scene) {
    State s;
    s.resize(scene.total_bodies());
    std::size_t at = 0;
    for (std::size_t ci = 0; ci < scene.components.size(); ++ci) {
        const ComponentSpec& c = scene.components[ci];
        // splitmix-style spread of (seed, component) so neighbouring seeds give unrelated streams
        const uint64_t seed = (scene.seed + 0x9E3779B97F4A7C15ull * (ci + 1)) ^ (scene.seed >> 31);
        for (const Body& b : generate(c, scene.G, seed)) {
            const Double3 x = b.x + c.position, v = b.v + c.velocity;
            s.pos_mass[at] = {float(x.x), float(x.y), float(x.z), float(b.m)};
            s.vel[at] = {float(v.x), float(v.y), float(v.z), 0.f};
            s.group[at] = c.group;
            ++at;
        }
    }
    return s;
}

}  // namespace nbody
