#include "scene/disk_galaxy.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "scene/bessel.hpp"
#include "scene/build_control.hpp"
#include "scene/eddington.hpp"
#include "scene/rng.hpp"

namespace nbody {

namespace {

constexpr double kPi = std::numbers::pi;

// Enclosed-mass fraction of the untruncated profile at radius r, its inverse, and the density shape
// (any normalisation: only ratios of it enter the Jeans equation).
double halo_fraction(const HaloSpec& h, double r) {
    const double a = h.scale;
    if (h.profile == HaloProfile::Plummer) return r * r * r / std::pow(r * r + a * a, 1.5);
    return r * r / ((r + a) * (r + a));
}

double halo_radius_at(const HaloSpec& h, double x) {
    if (h.profile == HaloProfile::Plummer) return h.scale / std::sqrt(std::pow(x, -2.0 / 3.0) - 1.0);
    const double s = std::sqrt(x);
    return h.scale * s / (1.0 - s);
}

double halo_density_shape(const HaloSpec& h, double r) {
    const double q = r / h.scale;
    if (h.profile == HaloProfile::Plummer) return std::pow(1.0 + q * q, -2.5);
    return 1.0 / (q * (1.0 + q) * (1.0 + q) * (1.0 + q));
}

// The bulge as a spheroid: Hernquist, its scale and truncation.
HaloSpec bulge_shape(const BulgeSpec& b) {
    return {HaloProfile::Hernquist, b.scale, b.mass_cut, b.group};
}

// Mass of a truncated spheroid of total `mass` inside radius r.
double spheroid_enclosed(const HaloSpec& h, double mass, double r) {
    return mass > 0 ? mass * std::min(halo_fraction(h, r), h.mass_cut) / h.mass_cut : 0.0;
}

// The pieces of the galaxy's mass model the velocities are drawn from.
struct MassModel {
    HaloSpec halo;
    DiskSpec disk;
    double halo_mass, disk_mass, eps, G;
    double disk_mass_untruncated;  // mass of the exponential disk with the same Sigma_0 but no cutoff
    HaloSpec bulge{};              // the bulge's shape (bulge_shape), when bulge_mass > 0
    double bulge_mass = 0;
    double black_hole = 0;  // a point mass at the centre (make_spheroid), softened as every body is

    double halo_enclosed(double r) const { return spheroid_enclosed(halo, halo_mass, r); }
    double bulge_enclosed(double r) const { return spheroid_enclosed(bulge, bulge_mass, r); }
    // Everything inside r, the disk taken as spherical: what the spheroids' Jeans equation feels.
    double enclosed(double r) const {
        return halo_enclosed(r) + disk_enclosed(r) + bulge_enclosed(r) + black_hole;
    }
    // Disk mass inside cylindrical radius R, used as if spherical for the halo's Jeans equation.
    double disk_enclosed(double r) const {
        const double x = r / disk.scale_length;
        return std::min(disk_mass, disk_mass_untruncated * (1.0 - (1.0 + x) * std::exp(-x)));
    }
    // Softened radial pull of an enclosed mass m at radius r: G m r / (r^2 + eps^2)^(3/2).
    double pull(double m, double r) const { return G * m * r / std::pow(r * r + eps * eps, 1.5); }

    double surface_density(double R) const {
        const double h = disk.scale_length;
        return disk_mass_untruncated / (2.0 * kPi * h * h) * std::exp(-R / h);
    }
    // Circular speed squared in the disk plane: softened spherical halo and bulge plus Freeman's thin
    // exponential disk.
    double vc2(double R) const {
        const double h = disk.scale_length, y = std::max(R, 1e-6 * h) / (2.0 * h);
        const double freeman = 2.0 * G * disk_mass_untruncated / h * y * y *
                               (bessel::cyl_i(0, y) * bessel::cyl_k(0, y) - bessel::cyl_i(1, y) * bessel::cyl_k(1, y));
        return R * pull(halo_enclosed(R) + bulge_enclosed(R) + black_hole, R) + freeman;
    }
};

// sigma^2(r) of a spheroid (the halo or the bulge, of the given shape), tabulated on a log grid out to its
// truncation radius: the isotropic Jeans equation sigma^2 rho = int_r^rmax rho(r') g(r') dr', with g the radial
// pull of the whole galaxy inside the grid (halo, disk and bulge) under the
// Plummer-softened force. Softening a spread-out mass weakens its pull much less than softening a point
// at the centre would (at r = a = 2.5 eps the point formula is 20% weak), so the potential is summed over
// spherical shells, each with its exact softened potential -2 G dm / (A + B),
// A = sqrt((r + s)^2 + eps^2), B = sqrt((r - s)^2 + eps^2) (-G dm / max(r, s) for eps = 0).
class HaloJeans {
  public:
    HaloJeans(const MassModel& m, const HaloSpec& shape) {
        const double rmax = halo_radius(shape), eps2 = m.eps * m.eps;
        m_lo = std::log(std::min(rmax * 1e-5, shape.scale * 1e-4));
        m_step = (std::log(rmax) - m_lo) / (kGrid - 1);
        // Validated scales give a grid from 1e-8 to 1e8; anything else would index m_sigma2 with a NaN.
        if (!std::isfinite(m_lo) || !(m_step > 0 && std::isfinite(m_step)))
            throw ParamError("halo.scale", "the halo's radius grid is degenerate (scale " +
                                               std::to_string(shape.scale) + ", truncation radius " +
                                               std::to_string(rmax) + ")");
        std::vector<double> r(kGrid), dm(kGrid), phi(kGrid, 0.0);
        double inside = 0;
        for (int i = 0; i < kGrid; ++i) {
            r[i] = std::exp(m_lo + m_step * i);
            const double enclosed = m.enclosed(r[i]);
            dm[i] = enclosed - inside;
            inside = enclosed;
        }
        const double mid = std::exp(-0.5 * m_step);  // shell j, between r[j-1] and r[j], sits at r[j] * mid
        for (int i = 0; i < kGrid; ++i)
            for (int j = 0; j < kGrid; ++j) {
                const double s = r[j] * mid;
                const double a = std::sqrt((r[i] + s) * (r[i] + s) + eps2);
                const double b = std::sqrt((r[i] - s) * (r[i] - s) + eps2);
                phi[i] -= 2.0 * m.G * dm[j] / (a + b);
            }
        std::vector<double> f(kGrid);  // rho g r: the integrand in ln r
        for (int i = 0; i < kGrid; ++i) {
            const int lo = std::max(i - 1, 0), hi = std::min(i + 1, kGrid - 1);
            const double g = (phi[hi] - phi[lo]) / (r[i] * m_step * (hi - lo));  // dPhi/dr
            f[i] = halo_density_shape(shape, r[i]) * g * r[i];
        }
        m_r = r;
        m_phi = phi;
        m_sigma2.assign(kGrid, 0.0);
        double integral = 0;  // trapezoid in ln r
        for (int i = kGrid - 2; i >= 0; --i) {
            integral += 0.5 * m_step * (f[i] + f[i + 1]);
            m_sigma2[i] = integral / halo_density_shape(shape, r[i]);
        }
    }
    double sigma2(double r) const { return at(m_sigma2, r); }
    // The galaxy's softened potential relative to its value at the grid's edge (the spheroid's truncation):
    // > 0 inside, what a spheroid's Eddington distribution function takes.
    double depth(double r) const { return std::max(0.0, m_phi.back() - at(m_phi, r)); }
    const std::vector<double>& radii() const { return m_r; }

  private:
    static constexpr int kGrid = 600;
    double at(const std::vector<double>& table, double r) const {
        const double u = std::clamp((std::log(std::max(r, 1e-300)) - m_lo) / m_step, 0.0, kGrid - 1.0);
        const int i = std::min(static_cast<int>(u), kGrid - 2);
        return table[i] + (u - i) * (table[i + 1] - table[i]);
    }
    double m_lo = 0, m_step = 1;
    std::vector<double> m_r, m_phi, m_sigma2;
};

// Speed in units of the local escape speed of the halo alone, from the isotropic distribution function
// of the untruncated profile: Plummer's g(q) = q^2 (1 - q^2)^3.5 (Aarseth, Henon & Wielen 1974), Hernquist's
// q^2 f(E) with f from Hernquist (1990, eq. 17). Rejection under 1.1 times the scanned maximum.
double halo_speed_fraction(const HaloSpec& h, double r, Rng& rng) {
    if (h.profile == HaloProfile::Plummer) return plummer_speed_fraction(rng);
    const double psi = 1.0 / (r / h.scale + 1.0);  // -Phi in units of G M / a
    auto density = [psi](double q) {               // q^2 f(psi (1 - q^2)), up to a constant
        const double e = psi * (1.0 - q * q), x = std::sqrt(e), one = std::max(1e-12, 1.0 - e);
        const double f =
            (3.0 * std::asin(x) + x * std::sqrt(one) * (1.0 - 2.0 * e) * (8.0 * e * e - 8.0 * e - 3.0)) /
            std::pow(one, 2.5);
        return q * q * f;
    };
    double top = 0;
    for (int i = 1; i < 64; ++i) top = std::max(top, density(i / 64.0));
    // The scan can miss a peak narrower than 1/64 (deep in the cusp); then everything under the peak above
    // the envelope is accepted, still at least the 1/64 of draws nearest q = 0.
    return draw_until(
        [&]() -> std::optional<double> {
            const double q = rng.uniform(), y = rng.uniform() * 1.1 * top;
            return y < density(q) ? std::optional(q) : std::nullopt;
        },
        "halo.scale", "the Hernquist speed distribution at r = " + std::to_string(r) + " is empty");
}

// The bulge's speeds: Eddington's distribution function of its density in the whole galaxy's softened potential
// (relative to the bulge's edge), tabulated on the Jeans grid.
EddingtonDF bulge_df(const HaloJeans& grid, const HaloSpec& shape) {
    const std::vector<double>& r = grid.radii();
    std::vector<double> psi(r.size()), rho(r.size());
    for (std::size_t i = 0; i < r.size(); ++i) psi[i] = grid.depth(r[i]), rho[i] = halo_density_shape(shape, r[i]);
    return EddingtonDF(psi, rho);
}

// A spheroid of the galaxy (the halo, or the bulge), of the given shape and mass. The bulge (eddington): speeds
// from bulge_df, where that has any at the body's radius (else as the halo's). The halo: its own distribution
// function gives its speeds as an untruncated, unsoftened model in isolation; speeds are then scaled by
// sqrt(sigma^2 of the real model / sigma^2 of that ideal one), both from the Jeans equation, so the spheroid
// also holds up against the rest of the galaxy's pull, has no pressure at its truncation radius (untruncated
// speeds there would make the outskirts expand) and feels softened forces. (A local Maxwellian with the Jeans
// sigma instead puts too many slow stars in the core, which then contracts by 15% in a few crossing times:
// Kazantzidis, Magorrian & Moore 2004.)
void sample_spheroid(const MassModel& m, const HaloSpec& shape, double mass, std::size_t count, Rng& rng,
                     std::vector<Body>& out, BuildControl* control, bool eddington = false) {
    MassModel ideal = m;  // the spheroid alone, untruncated, unsoftened
    ideal.disk_mass = ideal.disk_mass_untruncated = ideal.eps = ideal.bulge_mass = ideal.black_hole = 0;
    ideal.halo = shape;
    ideal.halo.mass_cut = 0.99999;
    ideal.halo_mass = mass / shape.mass_cut * ideal.halo.mass_cut;
    const HaloJeans real(m, shape), bare(ideal, ideal.halo);
    const std::optional<EddingtonDF> df = eddington ? std::optional(bulge_df(real, shape)) : std::nullopt;
    const double a = shape.scale, untruncated_mass = mass / shape.mass_cut;
    for (std::size_t i = 0; i < count; ++i) {
        Body b;
        b.m = mass / double(count);
        const double x = draw_until(
            [&]() -> std::optional<double> {
                const double u = rng.uniform() * shape.mass_cut;
                return u > 0 ? std::optional(u) : std::nullopt;
            },
            "halo.mass_cut", "the enclosed-mass fraction is never above 0");
        const double r = halo_radius_at(shape, x);
        b.x = r * rng.unit_vector();
        const double psi = m.G * untruncated_mass /
                           (shape.profile == HaloProfile::Plummer ? std::sqrt(r * r + a * a) : r + a);
        const double depth = real.depth(r);
        const std::optional<double> q = df ? df->draw_speed_fraction(depth, rng) : std::nullopt;
        if (q) {
            b.v = (*q * std::sqrt(2.0 * depth)) * rng.unit_vector();
        } else {
            const double s2 = bare.sigma2(r);
            const double scale = s2 > 0 ? std::sqrt(std::max(0.0, real.sigma2(r)) / s2) : 1.0;
            b.v = (scale * halo_speed_fraction(shape, r, rng) * std::sqrt(2.0 * psi)) * rng.unit_vector();
        }
        out.push_back(b);
        tick(control, i);
    }
}

void sample_disk(const MassModel& m, std::size_t count, Rng& rng, std::vector<Body>& out,
                 BuildControl* control) {
    const DiskSpec& d = m.disk;
    for (std::size_t i = 0; i < count; ++i) {
        Body b;
        b.m = m.disk_mass / double(count);
        // Gamma(2) radii redrawn beyond the cut-off: the reader keeps cutoff >= scale_length (26% accepted)
        const double R = draw_until(
            [&]() -> std::optional<double> {
                const double v = -d.scale_length * std::log((1.0 - rng.uniform()) * (1.0 - rng.uniform()));
                return v > d.cutoff ? std::nullopt : std::optional(v);
            },
            "disk.cutoff", "too small against disk.scale_length (it should be at least one scale length)");
        const double phi = rng.uniform(0.0, 2.0 * kPi);
        const double z =
            d.scale_height * std::atanh(std::clamp(2.0 * rng.uniform() - 1.0, -1 + 1e-12, 1 - 1e-12));
        const double c = std::cos(phi), s = std::sin(phi);
        b.x = {R * c, R * s, z};

        const double Rs = std::max(R, 1e-3 * d.scale_length);  // the centre itself is a removable singularity
        const double omega2 = m.vc2(Rs) / (Rs * Rs);
        const double dR = 1e-3 * Rs;
        const double domega2 =
            (m.vc2(Rs + dR) / ((Rs + dR) * (Rs + dR)) - m.vc2(Rs - dR) / ((Rs - dR) * (Rs - dR))) /
            (2.0 * dR);
        const double kappa2 = std::max(Rs * domega2 + 4.0 * omega2, 1e-3 * omega2);
        const double kappa = std::sqrt(kappa2), sigma_scale = m.G * m.surface_density(R);
        const double sigma_r = d.toomre_q * 3.36 * sigma_scale / kappa;
        const double sigma_phi = sigma_r * kappa / (2.0 * std::sqrt(omega2));
        const double sigma_z = std::sqrt(kPi * sigma_scale * d.scale_height);
        const double drift = 1.0 - kappa2 / (4.0 * omega2) - 2.0 * R / d.scale_length;
        const double vphi_mean = std::sqrt(std::max(0.0, m.vc2(Rs) + sigma_r * sigma_r * drift));
        const double vr = sigma_r * rng.normal(), vphi = vphi_mean + sigma_phi * rng.normal();
        b.v = {vr * c - vphi * s, vr * s + vphi * c, sigma_z * rng.normal()};
        out.push_back(b);
        tick(control, i);
    }
}

}  // namespace

double halo_radius(const HaloSpec& h) {
    return halo_radius_at(h, h.mass_cut);
}

DiskGalaxyCounts disk_galaxy_counts(std::size_t n, const DiskSpec& disk, const BulgeSpec& bulge) {
    DiskGalaxyCounts c;
    if (n < 2) {  // a single body: it is the disk
        c.disk = n;
        return c;
    }
    if (bulge.present() && n >= 3)
        c.bulge = std::clamp<std::size_t>(static_cast<std::size_t>(std::llround(bulge.body_fraction * double(n))), 1,
                                          n - 2);
    const auto disk_n = static_cast<std::size_t>(std::llround(disk.body_fraction * double(n)));
    c.disk = std::clamp<std::size_t>(disk_n, 1, n - 1 - c.bulge);
    c.halo = n - c.disk - c.bulge;
    return c;
}

namespace {
// The generator's own checks (the scene reader gives the same with file:line:column): each loop above then
// accepts at least a quarter of its draws.
void check(const DiskGalaxyParams& p) {
    require_mass(p.mass);
    require_G(p.G);
    require_range("eps", p.eps, 0.0, limits::kMaxLength);
    require_range("disk.mass_fraction", p.disk.mass_fraction, 0.01, 0.99);
    require_range("disk.body_fraction", p.disk.body_fraction, 0.01, 0.99);
    require_length("disk.scale_length", p.disk.scale_length);
    require_length("disk.scale_height", p.disk.scale_height);
    require_range("disk.cutoff", p.disk.cutoff, p.disk.scale_length, limits::kMaxLength);
    require_range("disk.toomre_q", p.disk.toomre_q, 0.5, 10.0);
    require_length("halo.scale", p.halo.scale);
    require_range("halo.mass_cut", p.halo.mass_cut, 0.05, 0.9999);
    if (!p.bulge.present()) return;
    // at most half the galaxy, and the halo keeps at least 1% of the mass and of the bodies
    require_range("bulge.mass_fraction", p.bulge.mass_fraction, 0.001, std::min(0.5, 0.99 - p.disk.mass_fraction));
    require_range("bulge.body_fraction", p.bulge.body_fraction, 0.001, std::min(0.5, 0.99 - p.disk.body_fraction));
    require_length("bulge.scale", p.bulge.scale);
    require_range("bulge.mass_cut", p.bulge.mass_cut, 0.05, 0.9999);
}

MassModel mass_model(const DiskGalaxyParams& p) {
    MassModel m{p.halo, p.disk, p.mass * (1.0 - p.disk.mass_fraction), p.mass * p.disk.mass_fraction, p.eps, p.G, 0};
    const DiskGalaxyCounts counts = disk_galaxy_counts(p.n, p.disk, p.bulge);
    if (counts.bulge > 0) {
        m.bulge = bulge_shape(p.bulge);
        m.bulge_mass = p.mass * p.bulge.mass_fraction;
        m.halo_mass -= m.bulge_mass;
    }
    if (counts.halo == 0)
        m.halo_mass = 0, m.disk_mass = p.mass;  // a single body: it is the disk
    const double c = p.disk.cutoff / p.disk.scale_length;
    m.disk_mass_untruncated = m.disk_mass / (1.0 - (1.0 + c) * std::exp(-c));
    return m;
}
// Moves the bulge's bodies (the last ones) so that their centre of mass is the halo's. Each sample's centre
// is off the origin by its sampling noise (a halo of 8,000 bodies by about 0.02, the size of a bulge's inner
// tenth): the bulge would start off the bottom of the halo's potential and slosh there.
void centre_bulge_on_halo(std::vector<Body>& out, const DiskGalaxyCounts& counts) {
    const std::size_t b0 = counts.halo + counts.disk;
    const Double3 shift = center_of_mass(out, 0, counts.halo) - center_of_mass(out, b0, out.size());
    for (std::size_t i = b0; i < out.size(); ++i) out[i].x = out[i].x + shift;
}
}  // namespace

double disk_galaxy_vc2(const DiskGalaxyParams& p, double R) {
    return mass_model(p).vc2(R);
}

std::vector<Body> make_disk_galaxy(const DiskGalaxyParams& p, uint64_t seed, BuildControl* control) {
    check(p);
    Rng rng(seed);
    const MassModel m = mass_model(p);
    const DiskGalaxyCounts counts = disk_galaxy_counts(p.n, p.disk, p.bulge);
    std::vector<Body> out;
    out.reserve(p.n);
    sample_spheroid(m, m.halo, m.halo_mass, counts.halo, rng, out, control);
    sample_disk(m, counts.disk, rng, out, control);
    if (counts.bulge > 0) {
        sample_spheroid(m, m.bulge, m.bulge_mass, counts.bulge, rng, out, control, true);
        centre_bulge_on_halo(out, counts);
    }
    remove_center_of_mass(out);
    return out;
}

}  // namespace nbody

namespace nbody {

// The spheroid's stars from Eddington's distribution function in the softened potential of stars and black hole
// together (the bulge's sampler: HaloJeans sums the potential over shells, the hole sitting in the innermost),
// so the cusp around the hole starts in equilibrium; the hole is the last body, at rest at the centre before
// the centre of mass is removed. Work: a 600 x 600 shell sum and a 256-point Abel table, then a bounded
// rejection a star (EddingtonDF), whatever the parameters that pass the checks.
std::vector<Body> make_spheroid(const SpheroidParams& p, uint64_t seed, BuildControl* control) {
    require_mass(p.mass);
    require_G(p.G);
    require_range("eps", p.eps, 0.0, limits::kMaxLength);
    require_length("scale", p.shape.scale);
    require_range("mass_cut", p.shape.mass_cut, 0.05, 0.9999);
    require_range("black_hole", p.black_hole, 0.0, 0.5);
    const bool hole = p.black_hole > 0 && p.n >= 1;
    const std::size_t stars = p.n - (hole ? 1 : 0);
    MassModel m{p.shape, DiskSpec{}, p.mass * (1.0 - (hole ? p.black_hole : 0.0)), 0.0, p.eps, p.G, 0.0};
    m.black_hole = hole ? p.mass * p.black_hole : 0.0;
    if (stars == 0) m.black_hole = p.mass;  // one body: all of the mass
    Rng rng(seed);
    std::vector<Body> out;
    out.reserve(p.n);
    try {
        if (stars > 0) sample_spheroid(m, m.halo, m.halo_mass, stars, rng, out, control, true);
    } catch (const ParamError&) {
        throw;
    } catch (const BuildCancelled&) {
        throw;
    } catch (const Error& e) {  // the Eddington table: a softening far above the scale flattens the potential
        throw ParamError("scale", "the stars' potential is too flat to draw their speeds from (" +
                                      std::string(e.what()) + "): keep scale well above eps");
    }
    if (hole) out.push_back(Body{{}, {}, m.black_hole});
    remove_center_of_mass(out);
    return out;
}

}  // namespace nbody
