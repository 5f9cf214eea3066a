#pragma once
// A scene: global parameters plus a list of components, each made by a generator and then placed, moved
// and coloured. Scene files (scenes/*.toml) parse into this; build_scene turns it into a State.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/float4.hpp"
#include "core/sim_params.hpp"
#include "core/state.hpp"

namespace nbody {

enum class ComponentType { Plummer, UniformSphere };

struct ComponentSpec {
    ComponentType type = ComponentType::Plummer;
    std::size_t n = 0;
    double mass = 1.0;
    Double3 position, velocity;  // where the component's centre of mass starts, and how it moves
    double scale = 1.0;          // plummer: Plummer radius a; uniform_sphere: radius
    double mass_cut = 0.999;     // plummer: enclosed-mass fraction sampled (truncation)
    double virial_ratio = 0.0;   // uniform_sphere: 2T/|W| of the random velocities
    uint32_t group = 0;          // colour group (defaults to the component's index)
};

struct SceneSpec {
    std::string name;
    std::string description;
    std::string source;  // file the scene came from, for messages
    double dt = 0.01;
    double eps = 0.01;
    double G = 1.0;
    uint64_t seed = 1;
    int steps_per_frame = 1;
    std::vector<ComponentSpec> components;

    std::size_t total_bodies() const;
    // SimParams with dt, eps, G and steps per frame taken from the scene.
    SimParams apply_to(SimParams p) const;
};

// A single Plummer sphere of n bodies in Henon units (G = M = 1, a = 3 pi / 16, E = -1/4): the standard
// test and benchmark cluster.
SceneSpec henon_plummer_scene(std::size_t n, uint64_t seed);

// Scales every component's N in proportion so they add up to `total` (each keeps at least one body).
// Throws ParamError when total is smaller than the number of components.
void rescale_bodies(SceneSpec& scene, std::size_t total);

// Generates the bodies; deterministic for a given spec (each component's stream is seeded from the scene
// seed and the component index, so changing one component does not reshuffle the others).
State build_scene(const SceneSpec& scene);

}  // namespace nbody
