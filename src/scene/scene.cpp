#include "scene/scene.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/rows/param_registry.hpp"
#include "io/tipsy.hpp"
#include "scene/build_control.hpp"
#include "scene/disk_galaxy.hpp"
#include "scene/generators.hpp"
#include "scene/orbits.hpp"

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
    if (method) p.method = *method;
    if (precision) p.precision = *precision;
    if (integrator) p.integrator = *integrator;
    for (const auto& [key, value] : method_params)
        if (const ParamSpec* spec = find_param(key)) spec->set(p, value);  // the reader took registry names only
    return p;
}

SimParams SceneSpec::with_own_physics(const SimParams& running) const {
    SimParams p = apply_to({});
    p.backend = running.backend;
    p.gpus = running.gpus;
    p.cpu_threads = running.cpu_threads;
    p.kernel_auto = running.kernel_auto;
    p.variant = running.variant;
    p.shape = running.shape;
    try {
        validate_variant_precision(p.variant, p.precision);
    } catch (const ParamError&) {
        const SimParams defaults;
        p.kernel_auto = true, p.variant = defaults.variant, p.shape = defaults.shape;
    }
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
    // Point masses are one body each whatever the total; the rest share what is left in proportion.
    std::vector<ComponentSpec*> scaled;
    std::size_t fixed = 0;
    for (auto& c : scene.components) {
        if (c.type == ComponentType::PointMass || c.type == ComponentType::Tipsy)
            fixed += c.n;
        else
            scaled.push_back(&c);
    }
    const std::size_t k = scaled.size();
    if (k == 0) return;
    if (total < k + fixed)
        throw ParamError("bodies", "must be at least " + std::to_string(k + fixed) +
                                       " (one per scene component), got " + std::to_string(total));
    const std::size_t share = total - fixed;
    double old_total = 0;
    for (const auto* c : scaled) old_total += static_cast<double>(c->n);
    std::size_t assigned = 0;
    for (std::size_t i = 0; i < k; ++i) {
        std::size_t n;
        if (i + 1 == k) {
            n = share - assigned;
        } else {
            n = static_cast<std::size_t>(
                std::llround(static_cast<double>(scaled[i]->n) * double(share) / old_total));
            n = std::max<std::size_t>(1, std::min(n, share - assigned - (k - 1 - i)));
        }
        scaled[i]->n = n;
        assigned += n;
    }
}

namespace {
// A tipsy file's bodies, centred and at rest like every generator's, masses scaled to the component's mass.
std::vector<Body> read_tipsy_bodies(const ComponentSpec& c) {
    const State s = read_tipsy(c.file);
    if (s.size() != c.n)
        throw Error(c.file + ": has " + std::to_string(s.size()) + " bodies now, " + std::to_string(c.n) +
                    " when the scene was read");
    std::vector<Body> out(s.size());
    double m = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Double4 p = s.pos_mass[i], v = s.vel[i];
        out[i] = {{p.x, p.y, p.z}, {v.x, v.y, v.z}, p.w};
        m += p.w;
    }
    if (!(m > 0))
        throw Error(c.file + ": the bodies have no mass, so they cannot be scaled to the component's");
    for (Body& b : out) b.m *= c.mass / m;
    remove_center_of_mass(out);
    // float32 tipsy values are finite, but the scene's limits hold for a file's bodies too
    for (const Body& b : out)
        if (!(std::abs(b.x.x) <= limits::kMaxPosition && std::abs(b.x.y) <= limits::kMaxPosition &&
              std::abs(b.x.z) <= limits::kMaxPosition && std::abs(b.v.x) <= limits::kMaxSpeed &&
              std::abs(b.v.y) <= limits::kMaxSpeed && std::abs(b.v.z) <= limits::kMaxSpeed))
            throw Error(c.file +
                        ": a body lies more than 1e6 length units from the centre or moves faster than "
                        "1e6 velocity units");
    return out;
}

// "component[1] ('second')" for messages.
std::string component_label(const SceneSpec& scene, std::size_t ci) {
    const std::string& name = scene.components[ci].name;
    return "component[" + std::to_string(ci) + "]" + (name.empty() ? "" : " ('" + name + "')");
}

// A generator that returns a non-finite coordinate has met parameters the checks did not foresee; the
// scene is refused here rather than run as NaNs.
void require_finite(const std::vector<Body>& bodies) {
    for (const Body& b : bodies)
        if (!std::isfinite(b.m + b.x.x + b.x.y + b.x.z + b.v.x + b.v.y + b.v.z))
            throw Error(
                "the generator produced a non-finite position, velocity or mass from these parameters");
}

std::vector<Body> generate(const ComponentSpec& c, const SceneSpec& scene, uint64_t seed,
                           BuildControl* control) {
    switch (c.type) {
        case ComponentType::Plummer: {
            // A truncated model is too hot for what is left of it: rescale all speeds to the softened virial
            // equilibrium 2T = -V (generators.hpp). Measured at a = 0.25, X1 <= 0.7, eps = 0.1: radii stay
            // within 8% over 3 time units; scaling the speeds radius by radius by the Jeans dispersion (as
            // the disk galaxy's halo does) made the core breathe by 18% instead.
            auto b = make_plummer({c.n, c.mass, c.scale, c.mass_cut, scene.G}, seed, control);
            if (c.virialize) virialize(b, scene.eps, scene.G, control);
            return b;
        }
        case ComponentType::UniformSphere:
            return make_uniform_sphere({c.n, c.mass, c.scale, c.virial_ratio, scene.G}, seed, control);
        case ComponentType::DiskGalaxy:
            return make_disk_galaxy({c.n, c.mass, c.disk, c.halo, scene.eps, scene.G, c.bulge}, seed, control);
        case ComponentType::PointMass:
            require_mass(c.mass);
            return std::vector<Body>(c.n, Body{{}, {}, c.mass / double(std::max<std::size_t>(1, c.n))});
        case ComponentType::Tipsy:
            return read_tipsy_bodies(c);
        case ComponentType::Spheroid:
            return make_spheroid({c.n, c.mass, c.halo, c.black_hole, scene.eps, scene.G}, seed, control);
    }
    return {};
}

// The colour group of body i of a component: a disk galaxy colours its halo and disk separately.
// Body i of component c (a disk galaxy: halo, disk, then bulge bodies, as the generator makes them).
uint32_t group_of(const ComponentSpec& c, std::size_t i, const DiskGalaxyCounts& parts) {
    if (c.type != ComponentType::DiskGalaxy) return c.group;
    return i < parts.halo ? c.halo.group : i < parts.halo + parts.disk ? c.disk.group : c.bulge.group;
}

void remove_net_velocity(State& s) {
    double m = 0, px = 0, py = 0, pz = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double w = s.pos_mass[i].w;
        m += w, px += w * s.vel[i].x, py += w * s.vel[i].y, pz += w * s.vel[i].z;
    }
    if (m <= 0) return;
    for (auto& v : s.vel) v = {v.x - px / m, v.y - py / m, v.z - pz / m, 0.0};
}
}  // namespace

State build_scene(const SceneSpec& scene, BuildControl* control) {
    std::vector<ComponentSpec> components = scene.components;
    apply_orbits(components, scene.orbits, scene.G);
    State s;
    s.resize(scene.total_bodies());
    if (control) control->begin(scene.total_bodies());
    std::size_t at = 0;
    for (std::size_t ci = 0; ci < components.size(); ++ci) {
        const ComponentSpec& c = components[ci];
        // splitmix-style spread of (seed, component) so neighbouring seeds give unrelated streams
        const uint64_t seed = (scene.seed + 0x9E3779B97F4A7C15ull * (ci + 1)) ^ (scene.seed >> 31);
        const Rotation turn = Rotation::z_onto(c.axis);
        const DiskGalaxyCounts parts = c.type == ComponentType::DiskGalaxy
                                           ? disk_galaxy_counts(c.n, c.disk, c.bulge)
                                           : DiskGalaxyCounts{};
        std::vector<Body> bodies;
        try {
            bodies = generate(c, scene, seed, control);
            require_finite(bodies);
        } catch (const BuildCancelled&) {
            throw;
        } catch (const ParamError& e) {  // the generator names its parameter; say which component it was
            throw ParamError(component_label(scene, ci) + "." + e.field,
                             std::string(e.what()).substr(e.field.size() + 2));
        } catch (const Error& e) {
            throw Error(component_label(scene, ci) + ": " + e.what());
        }
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const Double3 x = turn(bodies[i].x) + c.position, v = turn(bodies[i].v) + c.velocity;
            s.pos_mass[at] = {x.x, x.y, x.z, bodies[i].m};
            s.vel[at] = {v.x, v.y, v.z, 0.0};
            s.group[at] = group_of(c, i, parts);
            ++at;
        }
    }
    if (scene.zero_momentum) remove_net_velocity(s);
    if (control) control->finish();
    return s;
}

}  // namespace nbody
