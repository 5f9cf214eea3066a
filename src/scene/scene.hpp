#pragma once
// A scene: global parameters plus a list of components, each made by a generator and then oriented,
// placed, moved and coloured; orbit helpers place components from intent (a choreography, an intruder)
// instead of hand-computed velocities. Scene files (scenes/*.toml, docs/scenes.md) parse into this;
// build_scene turns it into a State.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/float4.hpp"
#include "core/physics/physical_units.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"
#include "scene/component_look.hpp"

namespace nbody {

enum class ComponentType { Plummer, UniformSphere, DiskGalaxy, PointMass, Tipsy, Spheroid };
enum class HaloProfile { Plummer, Hernquist };

// The exponential disk of a disk_galaxy (Freeman 1970 rotation curve plus the halo's; PHYSICS.md recipe).
struct DiskSpec {
    double mass_fraction = 0.25;  // disk mass / galaxy mass, in (0, 1)
    double body_fraction = 0.6;   // disk bodies / galaxy bodies, in (0, 1)
    double scale_length = 0.25;   // h (length units)
    double cutoff = 1.25;         // largest cylindrical radius R (length units), > 0
    double scale_height = 0.02;   // z0 of the sech^2(z / z0) profile (length units)
    double toomre_q = 1.5;        // Q = sigma_R kappa / (3.36 G Sigma)
    uint32_t group = 0;
    ComponentLook look{ComponentKind::Disk, {}};
};

// The spheroid (bulge/halo) of a disk_galaxy; its velocities solve the isotropic Jeans equation in the
// potential of halo and disk together (Hernquist 1993), so the halo is in equilibrium with its disk.
struct HaloSpec {
    HaloProfile profile = HaloProfile::Plummer;
    double scale = 0.5;      // Plummer radius a or Hernquist scale a (length units)
    double mass_cut = 0.99;  // enclosed-mass fraction sampled: truncates the halo
    uint32_t group = 0;
    ComponentLook look{ComponentKind::Halo, {}};
};

// The central bulge of a disk_galaxy (optional: mass_fraction 0 is none): a Hernquist sphere whose velocities,
// like the halo's, solve the isotropic Jeans equation in the potential of halo, disk and bulge together.
struct BulgeSpec {
    double mass_fraction = 0;   // of the galaxy's mass; 0: no bulge, else 0.001 to 0.5
    double body_fraction = 0;   // of the galaxy's bodies, 0.001 to 0.5 (with the disk's, at most 0.99)
    double scale = 0.1;         // Hernquist scale a (length units): half the mass within (1 + sqrt 2) a
    double mass_cut = 0.95;     // enclosed-mass fraction sampled: truncates the bulge
    uint32_t group = 0;
    ComponentLook look{ComponentKind::Bulge, {}};
    bool present() const { return mass_fraction > 0; }
};

struct ComponentSpec {
    ComponentType type = ComponentType::Plummer;
    std::string name;  // optional label, for orbit helpers and messages
    std::size_t n = 0;
    double mass = 1.0;
    Double3 position, velocity;  // where the component's centre of mass starts, and how it moves
    Double3 axis{0, 0, 1};    // orientation: the generator's z axis (a disk's spin axis) is turned onto this
    double scale = 1.0;       // plummer: Plummer radius a; uniform_sphere: radius
    double mass_cut = 0.999;  // plummer: enclosed-mass fraction sampled (truncation)
    bool virialize = false;   // plummer: rescale speeds to the softened virial equilibrium after truncation
    double virial_ratio = 0.0;     // uniform_sphere: 2T/|W| of the random velocities
    uint32_t group = 0;            // colour group (defaults to the component's index)
    ComponentLook look;            // what it is and its colour (a disk_galaxy's parts have their own)
    DiskSpec disk;                 // disk_galaxy only
    HaloSpec halo;                 // disk_galaxy; spheroid: its profile, scale and mass_cut
    double black_hole = 0;         // spheroid: the central black hole's fraction of the mass (0: none)
    BulgeSpec bulge;               // disk_galaxy only
    std::string file;              // tipsy: the snapshot to read (its body count is fixed)
    bool placed_by_orbit = false;  // position and velocity come from an orbit helper
};

enum class OrbitType { Figure8, Figure8Four, HeadOn, Parabolic };

// An orbit helper: sets the position and velocity of the components it names, at build time (so --G and
// the masses are honoured). Equations and sources in orbits.hpp.
struct OrbitSpec {
    OrbitType type = OrbitType::Figure8;
    std::vector<std::size_t> members;  // component indices, in the order the orbit needs them
    Double3 position, velocity;        // figure8 / parabolic: centre of mass and its velocity
    Double3 axis{0, 0, 1};             // figure8 / parabolic: normal of the orbital plane
    double scale = 1.0;                // figure8: lambda, positions times lambda
    double distance = 3.0;             // head_on: start distance from the target; parabolic: start separation
    double speed = 1.0;                // head_on: start speed towards the target
    double tilt_deg = 0.0;             // head_on: angle between the path and the target's spin axis
    double offset = 0.0;               // head_on: miss distance (impact parameter)
    double pericentre = 1.0;           // parabolic: closest approach of the point-mass orbit
};

// A suggested view for the renderer (it may ignore it): orbit camera around `target`.
struct CameraSpec {
    double distance = 5.0;  // length units from the target
    // Or a box to keep whole: width across and height up the picture at the target (length units; 0: none,
    // `distance` holds). The view fits the box into the window, or into the area beside its panels.
    double frame_width = 0, frame_height = 0;
    Double3 target;
    double yaw_deg = 0.0;     // about the z axis, from +x
    double pitch_deg = 30.0;  // above the x-y plane, -89 to 89
    // Fading trails of this many samples a body from the start (2 to 4096; 0: the viewer's own setting), for
    // scenes whose lesson is a path (the figure-eights: the trails draw the eight and show where it breaks).
    int trails = 0;
};

struct SceneSpec {
    std::string name;
    std::string description;
    std::string watch;   // two or three plain sentences: what to watch for and when (the window's scene card)
    std::string source;  // file the scene came from, for messages
    double dt = 0.01;
    // dt = "auto", or no dt in the file: the shared step is chosen from the bodies' accelerations at the start
    // (core/session/auto_step.hpp) once a backend holds them; dt keeps 0.01 until then. Never with block steps.
    bool dt_auto = false;
    double eps = 0.01;
    double G = 1.0;
    uint64_t seed = 1;
    int steps_per_frame = 1;
    // Optional: the force method, precision and integrator the scene is meant to run with (else the program's
    // defaults), and the method's and integrator's own parameters it sets, by their names in the parameter
    // registry (core/rows/param_registry.hpp: eta, theta, alpha, leaf, group), in the file's order.
    std::optional<ForceMethod> method;
    std::optional<Precision> precision;
    std::optional<Integrator> integrator;
    std::vector<std::pair<std::string, double>> method_params;
    bool zero_momentum = false;  // remove the whole system's centre-of-mass velocity after building
    std::optional<CameraSpec> camera;
    PhysicalUnits units;  // [units]: what the N-body units are in the world (none declared: zeros)
    std::vector<ComponentSpec> components;
    std::vector<OrbitSpec> orbits;

    std::size_t total_bodies() const;
    // SimParams with dt, eps, G, steps per frame and (where given) precision, integrator and eta from the
    // scene.
    SimParams apply_to(SimParams p) const;
    // What a scene loaded into a running window runs with: its own physics, every field the file sets or
    // leaves to the program's defaults (dt, eps, G, steps a frame, method and its parameters, precision,
    // integrator, eta), over the running window's choice of machine (backend, kernel variant and shape, GPUs, CPU
    // threads), which the user made and which is not the scene's to change. A kernel the scene's precision
    // cannot run goes back to the backend's own choice.
    SimParams with_own_physics(const SimParams& running) const;
};

// A single Plummer sphere of n bodies in Henon units (G = M = 1, a = 3 pi / 16, E = -1/4): the standard
// test and benchmark cluster.
SceneSpec henon_plummer_scene(std::size_t n, uint64_t seed);

// Scales every component's N in proportion so they add up to `total` (each keeps at least one body; a
// point_mass always has exactly one, a tipsy component its file's count). Throws ParamError when total is too
// small for that.
void rescale_bodies(SceneSpec& scene, std::size_t total);

class BuildControl;  // scene/build_control.hpp

// Generates the bodies; deterministic for a given spec (each component's stream is seeded from the scene
// seed and the component index, so changing one component does not reshuffle the others). Bounded in time
// for any spec: a parameter outside its range (core/limits.hpp) is a ParamError naming the component and
// the parameter. With a control it reports progress and throws BuildCancelled soon after control->cancel().
State build_scene(const SceneSpec& scene, BuildControl* control = nullptr);

}  // namespace nbody
