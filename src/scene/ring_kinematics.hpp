#pragma once
// The Cartwheel's ring from first principles, to check the N-body run against something other than itself.
//   1. The target's rotation curve v_c(R) and epicyclic frequency kappa(R), measured from the generated
//   bodies
//      (the softened pull in the disk plane, averaged over azimuth) and from the analytic halo + disk model
//      the generator uses (disk_galaxy_vc2).
//   2. The kinematic ring (Lynds & Toomre 1976; Struck-Marcell & Lotan 1990): a cold, non-self-gravitating
//      disk of test rings on circular orbits in that rotation curve, each keeping its angular momentum while
//      the intruder, a Plummer sphere on the spin axis at the height z(t) the N-body run measured, pulls it
//      inward as it passes. Each ring's radius R(R0, t) then follows from one radial equation,
//          d2R/dt2 = L^2 / R^3 - v_c^2(R) / R - G M_i R / (R^2 + z(t)^2 + a_i^2)^(3/2),   L = R0 v_c(R0),
//      and the ring is where neighbouring orbits crowd (dR/dR0 small; orbits cross later, at the caustic).
//      Its state, laid out as bodies, is measured with the same RingTracker as the N-body disk, so the two
//      radii compare like for like.
#include <cstddef>
#include <span>
#include <vector>

#include "core/physics/state.hpp"
#include "scene/disk_galaxy.hpp"

namespace nbody {

// v_c^2 on a grid of radii, with kappa^2 = R dOmega^2/dR + 4 Omega^2 from central differences.
struct RotationCurve {
    std::vector<double> R, vc2, kappa2;
    double vc2_at(
        double r) const;  // linear between grid points; solid-body inside the first, flat beyond the last
};

// Radii lo, lo + step, ..., up to hi.
std::vector<double> radius_grid(double lo, double hi, double step);

// The analytic curve the generator sets the disk rotating with.
RotationCurve model_rotation(const DiskGalaxyParams& p, const std::vector<double>& radii);

// The softened radial pull -g_R of the bodies `idx` at `azimuths` points on each circle of radius R in the
// plane z = c.z around c (spin axis +z), averaged: v_c^2 = R <-g_R>. Float64 direct sums.
RotationCurve measured_rotation(const State& s, std::span<const std::size_t> idx, Double3 c,
                                const std::vector<double>& radii, double eps, double G, int azimuths = 32);

// What the disk bodies themselves do in annuli around c: mean rotation speed and radial dispersion.
struct DiskKinematics {
    std::vector<double> R, vphi_mean, sigma_R;
    std::vector<std::size_t> count;
};
DiskKinematics measured_disk_kinematics(const State& s, std::span<const std::size_t> idx, Double3 c,
                                        double r_max, int bins);

// The intruder's height above the target's disk plane against time (from the N-body run), and its mass model.
struct IntruderPassage {
    std::vector<double> t, z;  // ascending t
    double mass = 0.25, scale = 0.1, G = 1.0;
    double z_at(double time) const;  // linear; held at the ends
};

// The passage from first principles: the intruder falls from height z0 at speed v0 (towards the plane) along
// the spin axis through the target, pulled by the target's enclosed mass taken as spherical, G M(r) / r^2 =
// v_c^2(r) / r, times (1 + M_i / M_t) for the target's own recoil; leap-frog steps of dt up to t_end.
IntruderPassage computed_passage(const RotationCurve& target, double target_mass, double intruder_mass,
                                 double intruder_scale, double z0, double v0, double t_end, double G = 1.0);

// The cold test-ring disk of item 2 above.
class KinematicDisk {
  public:
    // `rings` radii at equal-mass quantiles of the truncated exponential disk, each drawn as `azimuths`
    // bodies.
    KinematicDisk(const RotationCurve& target, const DiskSpec& disk, double disk_mass,
                  IntruderPassage passage, int rings = 3000, int azimuths = 24);
    // Integrates every ring to time t (RK4, steps of at most dt).
    void advance_to(double t, double dt = 1.0 / 1024);
    double time() const { return m_t; }
    // The rings as a State: group 0, in the plane z = 0, equal masses summing to the disk mass.
    State state() const;

  private:
    double accel(std::size_t i, double R, double t) const;

    const RotationCurve m_curve;
    IntruderPassage m_path;
    std::vector<double> m_R0, m_L2, m_R, m_vR;
    double m_mass_per_body = 0, m_t = 0;
    int m_azimuths;
};

// Linear epicyclic theory: a star kicked at the passage oscillates as R = R0 + X sin(kappa(R0) tau); the ring
// sits at a fixed epicyclic phase kappa(R) tau = const, so it moves out at dR/dt = -kappa / (tau dkappa/dR)
// (tau = time since the passage): not at a constant speed, but slowing as kappa flattens outward.
double epicyclic_ring_speed(const RotationCurve& c, double R, double since_passage);

}  // namespace nbody
