// The tree engine on several parts (cuda/tree/tree_engine.cuh): every part holds every body and the same
// tree, walks a share of the groups and the walked accelerations are exchanged, so a run on several parts is
// the run on one bit for bit: positions, velocities and accelerations after 100 shared steps and after block
// steps on several levels, on parts sharing GPU 0 and on two GPUs where the machine has them; rewind on two
// parts comes back bit for bit; the stage times say how the walk was shared and what the exchange moved.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../unit/tree_test_util.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;

namespace {

SimParams tree_params(Integrator integrator) {
    SimParams p;
    p.method = ForceMethod::Tree;
    p.integrator = integrator;
    p.dt = integrator == Integrator::LeapFrogBlock ? 1.0 / 16 : 1.0 / 128;
    p.eta = 0.05;  // block steps: Plummer bodies over several levels
    p.eps = 0.01;
    return p;
}

// Steps `one` and `many` alike `steps` times and expects the same bits in every body's position, velocity
// and acceleration.
void expect_same_run(Backend& one, Backend& many, const State& s0, const SimParams& p, int steps) {
    one.reset(s0, p), many.reset(s0, p);
    one.step(steps), many.step(steps);
    State a, b;
    one.read_state(a), many.read_state(b);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(a.time, b.time);
    EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Double4))) << "positions";
    EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Double4))) << "velocities";
    std::vector<Double4> fa, fb;
    one.read_accelerations(fa), many.read_accelerations(fb);
    ASSERT_EQ(fa.size(), fb.size());
    EXPECT_EQ(0, std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(Double4))) << "accelerations";
    EXPECT_EQ(one.work().pairs, many.work().pairs);  // the parts' walks counted together
    EXPECT_EQ(one.work().body_cell, many.work().body_cell);
}

std::size_t test_n() { return test::within_cap(100003) ? 100003 : 7499; }

int cuda_devices() {
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}

}  // namespace

TEST(TreeParts, TwoAndThreePartsRunAsOneBitForBit) {
    REQUIRE_GPU(one);
    const State s0 = rounded_to_float32(test::plummer_state(test_n(), 3));
    for (int parts : {2, 3}) {
        // Two parts: the walks write into each other's buffers; three: copies after the walks.
        const bool copies = parts == 3;
        if (copies) setenv("NBODY_TREE_EXCHANGE_COPY", "1", 1);
        REQUIRE_GPU_PARTS(many, std::vector<int>(std::size_t(parts), 0));
        expect_same_run(*one, *many, s0, tree_params(Integrator::LeapFrog), 100);
        const std::string stages = many->readouts().stage_times;
        unsetenv("NBODY_TREE_EXCHANGE_COPY");
        EXPECT_NE(stages.find(copies ? "(peer to peer copies)" : "(peer to peer, written by the walks)"),
                  std::string::npos)
            << stages;
        EXPECT_NE(stages.find("on " + std::to_string(parts) + " parts: 100 of the evaluations shared out the walk"),
                  std::string::npos)
            << stages;
        EXPECT_NE(stages.find(" MB a step"), std::string::npos) << stages;
    }
}

TEST(TreeParts, BlockStepsOnTwoPartsRunAsOneBitForBit) {
    REQUIRE_GPU(one);
    REQUIRE_GPU_PARTS(two, 0, 0);
    const State s0 = rounded_to_float32(test::plummer_state(test_n(), 4));
    expect_same_run(*one, *two, s0, tree_params(Integrator::LeapFrogBlock), 40);
    const Readouts out = two->readouts(ReadoutAsk::levels());
    ASSERT_TRUE(out.block_levels);
    std::size_t levels = 0;
    for (std::size_t c : out.block_levels->count) levels += c > 0;
    EXPECT_GE(levels, 2u) << "the bodies on one level: not a test of block steps";
    // The block steps with at least 1/16 of the bodies due share out their walks (the others walk on every part).
    const std::string& stages = out.stage_times;
    const std::size_t at = stages.find("of the evaluations shared out the walk");
    ASSERT_NE(at, std::string::npos) << stages;
    const std::size_t from = stages.rfind(' ', at - 2);
    EXPECT_GT(std::atoll(stages.c_str() + from + 1), 0) << stages;
}

TEST(TreeParts, TwoGpusRunAsOneBitForBit) {
    if (cuda_devices() < 2) GTEST_SKIP() << "one CUDA device: the two-GPU run needs two";
    REQUIRE_GPU(one);
    REQUIRE_GPU_PARTS(two, 0, 1);
    const State s0 = rounded_to_float32(test::plummer_state(test_n(), 5));
    expect_same_run(*one, *two, s0, tree_params(Integrator::LeapFrog), 100);
    expect_same_run(*one, *two, s0, tree_params(Integrator::LeapFrogBlock), 40);
}

TEST(TreeParts, RewindOnTwoPartsComesBackBitForBit) {
    REQUIRE_GPU_PARTS(two, 0, 0);
    for (Integrator integrator : {Integrator::LeapFrog, Integrator::LeapFrogBlock}) {
        two->reset(rounded_to_float32(test::plummer_state(20000, 6)), tree_params(integrator));
        two->step(3);
        ASSERT_EQ(two->reserve_snapshots(1), 1);
        two->save_snapshot(0);
        two->step(7);
        State a, b;
        two->read_state(a);
        two->restore_snapshot(0);
        two->step(7);
        two->read_state(b);
        EXPECT_EQ(a.time, b.time);
        EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Double4)));
        EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Double4)));
    }
}
