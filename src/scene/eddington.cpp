#include "scene/eddington.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "scene/build_control.hpp"
#include "scene/tabulated.hpp"

namespace nbody {

namespace {
constexpr int kQuadrature = 256;  // points of the Abel integral in u = sqrt(E - Psi)
}  // namespace

EddingtonDF::EddingtonDF(const std::vector<double>& psi, const std::vector<double>& rho) {
    if (psi.size() != rho.size() || psi.size() < 8) throw Error("Eddington inversion: needs 8 or more matching radii");
    // In increasing psi (from the edge in), without repeats: the table of rho(psi) and its slope.
    std::vector<double> p, d;
    for (std::size_t k = psi.size(); k-- > 0;)
        if (p.empty() || psi[k] > p.back()) p.push_back(psi[k]), d.push_back(rho[k]);
    const std::size_t n = p.size();
    if (n < 8 || !(p.front() >= 0)) throw Error("Eddington inversion: the potential must fall from the centre out");
    auto d_dpsi = [&](const std::vector<double>& y, std::size_t k) {  // central differences, one-sided at the ends
        const std::size_t lo = k > 0 ? k - 1 : 0, hi = std::min(n - 1, k + 1);
        return (y[hi] - y[lo]) / (p[hi] - p[lo]);
    };
    std::vector<double> slope(n);
    for (std::size_t k = 0; k < n; ++k) slope[k] = d_dpsi(d, k);
    // F(E) = int_0^E rho'(Psi) / sqrt(E - Psi) dPsi = int_0^sqrt(E) 2 rho'(E - u^2) du (Psi = E - u^2): smooth, no
    // singular end. Then f = dF/dE by differences, at the table's own potentials.
    std::vector<double> big_f(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) {
        const double top = std::sqrt(std::max(0.0, p[k] - p.front())), h = top / kQuadrature;
        double sum = 0;
        for (int j = 0; j < kQuadrature; ++j) {  // midpoints
            const double u = (j + 0.5) * h;
            sum += 2.0 * interpolate_clamped(p, slope, p[k] - u * u) * h;
        }
        big_f[k] = sum;
    }
    m_e.resize(n), m_f.resize(n);
    for (std::size_t k = 0; k < n; ++k) m_e[k] = p[k] - p.front(), m_f[k] = std::max(0.0, d_dpsi(big_f, k));
}

double EddingtonDF::f(double e) const {
    if (!(e > 0) || e > m_e.back()) return 0.0;
    return interpolate_clamped(m_e, m_f, e);
}

std::optional<double> EddingtonDF::draw_speed_fraction(double psi, Rng& rng) const {
    auto density = [&](double q) { return q * q * f(psi * (1.0 - q * q)); };
    double top = 0;
    for (int i = 1; i < 64; ++i) top = std::max(top, density(i / 64.0));
    if (!(top > 0)) return std::nullopt;
    return draw_until(
        [&]() -> std::optional<double> {
            const double q = rng.uniform(), y = rng.uniform() * 1.1 * top;
            return y < density(q) ? std::optional(q) : std::nullopt;
        },
        "bulge.scale", "the bulge's speed distribution at relative potential " + std::to_string(psi) + " is empty");
}

}  // namespace nbody
