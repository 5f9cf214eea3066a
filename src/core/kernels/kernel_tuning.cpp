// The automatic kernel choice from a tuning table. The table's text form is kernel_tuning_text.cpp; where
// tables are stored and found, kernel_tuning_store.cpp.
#include "core/kernels/kernel_family.hpp"
#include "core/kernels/kernel_tuning.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace nbody {

namespace {

std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

bool same_kernel(const TuningRow& a, const TuningRow& b) {
    return a.variant == b.variant && a.shape == b.shape;
}

bool valid_row(const TuningRow& r) {
    if (r.n == 0 || !(r.rate > 0) || !std::isfinite(r.rate)) return false;
    try {
        validate_shape(r.variant, r.shape);
    } catch (const ParamError&) {
        return false;
    }
    return true;
}

// The best measured rate of `like`'s kernel at exactly n, 0 when it was not measured there.
double rate_at(const std::vector<const TuningRow*>& rows, std::size_t n, const TuningRow& like) {
    double best = 0;
    for (const TuningRow* r : rows)
        if (r->n == n && same_kernel(*r, like)) best = std::max(best, r->rate);
    return best;
}

// Steps per second a kernel whose evaluated interactions run at `rate` takes at n bodies: the method-neutral
// quantity the choice compares (through the family's work a step, so a method evaluating fewer than N^2
// interactions is not mistaken for a slower one). Direct families all take N^2, so among them this orders
// the shapes as their interactions/s do.
double steps_per_s(const TuningRow& r, double rate, std::size_t n) {
    return rate / step_work(r.variant, n).evaluated();
}

// The fastest row at exactly n (the first of equals, so the choice does not depend on float ties' order).
const TuningRow* winner_at(const std::vector<const TuningRow*>& rows, std::size_t n) {
    const TuningRow* best = nullptr;
    for (const TuningRow* r : rows)
        if (r->n == n && (!best || steps_per_s(*r, r->rate, n) > steps_per_s(*best, best->rate, n))) best = r;
    return best;
}

KernelChoice from_row(const TuningRow& r, std::size_t lo, std::size_t hi, double rate,
                      const std::string& source) {
    KernelChoice c;
    c.variant = r.variant, c.shape = r.shape;
    c.n_below = lo, c.n_above = hi;
    c.rate = rate;
    c.steps_per_s = steps_per_s(r, rate, std::max(lo, std::size_t{1}));
    c.source = source;
    return c;
}

}  // namespace

std::string describe(const TuningKey& k) {
    return k.gpu + ", " + std::to_string(k.sms) + " SMs, driver " + k.driver;
}

KernelChoice choose_kernel(const TuningTable& t, Precision p, std::size_t n, const ShapeFilter& runs) {
    std::vector<const TuningRow*> rows;
    for (const TuningRow& r : t.rows)
        if (r.precision == p && valid_row(r) && (!runs || runs(r.variant, r.shape))) rows.push_back(&r);
    KernelChoice fallback;
    fallback.source = t.source;
    if (rows.empty()) return fallback;

    n = std::max<std::size_t>(n, 1);
    std::size_t lo = 0, hi = std::numeric_limits<std::size_t>::max();
    for (const TuningRow* r : rows) {
        if (r->n <= n) lo = std::max(lo, r->n);
        if (r->n >= n) hi = std::min(hi, r->n);
    }
    if (lo == 0) lo = hi;                                        // below every measured N
    if (hi == std::numeric_limits<std::size_t>::max()) hi = lo;  // above every measured N
    if (lo == hi) {
        const TuningRow* w = winner_at(rows, lo);
        return from_row(*w, lo, lo, w->rate, t.source);
    }

    // Weight of the upper neighbour, linear in log N: 0 at lo, 1 at hi.
    const double w = std::log(static_cast<double>(n) / static_cast<double>(lo)) /
                     std::log(static_cast<double>(hi) / static_cast<double>(lo));
    // Each shape's interactions/s interpolated to n, compared as steps per second at n.
    const TuningRow* best = nullptr;
    double best_rate = 0, best_steps = 0;
    for (const TuningRow* r : rows) {
        if (r->n != lo) continue;
        const double at_hi = rate_at(rows, hi, *r);
        if (at_hi <= 0) continue;
        const double est = (1 - w) * rate_at(rows, lo, *r) + w * at_hi;
        const double steps = steps_per_s(*r, est, n);
        if (steps > best_steps) best = r, best_rate = est, best_steps = steps;
    }
    if (best) {
        KernelChoice c = from_row(*best, lo, hi, best_rate, t.source);
        c.steps_per_s = best_steps;
        return c;
    }
    const std::size_t nearer = w < 0.5 ? lo : hi;
    const TuningRow* near = winner_at(rows, nearer);
    return from_row(*near, nearer, nearer, near->rate, t.source);
}

std::string describe(const KernelChoice& c) {
    if (c.n_below == 0) return "no usable row in the tuning table (" + c.source + "): the default shape";
    std::string s =
        c.n_below == c.n_above
            ? "measured at N = " + with_commas(c.n_below) + " (" + sci(c.rate) + " interactions/s)"
            : "interpolated between N = " + with_commas(c.n_below) + " and " + with_commas(c.n_above) + " (" +
                  sci(c.rate) + " interactions/s expected)";
    return s + "; table: " + c.source;
}

}  // namespace nbody
