#include "step_compare.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "core/session/auto_step.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "engine/backend_factory.hpp"
#include "scene/analysis.hpp"
#include "core/rows/integrator.hpp"

namespace nbody {

namespace {

using Clock = std::chrono::steady_clock;

struct Outcome {
    double dt = 0;        // shared: the step; block: the largest
    double stepping = 0;  // seconds in Backend::step
    double energy = 0;    // |dE/E| at the end (float64 diagnostics; a GPU's own potential sum)
    long long steps = 0;
    SurfaceMap map;
    std::vector<double> radii;  // the 10%, 50% and 90% Lagrangian radii about the centre of mass
    std::string levels, stages;
};

std::string levels_text(Backend& b) {
    const std::optional<BlockLevels> l = b.readouts(ReadoutAsk::levels()).block_levels;
    if (!l) return {};
    std::string out = "levels";
    for (std::size_t k = 0; k < l->count.size(); ++k)
        out.append(" ")
            .append(step_text(l->dt_max / double(1ull << k)))
            .append(": ")
            .append(std::to_string(l->count[k]));
    return out;
}

// One run from the scene's start to `until`: shared steps all at once, block steps one at a time (their
// length varies) until the clock reaches it.
Outcome run_to(const State& s0, const SimParams& p, double until, const CompareArgs& a) {
    const bool block = integrator_info(p.integrator).block_steps;
    const std::unique_ptr<Backend> b = make_backend(p);
    b->reset(s0, p);
    const Diagnostics d0 = compute_diagnostics(s0, p.eps, p.G, 0, b->potential_energy());
    Outcome o;
    o.dt = p.dt;
    const auto t0 = Clock::now();
    if (block)
        while (b->time() < until - 1e-12 * p.dt) b->step(1);
    else
        b->step(int(std::lround(until / p.dt)));
    State s;
    b->read_state(s);  // synchronises with the device: inside the timed span
    o.stepping = std::chrono::duration<double>(Clock::now() - t0).count();
    o.steps = b->steps_taken();
    o.energy = relative_energy_error(d0, compute_diagnostics(s, p.eps, p.G, 0, b->potential_energy()));
    if (!std::isfinite(o.energy) || first_non_finite(s) >= 0) o.energy = HUGE_VAL;
    std::vector<std::size_t> all(s.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    const Double3 c = center_of_mass(s, all);
    o.map = surface_map(s, c, a.map_half, a.map_bins);
    const double f[] = {0.1, 0.5, 0.9};
    o.radii = lagrangian_radii(s, all, c, f);
    o.levels = levels_text(*b);
    o.stages = b->readouts().stage_times;
    return o;
}

double map_l1(const Outcome& x, const Outcome& y) {
    return compare_maps(x.map, y.map, 1e-5).l1;
}

// The largest relative difference of the three Lagrangian radii.
double radii_off(const Outcome& x, const Outcome& y) {
    double worst = 0;
    for (std::size_t k = 0; k < x.radii.size(); ++k)
        worst = std::max(worst, std::abs(x.radii[k] / y.radii[k] - 1));
    return worst;
}

// The block run and the reference (shared leap-frog at the automatic step): a shared run is as accurate as
// the block run when its energy error is within the slack of the block run's, and its map and radii are no
// farther from the reference's than the block run's are (or within the tolerances, whichever is larger).
struct Judge {
    const Outcome& block;
    const Outcome& reference;
    const CompareArgs& a;
    bool matches(const Outcome& o) const {
        return o.energy <= a.energy_slack * block.energy &&
               map_l1(o, reference) <= std::max(a.map_tol, map_l1(block, reference)) &&
               radii_off(o, reference) <= std::max(a.radii_tol, radii_off(block, reference));
    }
    void row(const char* what, const Outcome& o) const {
        const char* verdict = &o == &block ? "" : matches(o) ? "matches" : "does not match";
        std::printf(
            "%-9s dt %-7s  %8lld steps  %9.3f s stepping  dE/E %.3e  vs reference: map %.4f radii %.4f  %s\n",
            what, step_text(o.dt).c_str(), o.steps, o.stepping, o.energy, map_l1(o, reference),
            radii_off(o, reference), verdict);
        std::fflush(stdout);
    }
};

// From a shared run at `dt`: doubling while the runs match (the largest that does), else halving until one
// does, at most a.max_tries runs and no halving past a run a.max_cost times the block run's stepping time.
std::optional<Outcome> search(const State& s0, SimParams shared, double until, const Judge& j, Outcome o) {
    std::optional<Outcome> best;
    int tries = 1;
    if (j.matches(o)) {
        best = o;
        while (tries++ < j.a.max_tries && 2 * shared.dt <= until) {
            shared.dt *= 2;
            o = run_to(s0, shared, until, j.a);
            j.row("shared", o);
            if (!j.matches(o)) break;
            best = o;
        }
        return best;
    }
    while (!best && tries++ < j.a.max_tries && shared.dt / 2 >= 0x1p-40 &&
           o.stepping <= j.a.max_cost * j.block.stepping) {
        shared.dt /= 2;
        o = run_to(s0, shared, until, j.a);
        j.row("shared", o);
        if (j.matches(o)) best = o;
    }
    return best;
}

}  // namespace

void compare_steps(const SceneSpec& scene, const SimParams& block_params, const CompareArgs& a) {
    if (!integrator_info(block_params.integrator).block_steps)
        throw Error("compare: the scene runs shared steps (" +
                    std::string(integrator_name(block_params.integrator)) +
                    "); give --integrator leapfrog-block (and --dt, its largest step)");
    const double until = a.until > 0 ? a.until : 2.0;
    const State s0 = build_scene(scene);
    std::printf(
        "# to t = %g; a shared run matches when |dE/E| <= %g x the block run's and its %d x %d map "
        "(half-side "
        "%g) and 10/50/90%% Lagrangian radii are no farther from the reference's (shared, the automatic "
        "step) than the block run's, or within %g and %g\n",
        until, a.energy_slack, a.map_bins, a.map_bins, a.map_half, a.map_tol, a.radii_tol);
    const Outcome block = run_to(s0, block_params, until, a);
    SimParams shared = block_params;
    shared.integrator = Integrator::LeapFrog;
    {
        const std::unique_ptr<Backend> b = make_backend(shared);
        b->reset(s0, shared);
        const AutoStep as = auto_step_of(*b);
        shared.dt = as.dt;
        std::printf("# %s\n", auto_step_words(as).c_str());
    }
    const Outcome reference = run_to(s0, shared, until, a);
    const Judge judge{block, reference, a};
    judge.row("block", block);
    std::printf("#   %s\n#   %s\n", block.levels.c_str(), block.stages.c_str());
    judge.row("reference", reference);
    std::optional<Outcome> best;
    if (a.start > 0) {  // the search from a step given, the reference apart
        shared.dt = a.start;
        const Outcome first = run_to(s0, shared, until, a);
        judge.row("shared", first);
        best = search(s0, shared, until, judge, first);
    } else {
        best = search(s0, shared, until, judge, reference);
    }
    if (!best) {
        std::printf("# no shared step tried matched the block run\n");
        return;
    }
    std::printf("# equal accuracy: shared %s in %.3f s against block steps in %.3f s: block steps %.2fx %s\n",
                step_text(best->dt).c_str(), best->stepping, block.stepping,
                block.stepping > 0 ? best->stepping / block.stepping : 0.0,
                best->stepping >= block.stepping ? "faster" : "(slower)");
}

}  // namespace nbody
