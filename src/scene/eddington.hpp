#pragma once
// The isotropic distribution function of a spherical density in a spherical potential, by Eddington's formula
// (Binney & Tremaine 2008, eq. 4.46):
//     f(E) = 1 / (sqrt(8) pi^2) d/dE int_0^E (drho/dPsi) dPsi / sqrt(E - Psi),
// with Psi the relative potential (zero where the density ends) and E = Psi - v^2 / 2 the relative energy. The
// galaxy generator draws a bulge's speeds from it: a cusp's speeds in the whole galaxy's (softened) potential,
// where the Jeans-scaled distribution function of the isolated model comes out hot (docs/scenes.md).
#include <optional>
#include <vector>

#include "scene/rng.hpp"

namespace nbody {

class EddingtonDF {
  public:
    // psi and rho at the same radii, in order from the centre out: psi > 0 and decreasing (the last may be 0), rho
    // >= 0. At least 8 of them. f is known up to a constant factor, enough to draw speeds. A density that falls
    // faster than the potential's depth allows gives a negative f somewhere: it is taken as 0 there.
    EddingtonDF(const std::vector<double>& psi, const std::vector<double>& rho);

    double f(double e) const;  // 0 for e <= 0 or beyond the centre's depth

    // q = v / sqrt(2 psi) at relative potential psi, from q^2 f(psi (1 - q^2)) by rejection under 1.1 times its
    // scanned maximum (at most kMaxDraws tries); nullopt where f vanishes for every q (the density's edge).
    std::optional<double> draw_speed_fraction(double psi, Rng& rng) const;

  private:
    std::vector<double> m_e, m_f;  // relative energies, increasing, and f there
};

}  // namespace nbody
