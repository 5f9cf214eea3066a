#pragma once
// The guides the picture draws for orbit helpers whose members share one path: a choreography (figure8,
// figure8_4) starts every member on one closed curve, which point masses would trace once a period. Drawn
// faintly over the bodies, the curve shows a class where the galaxies are meant to go and the moment they
// leave it (galaxies are not point masses: their tides and the orbit's instability break the pattern).
#include <span>
#include <string>
#include <vector>

#include "core/float4.hpp"
#include "scene/orbits.hpp"
#include "scene/scene.hpp"

namespace nbody {

struct OrbitGuide {
    std::string label;            // the legend's words: "the four-body eight"
    std::vector<Double3> points;  // world positions at t = 0 (length units), closed: the last is the first
    Double3 velocity;             // the curve moves with its centre of mass (length / time)
    double period = 0;            // of the point-mass orbit (time units)
    // Where each member starts along `points`, as a fraction of the period: 0 for member 0, the others at
    // multiples of 1 / members (a choreography's bodies follow one another a fixed time apart).
    std::vector<double> phases;
};

// Where point masses would be at time t (time units from the start) on the guide: the member that started at
// `phase`, between the two nearest samples, moved with the guide's velocity. This is what the galaxies would
// follow if they were point masses: the picture marks it, so a class sees how far they have left it.
Double3 guide_position(const OrbitGuide& g, double phase, double t);

// Samples on a guide: enough that the curve reads smooth at 1920 pixels across (segments of about 4 px).
inline constexpr int kGuideSamples = 512;

// One period of member 0 of the unscaled choreography `ic` (G = m = 1, eps = 0), `samples` + 1 points from
// the start back to it (the last point set to the first). Integrated with kick-drift-kick in float64 at 64
// steps a sample: the four-body eight closes within about 1e-5 of its size (KDK's error 6.9e-3 at 1,024 steps
// a period, second order).
std::vector<Double3> choreography_path(std::span<const PointOrbitState> ic, double period, int samples);

// The guides of the scene's choreography orbits (none for head_on and parabolic), scaled, turned and placed
// as apply_orbits places the members; with zero_momentum the curve moves as the whole system's shift leaves
// it.
std::vector<OrbitGuide> orbit_guides(const SceneSpec& scene, int samples = kGuideSamples);

}  // namespace nbody
