#include "render/colour_scale.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/physics/unit_words.hpp"

namespace nbody {

const std::vector<std::string>& color_mode_words() {
    static const std::vector<std::string> words{"component", "speed", "depth", "density", "potential"};
    return words;
}

std::optional<ColorMode> parse_color_mode(const std::string& word) {
    if (word == "group") return ColorMode::Group;  // the word before "component"; scripts still use it
    const auto& w = color_mode_words();
    const auto it = std::find(w.begin(), w.end(), word);
    if (it == w.end()) return std::nullopt;
    return static_cast<ColorMode>(it - w.begin());
}

std::string color_mode_choices() {
    const auto& w = color_mode_words();
    std::string s;
    for (std::size_t i = 0; i < w.size(); ++i) s += (i == 0 ? "" : i + 1 == w.size() ? " or " : ", ") + w[i];
    return s;
}

GridBox density_grid_box(glm::vec3 target, float distance, float fov_y, float aspect, float scene_radius) {
    const float half_h = std::max(distance, 0.0f) * std::tan(0.5f * fov_y);
    const float half = std::max({half_h, half_h * aspect, 0.2f * scene_radius, 1e-6f});
    return {target - glm::vec3(half), 2.0f * half};
}

namespace {
// The value below which a share q of the total weight lies, interpolated inside the bin it falls in.
double histogram_quantile(const std::vector<uint32_t>& bins, double total, double q, double log_lo,
                          double width) {
    const double want = q * total;
    double below = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        const double w = double(bins[i]);
        if (w > 0 && below + w >= want) return log_lo + width * (double(i) + (want - below) / w);
        below += w;
    }
    return log_lo + width * double(bins.size());
}

ValueRange at_least(double lo, double hi, double min_width) {
    if (hi - lo < min_width) {
        const double mid = 0.5 * (lo + hi);
        lo = mid - 0.5 * min_width, hi = mid + 0.5 * min_width;
    }
    return {lo, hi, true};
}
}  // namespace

ValueRange log_range_from_histogram(const std::vector<uint32_t>& bins, double log_lo, double log_hi,
                                    double q_lo, double q_hi) {
    const double total = std::accumulate(bins.begin(), bins.end(), 0.0);
    if (bins.empty() || !(total > 0)) return {};
    const double width = (log_hi - log_lo) / double(bins.size());
    return at_least(histogram_quantile(bins, total, q_lo, log_lo, width),
                    histogram_quantile(bins, total, q_hi, log_lo, width), 0.1);
}

ValueRange quantile_range(std::vector<float> values, double q_lo, double q_hi) {
    values.erase(std::remove_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); }),
                 values.end());
    if (values.empty()) return {};
    std::sort(values.begin(), values.end());
    const auto at = [&](double q) {
        const double x = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
        const std::size_t i = std::min(std::size_t(x), values.size() - 1);
        const std::size_t j = std::min(i + 1, values.size() - 1);
        return double(values[i]) + (x - double(i)) * double(values[j] - values[i]);
    };
    const double lo = at(q_lo), hi = at(q_hi);
    return at_least(lo, hi, 1e-6 * std::max({std::abs(lo), std::abs(hi), 1e-30}));
}

namespace {
double metres_in(const std::string& unit) {
    constexpr double pc = 3.0856775814913673e16;
    if (unit == "m") return 1;
    if (unit == "km") return 1e3;
    if (unit == "AU") return 1.495978707e11;
    if (unit == "ly") return 9.4607304725808e15;
    if (unit == "pc") return pc;
    if (unit == "kpc") return 1e3 * pc;
    if (unit == "Mpc") return 1e6 * pc;
    return 0;
}

double seconds_in(const std::string& unit) {
    constexpr double yr = 3.15576e7;  // Julian year
    if (unit == "s") return 1;
    if (unit == "day") return 86400;
    if (unit == "yr") return yr;
    if (unit == "kyr") return 1e3 * yr;
    if (unit == "Myr") return 1e6 * yr;
    if (unit == "Gyr") return 1e9 * yr;
    return 0;
}

bool declares_units(const PhysicalUnits& u) {
    return u.length > 0 && u.time > 0 && metres_in(u.length_unit) > 0 && seconds_in(u.time_unit) > 0;
}
}  // namespace

double mass_unit_in_suns(const PhysicalUnits& u, double G) {
    if (!declares_units(u) || !(G > 0)) return 0;
    constexpr double G_si = 6.67430e-11;  // m^3 kg^-1 s^-2 (CODATA 2018)
    constexpr double sun_kg = 1.98841e30;
    const double L = u.length * metres_in(u.length_unit), T = u.time * seconds_in(u.time_unit);
    return G * L * L * L / (G_si * T * T) / sun_kg;
}

ColourBarText colour_bar_text(ColorMode mode, const PhysicalUnits& u, double G, const ValueRange& r) {
    const bool physical = declares_units(u);
    const double speed_unit = physical ? u.length / u.time : 1.0;  // one N-body speed, in the shown unit
    const std::string speed_name = physical ? u.length_unit + "/" + u.time_unit : "length/time";
    ColourBarText t;
    switch (mode) {
        case ColorMode::Speed:
            t = {"speed", three_digits(0), three_digits(r.hi * speed_unit), speed_name};
            break;
        case ColorMode::Density: {
            const double suns = mass_unit_in_suns(u, G);
            // log10 of (M_sun / unit^3) per (mass / length^3): the log range shifts by a constant.
            const double shift = physical && suns > 0 ? std::log10(suns / std::pow(u.length, 3.0)) : 0.0;
            t = {"density, log scale", three_digits(std::pow(10.0, r.lo + shift)),
                 three_digits(std::pow(10.0, r.hi + shift)),
                 physical && suns > 0 ? "M_sun/" + u.length_unit + "\xC2\xB3" : "mass/length\xC2\xB3"};
            break;
        }
        case ColorMode::Potential: {
            const double s2 = speed_unit * speed_unit;
            t = {"potential", three_digits(r.hi * s2), three_digits(r.lo * s2),
                 "(" + speed_name + ")\xC2\xB2"};
            break;
        }
        case ColorMode::Depth: {  // far (dark) at the left, near (bright) at the right
            const bool km = u.length > 0 && !u.length_unit.empty();
            const double k = km ? u.length : 1.0;
            t = {"far", three_digits(r.hi * k), three_digits(r.lo * k),
                 "near (" + (km ? u.length_unit : std::string("length")) + ")"};
            break;
        }
        case ColorMode::Group:
            t = {"component", "", "", ""};
            break;
    }
    return t;
}

}  // namespace nbody
