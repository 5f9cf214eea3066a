#pragma once
// A disk galaxy: an exponential disk of stars in rotation around a spheroidal halo (or bulge), built to
// stay a disk in isolation. The recipe (PHYSICS.md, "Disk galaxies"; Hernquist 1993, ApJS 86, 389):
//   disk: R = -h ln(U1 U2) (Gamma(2), rejected beyond the cutoff), z = z0 atanh(2U - 1) (sech^2);
//         v_c^2 from the halo's enclosed mass plus Freeman's (1970) exponential-disk term, epicyclic
//         frequency kappa^2 = R dOmega^2/dR + 4 Omega^2, sigma_R = Q 3.36 G Sigma / kappa,
//         sigma_phi = sigma_R kappa / (2 Omega), sigma_z = sqrt(pi G Sigma z0), and the mean rotation from
//         the asymmetric drift <v_phi>^2 = v_c^2 + sigma_R^2 (1 - kappa^2 / (4 Omega^2) - 2 R / h);
//   halo: radii from the Plummer or Hernquist enclosed mass, truncated at mass_cut; isotropic speeds from
//         the profile's own distribution function, scaled by the ratio of the Jeans dispersion of the real
//         model (truncated, softened, with the disk taken as spherical) to that of the ideal one.
// The galaxy is generated with its spin axis along +z, centred and at rest (the scene builder turns it).
#include <cstdint>
#include <vector>

#include "scene/generators.hpp"
#include "scene/scene.hpp"

namespace nbody {

struct DiskGalaxyParams {
    std::size_t n = 10000;  // halo + disk bodies
    double mass = 1.0;      // halo + disk mass
    DiskSpec disk;
    HaloSpec halo;
    double eps = 0.01;  // the softening the galaxy will be run with (forces in the equilibrium are softened)
    double G = 1.0;
    BulgeSpec bulge;  // none unless bulge.mass_fraction > 0
};

// Bodies of each part: the result holds the halo's first, then the disk's, then the bulge's.
struct DiskGalaxyCounts {
    std::size_t halo = 0, disk = 0, bulge = 0;
};
DiskGalaxyCounts disk_galaxy_counts(std::size_t n, const DiskSpec& disk, const BulgeSpec& bulge = {});

// Throws ParamError naming the parameter outside its range (core/limits.hpp; disk.cutoff >=
// disk.scale_length).
std::vector<Body> make_disk_galaxy(const DiskGalaxyParams& p, uint64_t seed, BuildControl* control = nullptr);

// Largest radius a halo sample reaches: where the enclosed-mass fraction equals mass_cut.
double halo_radius(const HaloSpec& h);

// The circular speed squared in the disk plane that the generator sets the disk rotating with: the softened
// spherical halo (truncated) plus Freeman's thin exponential disk (untruncated, same central density).
double disk_galaxy_vc2(const DiskGalaxyParams& p, double R);

// A spheroid alone (a star cluster, an elliptical galaxy) of n bodies: stars of a Plummer or Hernquist profile
// (shape.scale, truncated at shape.mass_cut) and, for black_hole > 0, one more body of that fraction of the mass
// at the centre; the stars' speeds come from Eddington's distribution function in the softened potential of
// both (Binney & Tremaine 2008, eq. 4.46), so a cusp bound to the hole starts in equilibrium.
struct SpheroidParams {
    std::size_t n = 1024;  // stars plus the hole
    double mass = 1.0;     // stars plus the hole
    HaloSpec shape;        // profile, scale, mass_cut (group unused)
    double black_hole = 0; // the hole's fraction of the mass, 0 (none) to 0.5
    double eps = 0.01, G = 1.0;
};
// Throws ParamError naming the parameter outside its range.
std::vector<Body> make_spheroid(const SpheroidParams& p, uint64_t seed, BuildControl* control = nullptr);

}  // namespace nbody
