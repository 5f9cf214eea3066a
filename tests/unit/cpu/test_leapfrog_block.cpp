// Leap-frog with block time steps on the CPU (cpu/leapfrog_block_integrator, the leapfrog-block row): the
// shared leap-frog reproduced bit for bit on one level, energy and momentum on a Plummer sphere (direct and
// tree), a tight binary in a field on deeper levels than the field, checkpoint resume, the underflow refusal,
// and the row's parameters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/physics/leapfrog.hpp"
#include "core/rows/param_registry.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/hermite_test_util.hpp"
#include "test_util.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/force_method.hpp"

using namespace nbody;
using test::sci;

namespace {

SimParams block_params(ForceMethod m, Precision pr, double dt, double eps, double eta) {
    SimParams p = test::hermite_params(Integrator::LeapFrogBlock, pr, dt, eps);
    p.method = m;
    p.eta = eta;
    return p;
}

struct Conservation {
    double energy = 0, momentum = 0;
    double active_fraction = 0;  // mean active bodies a block step over N
    int levels = 0;              // distinct steps at the end
};

Conservation run_measured(const State& s0, const SimParams& p, double t_end) {
    CpuBackend b(2);
    b.reset(s0, p);
    const long long before = b.work().evaluations;
    const double pairs0 = b.work().equivalent_direct;
    const long long steps = test::run_to_sync(b, t_end);
    State s;
    b.read_state(s);
    const Diagnostics d0 = compute_diagnostics(s0, p.eps, p.G, 2), d1 = compute_diagnostics(s, p.eps, p.G, 2);
    Conservation c;
    c.energy = relative_energy_error(d0, d1);
    c.momentum = momentum_drift(d0, d1);
    const double n = double(s0.size());
    c.active_fraction =
        (b.work().equivalent_direct - pairs0) / (n * n) / double(b.work().evaluations - before);
    std::vector<double> seen;
    for (std::size_t i = 0; i < s0.size(); ++i)
        if (std::find(seen.begin(), seen.end(), b.block_dt(i)) == seen.end()) seen.push_back(b.block_dt(i));
    c.levels = int(seen.size());
    EXPECT_GT(steps, 0);
    return c;
}

}  // namespace

// The criterion: eta sqrt(eps / |a|); with eps = 0, eta |v| / |a|; no bound (infinity, clamped by the caller)
// where a = 0 or, without softening, the body is at rest; never a division by zero.
TEST(LeapfrogBlockMath, CriterionAndItsFallback) {
    EXPECT_DOUBLE_EQ(block_leapfrog_step(0.1, 0.04, 4.0, 9.0), 0.1 * std::sqrt(0.04 / 2.0));
    EXPECT_DOUBLE_EQ(block_leapfrog_step(0.1, 0.0, 4.0, 9.0), 0.1 * 3.0 / 2.0);
    EXPECT_EQ(block_leapfrog_step(0.1, 0.0, 4.0, 0.0), HUGE_VAL);
    EXPECT_EQ(block_leapfrog_step(0.1, 0.04, 0.0, 0.0), HUGE_VAL);
    EXPECT_TRUE(std::isnan(block_leapfrog_step(0.1, 0.04, NAN, 1.0)));
}

// The growth hysteresis: a body keeps its step where the criterion asks for less than 1.25 times the doubled
// step, doubles beyond it, and shortens as soon as asked; a first step (no old one) and NaN pass through.
TEST(LeapfrogBlockMath, StepsGrowOnlyPastTheMargin) {
    const double h = 1.0 / 64;
    EXPECT_EQ(held_leapfrog_want(2.4 * h, h), h);      // 2.4 h < 2.5 h: held
    EXPECT_EQ(held_leapfrog_want(2.6 * h, h), 2.6 * h);  // past the margin: block_step may double it
    EXPECT_EQ(held_leapfrog_want(1.1 * h, h), h);
    EXPECT_EQ(held_leapfrog_want(0.9 * h, h), 0.9 * h);  // shorter: never held back
    EXPECT_EQ(held_leapfrog_want(0.3, 0.0), 0.3);        // the first step
    EXPECT_TRUE(std::isnan(held_leapfrog_want(NAN, h)));
    EXPECT_EQ(hermite::block_step(held_leapfrog_want(2.4 * h, h), h, 0.0, 1.0), h);
    EXPECT_EQ(hermite::block_step(held_leapfrog_want(2.6 * h, h), h, 0.0, 1.0), 2 * h);
}

// eta large enough that every body wants more than dt (N = 256 Henon Plummer, eps = 0.05: |a| < 3, so
// sqrt(eps / |a|) > 0.12 > dt = 1/32): one level, and then every bit of the state equals the shared
// leap-frog's after each step, for each precision and the tree (the same kicks and drifts in the same order,
// the same force rows; the tree walks every group with the same lists).
TEST(LeapfrogBlockCpu, OneLevelIsTheSharedLeapfrogBitForBit) {
    const State s0 = test::plummer_state(256, 9);
    const std::pair<ForceMethod, Precision> runs[] = {{ForceMethod::Direct, Precision::Fp32},
                                                      {ForceMethod::Direct, Precision::DS},
                                                      {ForceMethod::Direct, Precision::Fp64},
                                                      {ForceMethod::Tree, Precision::Fp32}};
    for (const auto& [method, precision] : runs) {
        const SimParams pb = block_params(method, precision, 1.0 / 32, 0.05, 1.0);
        SimParams pl = pb;
        pl.integrator = Integrator::LeapFrog;
        CpuBackend block(2), shared(2);
        block.reset(s0, pb), shared.reset(s0, pl);
        for (int k = 0; k < 20; ++k) {
            EXPECT_EQ(block.block_dt(k * 7 % 256), 1.0 / 32);
            block.step(1), shared.step(1);
            IntegratorState a, b;
            block.export_state(a), shared.export_state(b);
            for (const char* name : {"x", "y", "z", "vx", "vy", "vz", "ax", "ay", "az"})
                ASSERT_EQ(*a.array(name), *b.array(name))
                    << name << " differs after step " << k + 1 << ", " << precision_name(precision) << " "
                    << method_name(method);
            ASSERT_EQ(block.time(), shared.time());
        }
        for (std::size_t i = 0; i < s0.size(); ++i) ASSERT_EQ(block.block_dt(i), 1.0 / 32) << i;
    }
}

// A Plummer sphere (N = 512, Henon units, eps = 0.02, largest step 1/32) to t = 2, fp64 direct and the fp32
// tree, eta = 0.1 (three levels). Energy: a body's KDK energy error is about (omega dt)^2 / 4; where the
// criterion rules, omega^2 ~ |a| / eps gives eta^2 / 4 = 2.5e-3; in the core, where a -> 0 and dt_max rules,
// omega^2 = G M / a^3 = 4.9 gives (omega dt_max)^2 / 4 = 1.2e-3: asserted below the smaller, 1.2e-3. Each
// body's step is at most dt_max, so it must also beat the shared leap-frog at dt_max, and the scheme is
// second order, so halving eta must at least quarter it (the encounters make it ~8x: measured 4.9e-4 ->
// 6.2e-5; shared at dt_max 1.9e-3). Momentum: a pair's forces kick its two bodies at their own times, so
// block steps keep momentum only to the same O(dt^2) as energy (shared steps: round-off): below the
// same 1.2e-3 of sum m |v| (measured 1.0e-4); the tree (float32, forces not antisymmetric) too
// (measured 1.3e-4).
TEST(LeapfrogBlockCpu, PlummerSphereKeepsEnergyAndMomentum) {
    const State s0 = test::plummer_state(512, 5);
    const double dt_max = 1.0 / 32, bound = 1.2e-3;
    const Conservation direct =
        run_measured(s0, block_params(ForceMethod::Direct, Precision::Fp64, dt_max, 0.02, 0.1), 2.0);
    const Conservation finer =
        run_measured(s0, block_params(ForceMethod::Direct, Precision::Fp64, dt_max, 0.02, 0.05), 2.0);
    const Conservation tree =
        run_measured(s0, block_params(ForceMethod::Tree, Precision::Fp32, dt_max, 0.02, 0.1), 2.0);
    SimParams shared_p = block_params(ForceMethod::Direct, Precision::Fp64, dt_max, 0.02, 0.1);
    shared_p.integrator = Integrator::LeapFrog;
    const Conservation shared = run_measured(s0, shared_p, 2.0);
    for (const auto& [name, c] : {std::pair{"direct", direct}, std::pair{"direct_eta_0.05", finer},
                                  std::pair{"tree", tree}, std::pair{"shared", shared}}) {
        testing::Test::RecordProperty(std::string(name) + "_energy", sci(c.energy));
        testing::Test::RecordProperty(std::string(name) + "_momentum", sci(c.momentum));
        testing::Test::RecordProperty(std::string(name) + "_active_fraction", sci(c.active_fraction));
        testing::Test::RecordProperty(std::string(name) + "_levels", c.levels);
    }
    EXPECT_GE(direct.levels, 2);  // block steps really in use, not one shared step
    EXPECT_LT(direct.active_fraction, 0.9);
    EXPECT_LT(direct.energy, bound);
    EXPECT_LT(direct.energy, shared.energy);
    EXPECT_LT(finer.energy, direct.energy / 4);
    EXPECT_LT(direct.momentum, bound);
    EXPECT_LT(tree.energy, bound);
    EXPECT_LT(tree.momentum, bound);
}

// A tight binary (two bodies of mass 0.02, 0.01 apart, circular: period 0.031) at the centre of a 200-body
// Plummer field, eps = 1e-3, eta = 0.2, largest step 1/64. The binary's |a| = 200 against the field's ~1 asks
// steps ~14x shorter: at least three levels (8x) below the field's median. The field rarely steps with it:
// mean active fraction below 0.25. Energy (the binary's included) over t = 0.5, 16 binary periods, within
// eta^2 / 4 = 1e-2 (core/physics/leapfrog.hpp), asserted at half: 5e-3. Measured: the binary at 2^-12, the field's
// median 2^-8, six levels, active fraction 0.073 (a shared step at the binary's costs 14x more),
// energy 6.4e-4.
TEST(LeapfrogBlockCpu, ATightBinaryTakesShorterStepsThanItsField) {
    const State s = test::binary_in_a_field(200);
    const std::size_t i0 = 200;  // the binary's first body
    const SimParams p = block_params(ForceMethod::Direct, Precision::Fp64, 1.0 / 64, 1e-3, 0.2);
    CpuBackend b(2);
    b.reset(s, p);
    std::vector<double> field;
    for (std::size_t i = 0; i < i0; ++i) field.push_back(b.block_dt(i));
    std::nth_element(field.begin(), field.begin() + field.size() / 2, field.end());
    const double median = field[field.size() / 2];
    EXPECT_LE(b.block_dt(i0) * 8, median) << b.block_dt(i0) << " vs " << median;
    EXPECT_EQ(b.block_dt(i0), b.block_dt(i0 + 1));
    const Conservation c = run_measured(s, p, 0.5);
    testing::Test::RecordProperty("energy", sci(c.energy));
    testing::Test::RecordProperty("active_fraction", sci(c.active_fraction));
    EXPECT_LT(c.active_fraction, 0.25);
    EXPECT_GE(c.levels, 3);
    EXPECT_LT(c.energy, 5e-3);
}

// Two circular binaries 1e4 apart (their pull on each other ~1e-8, its tidal part ~1e-12): a tight one
// (separation 0.05, |a| = 200) and a wide one (0.4, |a| = 200 / 64), eta chosen so each wants 1.4 times a
// power of two: the tight pair on 2^-11, the wide on 2^-8, for good (circular orbits keep |a|). Each pair
// must then move as the shared leap-frog moves it alone at its own step: their separations agree to 1e-9
// after 3.5 tight orbits (the far pull cancels in a separation; what is left is round-off: measured 1.6e-14
// for the tight pair, 3.9e-11 for the wide one, drifted in eight pieces a step at x = 1e4, where a double's
// ulp is 2e-12).
TEST(LeapfrogBlockCpu, EachLevelIntegratesItsBodiesAsTheSharedLeapfrogAtItsStep) {
    const double eps = 1e-4, far = 1e4;
    auto binary = [](State& s, double d, double x0) {
        const double v = std::sqrt(0.5 / (2 * d));  // masses 0.5: each circles at d / 2 with v^2 = m / (2 d)
        s.pos_mass.push_back({x0 + 0.5 * d, 0, 0, 0.5});
        s.pos_mass.push_back({x0 - 0.5 * d, 0, 0, 0.5});
        s.vel.push_back({0, v, 0, 0});
        s.vel.push_back({0, -v, 0, 0});
        s.group.resize(s.pos_mass.size(), 0);
    };
    State both, tight, wide;
    binary(both, 0.05, 0), binary(both, 0.4, far), binary(tight, 0.05, 0), binary(wide, 0.4, 0);
    const double a_tight = 0.5 * 0.05 / std::pow(0.05 * 0.05 + eps * eps, 1.5);
    const double eta = 1.4 * std::ldexp(1.0, -11) / std::sqrt(eps / a_tight);
    ASSERT_LT(eta, 1.0);
    CpuBackend block(1);
    block.reset(both, block_params(ForceMethod::Direct, Precision::Fp64, 1.0 / 64, eps, eta));
    test::run_to_sync(block, 0.25);
    EXPECT_EQ(block.block_dt(0), std::ldexp(1.0, -11));
    EXPECT_EQ(block.block_dt(3), std::ldexp(1.0, -8));
    State got;
    block.read_state(got);
    for (const auto& [alone, step, first] : {std::tuple{tight, -11, 0}, std::tuple{wide, -8, 2}}) {
        SimParams p = block_params(ForceMethod::Direct, Precision::Fp64, std::ldexp(1.0, step), eps, eta);
        p.integrator = Integrator::LeapFrog;
        CpuBackend shared(1);
        shared.reset(alone, p);
        while (shared.time() < block.time()) shared.step(1);
        ASSERT_EQ(shared.time(), block.time());
        State want;
        shared.read_state(want);
        const Double4 g0 = got.pos_mass[first], g1 = got.pos_mass[first + 1];
        const Double4 w0 = want.pos_mass[0], w1 = want.pos_mass[1];
        const double dx = (g0.x - g1.x) - (w0.x - w1.x), dy = (g0.y - g1.y) - (w0.y - w1.y);
        testing::Test::RecordProperty("separation_difference_2^" + std::to_string(step),
                                      sci(std::hypot(dx, dy)));
        EXPECT_LT(std::hypot(dx, dy), 1e-9) << "level 2^" << step;
        EXPECT_GT(std::hypot(w0.x - w1.x, w0.y - w1.y), 0.04);  // still a binary, not a collapsed pair
    }
}

// Export after 11 block steps, import into a fresh backend, 13 more on both: every bit the same, direct fp64
// and the tree. The tree's acceleration criterion reads each body's last acceleration, which the import takes
// from the bodies' own (cpu_forces resume); without it the resumed walk opens other cells (3,000 bodies show
// it within 13 steps), for the shared leap-frog as well, checked here too.
TEST(LeapfrogBlockCpu, CheckpointResumesBitForBit) {
    const std::tuple<Integrator, ForceMethod, Precision> runs[] = {
        {Integrator::LeapFrogBlock, ForceMethod::Direct, Precision::Fp64},
        {Integrator::LeapFrogBlock, ForceMethod::Tree, Precision::Fp32},
        {Integrator::LeapFrog, ForceMethod::Tree, Precision::Fp32}};
    for (const auto& [integrator, method, precision] : runs) {
        SimParams p = block_params(method, precision, 1.0 / 32, 0.02, 0.1);
        p.integrator = integrator;
        SCOPED_TRACE(std::string(integrator_name(integrator)) + " " + std::string(method_name(method)));
        const State s0 = test::plummer_state(method == ForceMethod::Tree ? 3000 : 300, 3);
        const IntegratorState st = test::expect_resume_exact(p, s0, 11, 13);
        if (integrator == Integrator::LeapFrog) continue;
        ASSERT_NE(st.array("dt"), nullptr);
        IntegratorState bad = st;  // a step that does not hold the clock is refused by name
        for (auto& [name, values] : bad.arrays)
            if (name == "t") values[5] = -1.0;
        try {
            CpuBackend(1).import_state(bad, p, 0);
            ADD_FAILURE() << "a step that does not hold the clock was taken";
        } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("body 5's step (t, dt) does not hold the clock"),
                      std::string::npos)
                << e.what();
        }
    }
}

// Two bodies falling head-on with eps = 0 (the criterion's eta |v| / |a| shrinks towards the collision): the
// block step that would need less than 2^-40 is refused with words naming the body; the state stays whole
// (finite, before the collision, the clock where the last complete block step left it) and the refused
// body keeps its last step.
TEST(LeapfrogBlockCpu, StepUnderflowIsRefusedNamingTheBodyWithStateKept) {
    const State s0 = test::head_on_pair();
    CpuBackend b(1);
    b.reset(s0, block_params(ForceMethod::Direct, Precision::Fp64, 0.125, 0.0, 0.05));
    double dt_before = 0;
    const std::string msg = test::step_until_refused(b, 400000, &dt_before);
    ASSERT_FALSE(msg.empty()) << "no underflow";
    EXPECT_NE(msg.find("block step underflow: body 0 at t = "), std::string::npos) << msg;
    EXPECT_NE(msg.find("the state is kept"), std::string::npos) << msg;
    EXPECT_EQ(b.block_dt(0), dt_before);
    State s;
    b.read_state(s);
    EXPECT_TRUE(std::isfinite(s.pos_mass[0].x) && std::isfinite(s.vel[0].x));
    EXPECT_GT(s.pos_mass[0].x, 0.0);
    const double t = b.time();
    EXPECT_GT(t, 0.5);  // free fall from rest at separation 1, G M = 1: contact at t = pi / (2 sqrt 2) = 1.11
    EXPECT_LT(t, 1.2);
}

// The row: its name parses, it runs direct and tree in every precision the methods take, block steps with
// its own state, the leap-frog's 20 flops a pair; eta applies to it and out of range is refused with the
// registry's words; distributed runs are refused.
TEST(LeapfrogBlockRows, NamesScopeAndRefusals) {
    EXPECT_EQ(parse_integrator("leapfrog-block"), Integrator::LeapFrogBlock);
    const IntegratorInfo& row = integrator_info(Integrator::LeapFrogBlock);
    EXPECT_EQ(row.scheme, Scheme::KickDriftKickBlock);
    EXPECT_EQ(row.order, 2);
    EXPECT_TRUE(row.block_steps && row.own_state);
    EXPECT_TRUE(row.several_parts);  // with the tree, every GPU holding every body
    EXPECT_FALSE(row.over_ranks);
    EXPECT_EQ(row.flops_per_pair, kFlopsPerInteractionNvidia);
    EXPECT_NE(row.description.find("eta sqrt(eps / |a_i|)"), std::string::npos);
    EXPECT_NE(method_info(ForceMethod::Tree).integrators & bit(Integrator::LeapFrogBlock), 0u);
    EXPECT_TRUE(
        param_applies(*find_param("eta"), block_params(ForceMethod::Tree, Precision::Fp32, 0.01, 0.01, 0.1)));
    EXPECT_FALSE(param_applies(*find_param("eta"), SimParams{}));
    for (Precision pr : {Precision::Fp32, Precision::DS, Precision::Fp64})
        EXPECT_EQ(test::validation_error(block_params(ForceMethod::Direct, pr, 0.01, 0.01, 0.1)), "");
    EXPECT_EQ(test::validation_error(block_params(ForceMethod::Tree, Precision::Fp32, 0.01, 0.01, 0.1)), "");
    for (double eta : {2.0, 0.0, -0.1}) {
        const std::string e =
            test::validation_error(block_params(ForceMethod::Direct, Precision::Fp32, 0.01, 0.01, eta));
        EXPECT_NE(e.find("eta"), std::string::npos) << e;
        EXPECT_NE(e.find(param_problem(*find_param("eta"), eta)), std::string::npos) << e;
    }
    CpuBackend b(1);
    RangePartition part;
    part.begin = 0, part.end = 1, part.gather = [](std::vector<Double4>&) {};
    b.set_partition(part);
    EXPECT_THROW(b.reset(test::plummer_state(8, 1),
                         block_params(ForceMethod::Direct, Precision::Fp32, 0.01, 0.01, 0.1)),
                 ParamError);
}

// One and three threads give the same bits with partial active sets (each row, or each tree group, is summed
// by one thread in a fixed order).
TEST(LeapfrogBlockCpu, ThreadCountDoesNotChangeResults) {
    const State s0 = test::plummer_state(600, 4);
    for (ForceMethod m : {ForceMethod::Direct, ForceMethod::Tree}) {
        State out[2];
        for (int k = 0; k < 2; ++k) {
            SimParams p = block_params(m, Precision::Fp32, 1.0 / 32, 0.02, 0.1);
            p.cpu_threads = 1 + 2 * k;
            CpuBackend b(p.cpu_threads);
            b.reset(s0, p);
            b.step(20);
            b.read_state(out[k]);
        }
        EXPECT_TRUE(test::bit_identical(out[0], out[1])) << method_name(m);
    }
}

// The first block step evaluates only the bodies on the shortest step: direct sums active x N pairs, and the
// tree walks the active bodies' lists only, far fewer interactions than a shared step's full evaluation.
TEST(LeapfrogBlockCpu, WorkCountsTheActiveBodiesOnly) {
    const State s0 = test::plummer_state(2000, 6);
    for (ForceMethod m : {ForceMethod::Direct, ForceMethod::Tree}) {
        CpuBackend b(2);
        b.reset(s0,
                block_params(m, Precision::Fp32, 1.0 / 32, 0.005, 0.1));  // eps small: a wide level spread
        double dt_min = HUGE_VAL;
        for (std::size_t i = 0; i < s0.size(); ++i) dt_min = std::min(dt_min, b.block_dt(i));
        double active = 0;
        for (std::size_t i = 0; i < s0.size(); ++i) active += b.block_dt(i) == dt_min;
        ASSERT_LT(active, 0.5 * double(s0.size())) << method_name(m);
        SimParams shared_p = b.params();
        shared_p.integrator = Integrator::LeapFrog;
        CpuBackend shared(2);
        shared.reset(s0, shared_p);
        shared.step(1);
        const WorkCount full = shared.work(), before = b.work();
        b.step(1);
        const WorkCount step = b.work() - before;
        EXPECT_EQ(step.evaluations, 1);
        EXPECT_EQ(step.equivalent_direct, active * double(s0.size())) << method_name(m);
        EXPECT_EQ(b.time(), dt_min);
        const double evaluated = step.pairs + step.body_cell, full_evaluated = full.pairs + full.body_cell;
        if (m == ForceMethod::Direct) {
            EXPECT_EQ(step.pairs, active * double(s0.size()));
        }
        EXPECT_GT(evaluated, 0.0);
        EXPECT_LT(evaluated, 0.1 * full_evaluated) << method_name(m) << ": " << active << " active";
    }
}
