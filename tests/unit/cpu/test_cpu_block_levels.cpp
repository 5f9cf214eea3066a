// The CPU backend's block levels (Readouts::block_levels): the level histogram of every block-step row read
// from the integrator's own steps, and the last block step's active count; nothing under shared steps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <numeric>
#include <optional>
#include <string>

#include "core/physics/hermite.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/hermite_test_util.hpp"

using namespace nbody;

namespace {

SimParams params(Integrator in, ForceMethod m, Precision pr) {
    SimParams p = test::hermite_params(in, pr, 1.0 / 64, 1e-3);
    p.method = m;
    p.eta = in == Integrator::LeapFrogBlock ? 0.2 : 0.02;
    return p;
}

std::size_t total(const BlockLevels& l) {
    return std::accumulate(l.count.begin(), l.count.end(), std::size_t{0});
}

// The histogram against each body's own step (CpuBackend::block_dt), level by level.
void expect_matches_steps(CpuBackend& b, const BlockLevels& l) {
    EXPECT_EQ(l.dt_max, hermite::floor_pow2(b.params().dt));
    std::vector<std::size_t> want(l.count.size(), 0);
    for (std::size_t i = 0; i < b.size(); ++i) {
        const double k = std::log2(l.dt_max / b.block_dt(i));
        ASSERT_EQ(k, std::round(k)) << "body " << i << "'s step " << b.block_dt(i) << " is not on a level";
        ASSERT_LT(std::size_t(k), want.size()) << "body " << i << " below the deepest level";
        ++want[std::size_t(k)];
    }
    EXPECT_EQ(l.count, want);
}

}  // namespace

// Direct fp64 and the fp32 tree: several levels, the binary alone on the deepest, the counts the bodies'. The
// last active count is 0 before the first block step, then each step's: direct summation's work a block step
// is active x N pairs, so the work counter says the same count independently.
TEST(CpuBlockLevels, LeapfrogBlockBinaryInAFieldSpreadsOverLevels) {
    const State s = test::binary_in_a_field(200);
    const std::size_t n = s.size();
    for (const ForceMethod method : {ForceMethod::Direct, ForceMethod::Tree}) {
        SCOPED_TRACE(std::string(method_name(method)));
        const Precision pr = method == ForceMethod::Tree ? Precision::Fp32 : Precision::Fp64;
        CpuBackend b(2);
        b.reset(s, params(Integrator::LeapFrogBlock, method, pr));
        std::optional<BlockLevels> l = b.readouts(ReadoutAsk::levels()).block_levels;
        ASSERT_TRUE(l.has_value());
        EXPECT_EQ(l->last_active, 0u);
        for (int k = 0; k < 40; ++k) {
            const double pairs = b.work().equivalent_direct;
            b.step(1);
            l = b.readouts(ReadoutAsk::levels()).block_levels;
            ASSERT_TRUE(l.has_value());
            EXPECT_EQ(total(*l), n);
            EXPECT_GE(l->last_active, 2u);  // the binary is due every block step: it sets the shortest step
            EXPECT_LE(l->last_active, n);
            if (method == ForceMethod::Direct) {
                EXPECT_EQ(double(l->last_active) * double(n), b.work().equivalent_direct - pairs) << k;
            }
        }
        expect_matches_steps(b, *l);
        int occupied = 0;
        for (std::size_t c : l->count) occupied += c > 0;
        EXPECT_GE(occupied, 3);
        EXPECT_EQ(l->count.back(), 2u);  // the binary, alone on the deepest level
        EXPECT_LT(l->last_active, n);    // a block step that moved the whole field would be shared steps
    }
}

// Every block-step row answers, each from its own integrator's steps; the shared-step rows do not.
TEST(CpuBlockLevels, EveryBlockStepRowAnswersAndSharedStepsDoNot) {
    const State s = test::binary_in_a_field(64);
    for (const Integrator in :
         {Integrator::LeapFrogBlock, Integrator::HermiteBlock, Integrator::Hermite6Block,
          Integrator::LeapFrog, Integrator::Hermite, Integrator::Hermite6}) {
        SCOPED_TRACE(std::string(integrator_name(in)));
        CpuBackend b(2);
        b.reset(s, params(in, ForceMethod::Direct, Precision::Fp64));
        b.step(3);
        const std::optional<BlockLevels> l = b.readouts(ReadoutAsk::levels()).block_levels;
        if (!integrator_info(in).block_steps) {
            EXPECT_FALSE(l.has_value());
            continue;
        }
        ASSERT_TRUE(l.has_value());
        EXPECT_EQ(total(*l), s.size());
        EXPECT_GT(l->count.size(), 1u);
        EXPECT_GE(l->last_active, 1u);
        expect_matches_steps(b, *l);
    }
}

// A restart (another eta) forgets the last block step; a switch to shared steps ends the histogram.
TEST(CpuBlockLevels, ARestartForgetsTheLastStepAndSharedStepsEndIt) {
    CpuBackend b(2);
    SimParams p = params(Integrator::LeapFrogBlock, ForceMethod::Direct, Precision::Fp64);
    b.reset(test::binary_in_a_field(64), p);
    b.step(2);
    ASSERT_GT(b.readouts(ReadoutAsk::levels()).block_levels->last_active, 0u);
    p.eta = 0.1;
    b.set_params(p);
    EXPECT_EQ(b.readouts(ReadoutAsk::levels()).block_levels->last_active, 0u);
    p.integrator = Integrator::LeapFrog;
    b.set_params(p);
    b.step(1);
    EXPECT_FALSE(b.readouts(ReadoutAsk::levels()).block_levels.has_value());
}
