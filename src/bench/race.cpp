#include "bench/race.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/physics/force_reference.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "cpu/reference_force.hpp"

namespace nbody {

namespace {

std::string entry_name(std::string_view kernel, std::string_view precision) {
    std::string s(kernel);
    s += ' ';
    s += precision;
    return s;
}

}  // namespace

std::vector<RaceEntry> race_entries(const BackendCaps& caps, const TreeParams& tree) {
    std::vector<RaceEntry> out;
    for (const auto& pr : precision_table()) {
        if (!caps.kernel_variants) {
            out.push_back({entry_name("cpu", pr.name), std::nullopt, {}, pr.value});
            continue;
        }
        // From the table, so a variant family added there races without a change here.
        for (const VariantInfo& v : variant_table())
            out.push_back({entry_name(v.name, pr.name), v.variant, v.default_shape, pr.value, v.method});
        out.push_back({entry_name("auto", pr.name), std::nullopt, {}, pr.value});
    }
    out.push_back({entry_name("tree " + opening_text(tree), precision_name(Precision::Fp32)),
                   std::nullopt,
                   {},
                   Precision::Fp32,
                   ForceMethod::Tree,
                   tree});
    return out;
}

SimParams entry_params(const SimParams& base, const RaceEntry& e, const BackendCaps& caps) {
    SimParams p = base;
    p.method = e.method;  // a tree simulation races direct entries too, and the reverse
    p.precision = e.precision;
    p.integrator = Integrator::LeapFrog;
    p.tree = e.tree;  // read by the methods that have cells; the default elsewhere
    if (caps.kernel_variants) {
        p.kernel_auto = !e.variant.has_value();
        if (e.variant) {
            p.variant = *e.variant;
            p.shape = e.shape;
        }
    }
    return p;
}

Race::Race(Backend& backend, std::vector<RaceEntry> entries, RaceOptions options)
    : m_backend(backend), m_options(std::move(options)) {
    m_backend.read_state(m_saved);
    m_params = m_backend.params();
    // What the backend has no code for is left out, not listed as skipped (the GL backend: fp32 direct only).
    for (RaceEntry& e : entries)
        if (m_backend.refusal(entry_params(m_params, e, m_backend.caps())).empty())
            m_entries.push_back(std::move(e));
    m_steps = m_backend.steps_taken();
    if (integrator_info(m_params.integrator).scheme != Scheme::KickDriftKick)
        m_note = "the simulation runs " + std::string(integrator_name(m_params.integrator)) +
                 "; the race times the leap-frog force in each entry. ";
}

RaceProgress Race::progress() const {
    RaceProgress p{(m_reference_done ? 1 : 0) + m_next, 1 + m_entries.size(), {}};
    if (m_finished)
        p.doing = m_cancelled ? "cancelled" : "done";
    else if (!m_reference_done)
        p.doing = "float64 reference";
    else
        p.doing = m_entries[m_next].name;
    return p;
}

void Race::compute_reference() {
    // Every body where N^2 pairs fit the budget, else an evenly spaced sample (reference_rows).
    const std::size_t n = m_saved.size();
    m_reference.rows = reference_rows(n, m_options.reference_pairs, kMinSampledBodies);
    const std::size_t rows = m_reference.rows.size();
    m_reference.acc = reference_accelerations(m_saved, m_reference.rows, m_params.eps, m_params.G);
    if (rows < n) {
        char text[160];
        std::snprintf(
            text, sizeof text,
            "force error over %zu of %zu bodies (every %zu-th: the float64 reference is O(N^2) on the "
            "CPU).",
            rows, n, n / rows);
        m_note += text;
    } else {
        m_note += "force error over all bodies against the float64 reference.";
    }
    // A tree's rate counts what it evaluated (body-body + body-cell), far fewer than direct summation's N^2:
    // its steps/s and its force error are what compare with the direct entries.
    if (std::any_of(m_entries.begin(), m_entries.end(),
                    [](const RaceEntry& e) { return method_info(e.method).approximate; }))
        m_note +=
            " The tree's interactions/s are those it evaluated, not N^2: compare its steps/s, at its force "
            "error.";
}

void Race::run_entry(const RaceEntry& e) {
    RaceResult r{e, {}, {}};
    r.row.backend = !m_options.backend.empty() ? m_options.backend : m_backend.caps().gpu ? "cuda" : "cpu";
    r.row.variant = e.variant                          ? std::string(variant_name(*e.variant))
                    : !method_info(e.method).kernel_families ? std::string(method_name(e.method))
                    : m_backend.caps().kernel_variants ? "auto"
                                                       : "cpu";
    try {
        const auto t0 = std::chrono::steady_clock::now();
        m_backend.reset(m_saved, entry_params(m_params, e, m_backend.caps()));
        const double first_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // The entry's first evaluation, at the race's start positions, against the reference.
        std::vector<Double4> acc;
        m_backend.read_accelerations(acc);
        r.row.error = compare_forces(acc, m_reference);
        if (m_options.max_evaluation_seconds > 0 && first_s > m_options.max_evaluation_seconds) {
            char why[160];
            std::snprintf(why, sizeof why,
                          "one force evaluation took %.1f s (limit %.1f s here): race it with "
                          "nbody-bench --race",
                          first_s, m_options.max_evaluation_seconds);
            r.skipped = why;
            m_results.push_back(std::move(r));
            return;
        }
        // About `seconds` of timed steps: three repeats (median), after a warm-up that also captures the CUDA
        // graph. Each entry starts from the same state, so every one times the same work.
        BenchTiming t;
        t.repeats = 3;
        t.seconds_per_repeat = m_options.seconds / t.repeats;
        t.warmup_seconds = std::min(0.1, 0.25 * m_options.seconds);
        time_repeats(m_backend, m_options.timer, t, r.row);
    } catch (const Error& err) {
        r.skipped = err.what();
    }
    m_results.push_back(std::move(r));
}

bool Race::step() {
    if (m_finished) return false;
    if (!m_reference_done) {
        compute_reference();
        m_reference_done = true;
    } else if (m_next < m_entries.size()) {
        run_entry(m_entries[m_next++]);
    }
    if (m_reference_done && m_next == m_entries.size()) {
        m_finished = true;
        restore();
    }
    return !m_finished;
}

void Race::restore() {
    m_backend.reset(m_saved, m_params);
    m_backend.set_steps_taken(m_steps);
}

void Race::cancel() {
    if (m_finished) return;
    m_cancelled = m_finished = true;
    restore();
}

void Race::abandon() {
    m_cancelled = m_finished = true;
}

std::vector<RaceResult> run_race(Backend& backend, const std::vector<RaceEntry>& entries,
                                 const RaceOptions& options,
                                 const std::function<bool(const RaceProgress&)>& on_progress,
                                 std::string* note) {
    Race race(backend, entries, options);
    try {
        while (!race.finished()) {
            if (on_progress && !on_progress(race.progress())) break;
            race.step();
        }
    } catch (...) {
        race.cancel();  // out of memory, a failed copy: the backend goes back before the error goes up
        throw;
    }
    race.cancel();  // no-op after the last slice
    if (note) *note = race.note();
    return race.results();
}

}  // namespace nbody
