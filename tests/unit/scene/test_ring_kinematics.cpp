// The Cartwheel against first principles rather than against itself (docs/scenes.md, "Cartwheel ring"):
// the generated target rotates as its analytic halo + disk model says, linear epicyclic theory and the
// kinematic test-ring disk agree on a ring that slows as it moves out, and the N-body ring follows the
// kinematic one.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu/cpu_backend.hpp"
#include "scene/analysis.hpp"
#include "scene/ring_kinematics.hpp"
#include "scene/scene_checks.hpp"
#include "scene/scene_file.hpp"

using namespace nbody;

namespace {

SceneSpec cartwheel(std::size_t n) {
    SceneSpec s = load_scene_file(NBODY_SOURCE_DIR "/scenes/cartwheel.toml");
    rescale_bodies(s, n);
    return s;
}

DiskGalaxyParams target_params(const SceneSpec& s) {
    const ComponentSpec& c = s.components.at(0);
    return {c.n, c.mass, c.disk, c.halo, s.eps, s.G, c.bulge};
}

// When the passage crosses z = 0, linearly interpolated.
double crossing_time(const IntruderPassage& p) {
    for (std::size_t i = 1; i < p.t.size(); ++i)
        if (p.z[i] <= 0 && p.z[i - 1] > 0)
            return p.t[i - 1] + p.z[i - 1] / (p.z[i - 1] - p.z[i]) * (p.t[i] - p.t[i - 1]);
    return -1;
}

}  // namespace

// Measured from the bodies (softened pull in the plane, 32 azimuths, N = 15,000 target bodies as shipped)
// against the generator's analytic curve: within 4% in v_c and 12% in kappa for 0.3 <= R <= 1.2 (full N,
// docs/scenes.md: within 1% and 3%). Inside R ~ 0.25 the thick, softened disk pulls less than Freeman's
// razor-thin formula; that region is excluded.
TEST(RingKinematics, GeneratedTargetRotatesAsItsModelSays) {
    SceneSpec s = cartwheel(18000);
    const State st = build_scene(s);
    std::vector<std::size_t> target = bodies_in_group(st, 0), halo = bodies_in_group(st, 1);
    const Double3 c = density_center(st, target);
    target.insert(target.end(), halo.begin(), halo.end());
    const auto radii = radius_grid(0.3, 1.2, 0.1);
    const RotationCurve meas = measured_rotation(st, target, c, radii, s.eps, s.G);
    const RotationCurve model = model_rotation(target_params(s), radii);
    for (std::size_t i = 0; i < radii.size(); ++i) {
        EXPECT_NEAR(std::sqrt(meas.vc2[i] / model.vc2[i]), 1.0, 0.04) << "R = " << radii[i];
        EXPECT_NEAR(std::sqrt(meas.kappa2[i] / model.kappa2[i]), 1.0, 0.12) << "R = " << radii[i];
    }
}

// The passage computed from the model alone (no N-body run): the intruder, dropped from z = 3 at 1.5 as the
// scene does, crosses the plane at t = 1.65 +- 0.1 (the full-N run: 1.648 at 2.95).
// Linear theory: the ring sits at a fixed epicyclic phase kappa(R) tau, so it slows as kappa flattens
// outward. The kinematic disk (non-linear, no self-gravity) must show exactly that: between t = 3 and 4.5 its
// ring moves out by more than 0.25, the phase at the ring stays within 15%, and the ring's speed in the
// second half is below that in the first.
TEST(RingKinematics, KinematicRingKeepsItsEpicyclicPhaseAndSlows) {
    const SceneSpec s = cartwheel(18000);
    const DiskGalaxyParams g = target_params(s);
    const RotationCurve curve = model_rotation(g, radius_grid(0.01, 4.0, 0.01));
    const ComponentSpec& intruder = s.components.at(1);
    const IntruderPassage passage =
        computed_passage(curve, g.mass, intruder.mass, intruder.scale, 3.0, 1.5, 6.0);
    const double t_cross = crossing_time(passage);
    RecordProperty("crossing_time", std::to_string(t_cross));
    EXPECT_NEAR(t_cross, 1.65, 0.1);
    KinematicDisk disk(curve, g.disk, g.mass * g.disk.mass_fraction, passage, 2000, 16);
    const RingTracker ring(disk.state(), 0, {0, 0, 1}, 1.5, 30, 0.3);
    double r[3], phase[3];
    const double times[3] = {3.0, 3.75, 4.5};
    for (int k = 0; k < 3; ++k) {
        disk.advance_to(times[k]);
        r[k] = ring.measure(disk.state()).radius;
        RotationCurve kappa{curve.R, curve.kappa2, {}};
        phase[k] = std::sqrt(kappa.vc2_at(r[k])) * (times[k] - t_cross);
    }
    RecordProperty("ring_radii",
                   std::to_string(r[0]) + " " + std::to_string(r[1]) + " " + std::to_string(r[2]));
    EXPECT_GT(r[2], r[0] + 0.25);
    EXPECT_LT(r[2] - r[1], r[1] - r[0] + 0.051);  // one annulus of slack
    EXPECT_NEAR(phase[2] / phase[0], 1.0, 0.15);
    // Linear theory's speed at the ring falls between the two times too.
    EXPECT_LT(epicyclic_ring_speed(curve, r[2], 4.5 - t_cross),
              epicyclic_ring_speed(curve, r[0], 3.0 - t_cross));
}

// The N-body ring (self-gravitating disk, live halo, N = 6,000) against the kinematic ring in the passage the
// N-body intruder really made: the excess-mass radius of the N-body disk within 0.15 of the kinematic ring's
// peak at t = 3.5 and 4.0 (full N: 0.85 vs 0.83 and 1.00 vs 0.98).
TEST(RingKinematics, NBodyRingFollowsTheKinematicRing) {
    const SceneSpec s = cartwheel(6000);
    const SimParams p = s.apply_to({});
    State st = build_scene(s);
    const RingTracker ring(st, 0, {0, 0, 1}, 1.5, 15, 0.3);
    CpuBackend b;
    b.reset(st, p);
    IntruderPassage path{{}, {}, s.components.at(1).mass, s.components.at(1).scale, s.G};
    std::vector<RingSample> nbody;
    while (b.time() < 4.0 - 1e-9) {
        b.step(4);
        b.read_state(st);
        const Double3 cd = density_center(st, bodies_in_group(st, 0)),
                      ci = density_center(st, bodies_in_group(st, 2));
        path.t.push_back(st.time), path.z.push_back(ci.z - cd.z);
        if (std::fabs(st.time - 3.5) < 1e-6 || std::fabs(st.time - 4.0) < 1e-6)
            nbody.push_back(ring.measure(st));
    }
    ASSERT_EQ(nbody.size(), 2u);
    const DiskGalaxyParams g = target_params(s);
    KinematicDisk disk(model_rotation(g, radius_grid(0.01, 3.0, 0.01)), g.disk, g.mass * g.disk.mass_fraction,
                       path);
    const RingTracker kin_ring(disk.state(), 0, {0, 0, 1}, 1.5, 15, 0.3);
    for (const RingSample& n : nbody) {
        disk.advance_to(n.time);
        const RingSample k = kin_ring.measure(disk.state());
        std::string key =
            "t";  // appended, not "t" + ...: GCC 12 warns of an overlap in that operator+ (-Wrestrict)
        key += std::to_string(int(n.time * 10));
        RecordProperty(key, std::to_string(n.excess_radius) + " vs " + std::to_string(k.radius));
        EXPECT_NEAR(n.excess_radius, k.radius, 0.15) << "t = " << n.time;
    }
}
