#include "core/session/orbit_trace.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace nbody {

namespace {
constexpr double kTwoPi = 2 * std::numbers::pi;

double norm(Double3 a) { return std::sqrt(dot(a, a)); }

// The angle b - a taken the shorter way round, in (-pi, pi].
double wrapped(double d) {
    while (d > std::numbers::pi) d -= kTwoPi;
    while (d <= -std::numbers::pi) d += kTwoPi;
    return d;
}

// A path that comes within this share of its largest distance from the centre runs through it: there the angle
// around the centre jumps by about pi either way, and the passages of one angle are not well defined.
constexpr double kThroughCentre = 0.05;

// Times the body comes back to rel[0] moving the same way: local minima of the distance to it closer than a
// twentieth of the path's size (or one sample step, on a coarse trace), after going at least a quarter of the
// size away. Each is refined along the local motion to the closest approach.
std::vector<double> returns_to_start(const std::vector<TraceSample>& trace, const std::vector<Double3>& rel) {
    std::vector<double> out{trace[0].t};
    const std::size_t n = rel.size();
    double size = 0;
    for (const Double3& r : rel) size = std::max(size, norm(r - rel[0]));
    if (!(size > 0)) return out;
    const Double3 way0 = rel[1] - rel[0];
    double away = 0;  // the farthest since the last return
    for (std::size_t k = 1; k + 1 < n; ++k) {
        const double d = norm(rel[k] - rel[0]);
        away = std::max(away, d);
        const Double3 step = rel[k + 1] - rel[k - 1];
        const bool closest = d <= norm(rel[k - 1] - rel[0]) && d < norm(rel[k + 1] - rel[0]);
        const bool near = d < std::max(0.05 * size, norm(step));
        // Moving the same way: within 60 degrees of the first step (the eight's crossing, passed along the other
        // diagonal half a period later, is at about 90 degrees).
        const bool same_way = dot(step, way0) > 0.5 * norm(step) * norm(way0);
        if (!closest || !near || away < 0.25 * size || !same_way) continue;
        const double span = trace[k + 1].t - trace[k - 1].t;
        const Double3 v = (1.0 / span) * step;
        const double shift = dot(rel[0] - rel[k], v) / std::max(dot(v, v), 1e-300);
        out.push_back(trace[k].t + std::clamp(shift, -0.5 * span, 0.5 * span));
        away = 0;
    }
    return out;
}

PeriodReading period_by_return(const std::vector<TraceSample>& trace, const std::vector<Double3>& rel) {
    PeriodReading out;
    out.method = PeriodMethod::Return;
    const std::vector<double> returns = returns_to_start(trace, rel);
    out.turns = int(returns.size()) - 1;
    if (returns.size() >= 2) out.period = returns.back() - returns[returns.size() - 2];
    return out;
}
}  // namespace

const char* period_method_words(PeriodMethod m) {
    switch (m) {
        case PeriodMethod::SameAngle:
            return "same angle around the centre of mass";
        case PeriodMethod::Return:
            return "return to where it was picked";
    }
    return "";
}

PeriodReading period_from_trace(const std::vector<TraceSample>& trace) {
    PeriodReading out;
    if (trace.size() < 3) return out;
    std::vector<Double3> rel(trace.size());
    for (std::size_t k = 0; k < trace.size(); ++k) rel[k] = trace[k].pos - trace[k].centre;
    // Nearest the centre along the path's segments, not at its samples: a coarse trace (many steps a frame)
    // has no sample near the crossing that it runs through.
    double nearest = norm(rel[0]), farthest = nearest;
    for (std::size_t k = 0; k + 1 < rel.size(); ++k) {
        const Double3 d = rel[k + 1] - rel[k];
        const double f = std::clamp(-dot(rel[k], d) / std::max(dot(d, d), 1e-300), 0.0, 1.0);
        nearest = std::min(nearest, norm(rel[k] + f * d));
        farthest = std::max(farthest, norm(rel[k + 1]));
    }
    if (nearest < kThroughCentre * farthest) return period_by_return(trace, rel);
    // Twice the area swept, summed: its direction is the orbit's normal, and against the path's length times
    // its distance it says whether the body turns at all (a radial fall sweeps no area).
    Double3 swept{};
    double scale = 0;
    for (std::size_t k = 0; k + 1 < rel.size(); ++k) {
        swept = swept + cross(rel[k], rel[k + 1]);
        scale += norm(rel[k]) * norm(rel[k + 1]);
    }
    const double swept_len = norm(swept);
    if (!(swept_len > 1e-9 * scale) || !std::isfinite(swept_len)) return out;
    const Double3 n = (1.0 / swept_len) * swept;
    // e1 along the first sample's direction in the plane: the reference angle is 0.
    Double3 e1 = rel[0] - dot(rel[0], n) * n;
    if (!(norm(e1) > 0)) return out;
    e1 = (1.0 / norm(e1)) * e1;
    const Double3 e2 = cross(n, e1);
    // Passages of the reference angle: the start, then every time the unwrapped angle first reaches 2 pi m.
    std::vector<double> passages{trace[0].t};
    double prev_phi = 0, angle = 0;
    int reached = 0;  // the highest full turn reached so far
    for (std::size_t k = 1; k < rel.size(); ++k) {
        const double phi = std::atan2(dot(rel[k], e2), dot(rel[k], e1));
        const double step = wrapped(phi - prev_phi);
        const double before = angle;
        angle += step;
        prev_phi = phi;
        while (angle >= kTwoPi * (reached + 1)) {
            ++reached;
            const double target = kTwoPi * reached;
            const double f = step > 0 ? std::clamp((target - before) / step, 0.0, 1.0) : 1.0;
            passages.push_back(trace[k - 1].t + f * (trace[k].t - trace[k - 1].t));
        }
    }
    out.angle = angle;
    out.turns = reached;
    if (passages.size() >= 2) out.period = passages.back() - passages[passages.size() - 2];
    return out;
}

OrbitTrace::OrbitTrace(std::size_t capacity) : m_capacity(std::max<std::size_t>(capacity, 4)) {
    m_samples.reserve(m_capacity);
}

void OrbitTrace::clear() {
    m_samples.clear();
    m_stride = 1;
    m_offered = 0;
}

void OrbitTrace::add(const TraceSample& s) {
    if (!m_samples.empty()) {
        if (s.t == m_samples.back().t) return;
        if (s.t < m_samples.back().t) clear();
    }
    if (!m_samples.empty() && ++m_offered < m_stride) return;
    m_offered = 0;
    if (m_samples.size() == m_capacity) {
        std::size_t kept = 0;
        for (std::size_t k = 0; k < m_samples.size(); k += 2) m_samples[kept++] = m_samples[k];
        m_samples.resize(kept);
        m_stride *= 2;
    }
    m_samples.push_back(s);
}

}  // namespace nbody
