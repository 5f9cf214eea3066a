// nbody-bench --tune, the measuring loop: each candidate timed, the best few refined (q, s and block beside
// them) and confirmed, the winners written as a tuning table. The candidate grid is tune_grid.cpp.
#include "bench/tune.hpp"
#include "core/kernels/kernel_family.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace nbody {

namespace {

struct Measured {
    TuneCandidate c;
    ShapeSample s;
    double median = 0, spread = 0;

    void summarise() {
        std::vector<double> r = s.rates;
        std::sort(r.begin(), r.end());
        median =
            r.empty() ? 0 : (r.size() % 2 ? r[r.size() / 2] : 0.5 * (r[r.size() / 2 - 1] + r[r.size() / 2]));
        spread = median > 0 ? (r.back() - r.front()) / median : 0;
    }
};

bool same(const TuneCandidate& a, const TuneCandidate& b) {
    return a.variant == b.variant && a.shape == b.shape;
}

void sort_best_first(std::vector<Measured>& m) {
    std::stable_sort(m.begin(), m.end(),
                     [](const Measured& a, const Measured& b) { return a.median > b.median; });
}

std::string label(const Measured& m) {
    return kernel_label(m.c.variant, m.c.shape) +
           (m.c.shape.q == 0 ? " (q " + std::to_string(m.s.q) + ")" : "");
}

// The q variants measured beside the best few (TunePlan::q_variants_up_to).
constexpr int kQVariantsOf = 3;

// The benchmark row of a measurement whose repeats were pooled with the confirmation round: the rates and
// times scaled to the pooled median.
BenchRow pooled_row(const Measured& m) {
    BenchRow r = m.s.row;
    const double f = r.rate.interactions_per_s > 0 ? m.median / r.rate.interactions_per_s : 1.0;
    r.rate.interactions_per_s *= f, r.rate.gflops20 *= f, r.rate.gflops38 *= f, r.rate.gflops *= f;
    r.rate.steps_per_s *= f;
    r.rate.body_body_per_s *= f, r.rate.body_cell_per_s *= f, r.rate.equivalent_direct_per_s *= f;
    r.ms_per_step /= f;
    r.ms_spread = m.spread;
    r.repeats = static_cast<int>(m.s.rates.size());
    return r;
}

class Tuner {
  public:
    Tuner(const TunePlan& plan, ShapeTimer& timer, std::FILE* out)
        : m_plan(plan), m_timer(timer), m_out(out) {}

    TuneResult run(const TuneGrids& grids) {
        const auto t0 = std::chrono::steady_clock::now();
        for (Precision p : m_plan.precisions) {
            const std::vector<TuneCandidate> grid = grids(p);
            std::vector<TuneCandidate> previous;  // the last N's kernels, best first
            m_best_rate = 0;
            for (std::size_t n : m_plan.sizes) run_n(p, n, grid, previous);
        }
        std::fprintf(m_out, "tuned %zu precisions x %zu sizes, %zu measurements in %.1f s\n",
                     m_plan.precisions.size(), m_plan.sizes.size(), m_result.measurements,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        return m_result;
    }

  private:
    void run_n(Precision p, std::size_t n, const std::vector<TuneCandidate>& grid,
               std::vector<TuneCandidate>& previous) {
        const auto t1 = std::chrono::steady_clock::now();
        m_timer.load(n, p);
        std::vector<Measured> m = first_pass(shortlist(n, grid, previous));
        if (m.empty()) {
            std::fprintf(m_out, "%-4s N = %s: no kernel ran\n", std::string(precision_name(p)).c_str(),
                         with_commas(n).c_str());
            return;
        }
        if (n <= m_plan.q_variants_up_to) q_variants(m);
        confirm(n, m);
        previous.clear();
        for (const Measured& x : m) previous.push_back(x.c);
        m_best_rate = std::max(m_best_rate, m.front().median);
        report(p, n, m, std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
        for (const Measured& x : m) {
            m_result.table.rows.push_back({p, n, x.c.variant, x.c.shape, x.median, x.spread});
            m_result.rows.push_back(pooled_row(x));
        }
    }

    // Seconds one measurement of `repeats` repeats is expected to take at n: a warm-up and the repeats,
    // each at least one step (N^2 / the best rate seen so far) and at least the repeat length.
    double cost(std::size_t n, int repeats) const {
        if (m_best_rate <= 0) return 0;
        const double step = static_cast<double>(n) * static_cast<double>(n) / m_best_rate;
        return (1 + repeats) * std::max(m_plan.seconds_per_repeat, step);
    }

    // The full grid while it fits the per-N budget; above, the previous N's best (at least 2) in order:
    // at large N one step takes long (0.55 s at 1,048,576 on the H200) and the ranking changes slowly.
    std::vector<TuneCandidate> shortlist(std::size_t n, const std::vector<TuneCandidate>& grid,
                                         const std::vector<TuneCandidate>& previous) const {
        const double c = cost(n, m_plan.repeats);
        if (c <= 0 || previous.empty() || c * static_cast<double>(grid.size()) <= m_plan.seconds_per_n)
            return grid;
        const auto keep = static_cast<std::size_t>(std::max(2.0, std::floor(m_plan.seconds_per_n / c)));
        return {previous.begin(),
                previous.begin() + static_cast<std::ptrdiff_t>(std::min(keep, previous.size()))};
    }

    bool measure(Measured& m, int repeats) {
        std::optional<ShapeSample> s = m_timer.time(m.c, repeats);
        ++m_result.measurements;
        if (!s || s->rates.empty()) return false;
        if (m.s.rates.empty()) {
            m.s = *s;
        } else {
            m.s.rates.insert(m.s.rates.end(), s->rates.begin(), s->rates.end());
        }
        m.summarise();
        return true;
    }

    std::vector<Measured> first_pass(const std::vector<TuneCandidate>& list) {
        std::vector<Measured> out;
        for (const TuneCandidate& c : list) {
            Measured m{c, {}, 0, 0};
            if (measure(m, m_plan.repeats)) out.push_back(m);
        }
        sort_best_first(out);
        return out;
    }

    // Other shapes beside the best few: an automatic q halved and doubled; beside an automatic s, q 2, 4 and 8
    // (the planner takes q as given there), and the split count the planner chose (the row's s) one less, one
    // more and doubled, at the q it ran with: the planner's time model guesses the fixed cost of a block, and
    // at small N a split more or less moves the rate by a few per cent. Beside an automatic q of 16 or 32
    // (small N, one split), that q split over 2 to 4 blocks. And the block one to three warps smaller: the
    // i-bodies of a block are a whole number of warps' worth, so the count of blocks moves in steps, and at
    // small N a slightly smaller block spreads them over SMs left idle (N = 7,500, ij 4x4, q 32: 118 blocks
    // of 512 on 132 SMs, 125 of 480).
    void q_variants(std::vector<Measured>& m) {
        std::vector<TuneCandidate> extra;
        const auto add = [&](const TuneCandidate& c) {
            if (c.shape.q < 0 || c.shape.q > 32 || (c.shape.q > 0 && c.shape.block % c.shape.q != 0)) return;
            if (c.shape.s < 0 || c.shape.s > kMaxSplits) return;
            const auto seen = [&](const TuneCandidate& x) { return same(x, c); };
            if (std::none_of(extra.begin(), extra.end(), seen) &&
                std::none_of(m.begin(), m.end(), [&](const Measured& x) { return same(x.c, c); }))
                extra.push_back(c);
        };
        for (std::size_t i = 0; i < m.size() && i < static_cast<std::size_t>(kQVariantsOf); ++i) {
            if (variant_info(m[i].c.variant).rules.max_s <= 1) continue;  // no j-split over blocks (pairs): few blocks
            const KernelShape& s = m[i].c.shape;
            std::vector<int> qs;
            if (s.s == 0)
                qs = {2, 4, 8};
            else if (s.q == 0)
                qs = {m[i].s.q / 2, m[i].s.q * 2};
            for (int q : qs) {
                if (q < 1) continue;
                TuneCandidate c = m[i].c;
                c.shape.q = q;
                add(c);
            }
            const int splits = m[i].s.row.s;
            if (s.s == 0 && splits >= 1 && m[i].s.q >= 1)
                for (int n_s : {splits - 1, splits + 1, 2 * splits}) {
                    TuneCandidate c = m[i].c;
                    c.shape.q = m[i].s.q;
                    c.shape.s = n_s;
                    if (n_s >= 1) add(c);
                }
            if (s.s == 1 && s.q == 0 && m[i].s.q >= 16)
                for (int n_s : {2, 3, 4}) {
                    TuneCandidate c = m[i].c;
                    c.shape.q = m[i].s.q;
                    c.shape.s = n_s;
                    add(c);
                }
            const int q = s.q ? s.q : std::max(1, m[i].s.q);
            for (int warps = 1; warps <= 3; ++warps) {
                TuneCandidate c = m[i].c;
                c.shape.block -= 32 * warps;
                if (c.shape.block >= 64 && c.shape.block % q == 0) add(c);
            }
        }
        for (const TuneCandidate& c : extra) {
            Measured x{c, {}, 0, 0};
            if (measure(x, m_plan.repeats)) m.push_back(x);
        }
        sort_best_first(m);
    }

    // More repeats for the leaders, one at a time in turn, so a drift of the clock over the round
    // touches each of them alike; the winner is chosen on the pooled median.
    void confirm(std::size_t n, std::vector<Measured>& m) {
        const std::size_t top = std::min(m.size(), static_cast<std::size_t>(m_plan.confirm_top));
        if (top < 2 || m_plan.confirm_repeats < 1) return;
        if (static_cast<double>(top * m_plan.confirm_repeats) * cost(n, 1) > m_plan.seconds_per_n) return;
        for (int r = 0; r < m_plan.confirm_repeats; ++r)
            for (std::size_t i = 0; i < top; ++i) measure(m[i], 1);
        sort_best_first(m);
    }

    void report(Precision p, std::size_t n, const std::vector<Measured>& m, double seconds) {
        const Measured& w = m.front();
        std::fprintf(m_out, "%-4s N = %9s  %-50s %.4e interactions/s  %10.1f steps/s  spread %.1f%%",
                     std::string(precision_name(p)).c_str(), with_commas(n).c_str(), label(w).c_str(),
                     w.median, w.median / (double(n) * double(n)), 100 * w.spread);
        if (m.size() > 1) {
            const Measured& r = m[1];
            const double margin = w.median / r.median - 1;
            std::fprintf(m_out, "  next: %s -%.1f%%%s", label(r).c_str(), 100 * margin,
                         margin < std::max(w.spread, r.spread) ? " (within the spread)" : "");
        }
        std::fprintf(m_out, "  [%zu kernels, %.1f s]\n", m.size(), seconds);
        std::fflush(m_out);
    }

    const TunePlan& m_plan;
    ShapeTimer& m_timer;
    std::FILE* m_out;
    double m_best_rate = 0;
    TuneResult m_result;
};

}  // namespace

double tune_estimate_seconds(const TunePlan& plan, const TuneGrids& grids, double rate) {
    constexpr double kSwitch = 0.002;  // set_params (a new launch plan) and the graph capture
    double total = 0;
    for (Precision p : plan.precisions) {
        const double grid = static_cast<double>(grids(p).size());
        for (std::size_t n : plan.sizes) {
            // As the Tuner does: a repeat is at least one step, the list is cut to what fits seconds_per_n.
            const double repeat =
                std::max(plan.seconds_per_repeat, static_cast<double>(n) * static_cast<double>(n) / rate);
            const double one = std::max(plan.warmup_seconds, repeat) + plan.repeats * repeat + kSwitch;
            const double first = std::min(grid, std::max(2.0, std::floor(plan.seconds_per_n / one)));
            const double extra = n <= plan.q_variants_up_to ? 7.0 * kQVariantsOf : 0.0;  // q, s and block
            const double confirm = plan.confirm_top * plan.confirm_repeats * (repeat + kSwitch);
            total += (first + extra) * one + (confirm <= plan.seconds_per_n ? confirm : 0.0);
        }
    }
    return total;
}

TuneResult run_tune(const TunePlan& plan, ShapeTimer& timer, std::FILE* out, const TuneGrids& grids) {
    return Tuner(plan, timer, out).run(grids);
}

}  // namespace nbody
