// The CUDA tree engine with block steps (leapfrog-block, cuda/tree/tree_block_steps.cu) against the shared
// engine and the CPU reference (LeapfrogBlockCpu over the CPU tree): one level is the shared leap-frog bit for
// bit; on several levels it follows the CPU's run, keeps energy, puts a tight binary deeper than its field and
// evaluates only a fraction of the bodies a step; rewind comes back bit for bit; an underflow is refused in
// words.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/backend/block_levels.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/physics/hermite.hpp"
#include "cpu/cpu_backend.hpp"
#include "../unit/tree_test_util.hpp"
#include "gpu_test_util.hpp"
#include "tree_gpu_compare.hpp"

using namespace nbody;

namespace {

SimParams block_tree(double dt, double eps, double eta) {
    SimParams p;
    p.method = ForceMethod::Tree;
    p.integrator = Integrator::LeapFrogBlock;
    p.dt = dt;
    p.eps = eps;
    p.eta = eta;
    p.cpu_threads = 2;
    return p;
}

double energy_error(const State& s0, Backend& b, const SimParams& p) {
    State s;
    b.read_state(s);
    return relative_energy_error(compute_diagnostics(s0, p.eps, p.G, 2), compute_diagnostics(s, p.eps, p.G, 2));
}

// A count from the engine's stage times ("...; 12 refitted the last tree, 30 summed the due bodies
// directly"): the number before `what`; -1 where it is missing.
long long count_before(Backend& b, const char* what) {
    const std::string t = b.readouts().stage_times;
    const std::size_t at = t.find(what);
    if (at == std::string::npos || at == 0) return -1;
    const std::size_t from = t.rfind(' ', at - 1);
    return std::atoll(t.c_str() + (from == std::string::npos ? 0 : from + 1));
}

std::size_t levels_used(const BlockLevels& l) {
    return std::size_t(std::count_if(l.count.begin(), l.count.end(), [](std::size_t c) { return c > 0; }));
}

}  // namespace

// eta so large that every body wants more than dt (Plummer 4,096, eps 0.05, eta 1: |a| < 3, sqrt(eps / |a|) >
// 0.12 > 1/32): one level, and every bit of positions and velocities equals the shared tree engine's after each step.
TEST(TreeBlockGpu, OneLevelIsTheSharedTreeEngineBitForBit) {
    REQUIRE_GPU(block);
    std::string why;
    auto shared = test::backend_or_null({0}, why);
    ASSERT_TRUE(shared) << why;
    const State s0 = rounded_to_float32(test::plummer_state(4096, 9));
    SimParams pb = block_tree(1.0 / 32, 0.05, 1.0), ps = pb;
    ps.integrator = Integrator::LeapFrog;
    block->reset(s0, pb);
    shared->reset(s0, ps);
    for (int k = 0; k < 12; ++k) {
        block->step(1), shared->step(1);
        State a, b;
        block->read_state(a), shared->read_state(b);
        for (std::size_t i = 0; i < s0.size(); ++i) {
            ASSERT_EQ(a.pos_mass[i].x, b.pos_mass[i].x) << "body " << i << " step " << k + 1;
            ASSERT_EQ(a.pos_mass[i].z, b.pos_mass[i].z) << "body " << i << " step " << k + 1;
            ASSERT_EQ(a.vel[i].y, b.vel[i].y) << "body " << i << " step " << k + 1;
        }
        ASSERT_EQ(block->time(), shared->time());
    }
    const std::optional<BlockLevels> l = block->readouts(ReadoutAsk::levels()).block_levels;
    ASSERT_TRUE(l);
    EXPECT_EQ(l->dt_max, 1.0 / 32);
    ASSERT_EQ(l->count.size(), 1u);
    EXPECT_EQ(l->count[0], s0.size());
    EXPECT_EQ(l->last_active, s0.size());
    EXPECT_FALSE(shared->readouts(ReadoutAsk::levels()).block_levels);
}

// Plummer 7,499, eps 0.01, largest step 1/32, eta 0.1 (several levels) to t = 0.5, GPU against the CPU
// reference over its own tree (the same opening decisions; float sums in another order, so a body near a
// level's edge may choose the other level): the same time, positions to 1e-3 at worst and 1e-5 at the
// median, the same levels in use, a like active fraction, and energy within the scheme's bound (eta^2 / 4
// = 2.5e-3, core/physics/leapfrog.hpp) and near the CPU's.
TEST(TreeBlockGpu, FollowsTheCpuReference) {
    REQUIRE_GPU(gpu);
    const std::size_t n = 7499;
    const State s0 = rounded_to_float32(test::plummer_state(n, 17));
    const SimParams p = block_tree(1.0 / 32, 0.01, 0.1);
    CpuBackend cpu(2);
    cpu.reset(s0, p);
    gpu->reset(s0, p);
    const long long cpu_steps = test::run_to_sync(cpu, 0.5), gpu_steps = test::run_to_sync(*gpu, 0.5);
    ASSERT_EQ(gpu->time(), cpu.time());
    EXPECT_NEAR(double(gpu_steps), double(cpu_steps), 0.1 * double(cpu_steps));
    State a, b;
    cpu.read_state(a), gpu->read_state(b);
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double dx = a.pos_mass[i].x - b.pos_mass[i].x, dy = a.pos_mass[i].y - b.pos_mass[i].y,
                     dz = a.pos_mass[i].z - b.pos_mass[i].z;
        d[i] = std::sqrt(dx * dx + dy * dy + dz * dz);
    }
    std::nth_element(d.begin(), d.begin() + n / 2, d.end());
    EXPECT_LT(d[n / 2], 1e-5) << "median position difference";
    EXPECT_LT(*std::max_element(d.begin(), d.end()), 1e-3) << "largest position difference";
    const BlockLevels lg = *gpu->readouts(ReadoutAsk::levels()).block_levels;
    const BlockLevels lc = block_levels_of(n, 1.0 / 32, 0, [&](std::size_t i) { return cpu.block_dt(i); });
    EXPECT_GE(levels_used(lg), 2u);
    EXPECT_EQ(levels_used(lg), levels_used(lc));
    const WorkCount wg = gpu->work(), wc = cpu.work();
    EXPECT_NEAR(wg.equivalent_direct, wc.equivalent_direct, 0.1 * wc.equivalent_direct);
    EXPECT_LT(wg.equivalent_direct, 0.9 * double(wg.evaluations) * double(n) * double(n));
    // its deepest levels' steps were summed directly, as the CPU's (core/tree/sub_step_rule.hpp)
    EXPECT_GT(count_before(*gpu, " summed the due bodies directly"), 0) << gpu->readouts().stage_times;
    const double eg = energy_error(s0, *gpu, p), ec = energy_error(s0, cpu, p);
    testing::Test::RecordProperty("gpu_energy", std::to_string(eg));
    testing::Test::RecordProperty("cpu_energy", std::to_string(ec));
    EXPECT_LT(eg, 2.5e-3);
    EXPECT_LT(eg, 2 * ec + 1e-5);
}

// A tight binary (masses 0.02, 0.01 apart) in a 2,000-body Plummer field, eps 1e-3, eta 0.2, largest step
// 1/64: the binary three or more levels below the field's median step, few bodies a block step, energy
// within eta^2 / 4 = 1e-2 halved (the CPU's test of the same scheme).
TEST(TreeBlockGpu, ATightBinaryTakesShorterStepsThanItsField) {
    REQUIRE_GPU(gpu);
    const State s = rounded_to_float32(test::binary_in_a_field(2000));
    const SimParams p = block_tree(1.0 / 64, 1e-3, 0.2);
    gpu->reset(s, p);
    const BlockLevels l0 = *gpu->readouts(ReadoutAsk::levels()).block_levels;
    std::size_t half = 0, median_level = 0;
    while (half + l0.count[median_level] < s.size() / 2) half += l0.count[median_level++];
    EXPECT_GE(l0.count.size(), median_level + 4) << "the binary's level below the field's median";
    const long long before = gpu->work().evaluations;
    const double pairs0 = gpu->work().equivalent_direct;
    test::run_to_sync(*gpu, 0.5);
    const double nn = double(s.size()) * double(s.size());
    const double active = (gpu->work().equivalent_direct - pairs0) / nn / double(gpu->work().evaluations - before);
    testing::Test::RecordProperty("active_fraction", std::to_string(active));
    EXPECT_LT(active, 0.25);
    // the binary's levels alone are due at most steps: summed directly (core/tree/sub_step_rule.hpp)
    EXPECT_GT(count_before(*gpu, " summed the due bodies directly"), 0) << gpu->readouts().stage_times;
    EXPECT_LT(energy_error(s, *gpu, p), 5e-3);
}

// Rewind on the device: a block step saved mid-run (bodies inside their steps) and restored runs on bit for bit.
TEST(TreeBlockGpu, RewindResumesBitForBit) {
    REQUIRE_GPU(gpu);
    const State s0 = rounded_to_float32(test::plummer_state(3000, 4));
    gpu->reset(s0, block_tree(1.0 / 32, 0.01, 0.1));
    gpu->step(5);
    ASSERT_EQ(gpu->reserve_snapshots(1), 1);
    gpu->save_snapshot(0);
    const double t_saved = gpu->time();
    gpu->step(7);
    State first;
    gpu->read_state(first);
    const double t_first = gpu->time();
    gpu->restore_snapshot(0);
    EXPECT_EQ(gpu->time(), t_saved);
    gpu->step(7);
    State again;
    gpu->read_state(again);
    EXPECT_EQ(gpu->time(), t_first);
    for (std::size_t i = 0; i < s0.size(); ++i) {
        ASSERT_EQ(first.pos_mass[i].x, again.pos_mass[i].x) << i;
        ASSERT_EQ(first.vel[i].z, again.vel[i].z) << i;
    }
}

// Without softening the criterion is eta |v| / |a|: a pair of unit masses 1e-6 apart (|a| ~ 1e12) moving at
// ~0.5 wants ~5e-14, below the floor 2^-40: refused in words at the reset, never a CUDA error.
TEST(TreeBlockGpu, AStepBelowTheFloorIsRefusedInWords) {
    REQUIRE_GPU(gpu);
    State s = test::plummer_state(64, 2);
    s.pos_mass[3] = {0.1, 0.1, 0.1, 1.0};
    s.pos_mass[4] = {0.1 + 1e-6, 0.1, 0.1, 1.0};
    s.vel[3] = {0, 0.5, 0, 0};
    s.vel[4] = {0, -0.5, 0, 0};
    try {
        gpu->reset(s, block_tree(1.0 / 32, 0.0, 0.1));
        FAIL() << "no refusal";
    } catch (const BackendError& e) {
        EXPECT_NE(std::string(e.what()).find("block step underflow: body 3"), std::string::npos) << e.what();
    }
}

// The GPU tree's refit (core/tree/sub_step_rule.hpp) is the CPU tree's: after a build, every body moved by about
// 0.1 and 100 pairs swapped, a quarter of the bodies active: both refit, walk the same lists and give the same
// forces up to the order of float32 sums (as their builds do, test_tree_gpu.cpp).
TEST(TreeBlockGpu, ARefitIsTheCpuTreesRefit) {
    REQUIRE_GPU_TREE(g);
    auto bodies = test::as_float4(test::plummer_state(20000, 6));
    const std::size_t n = bodies.size();
    const TreeParams p{};
    const double eps = 0.01;
    CpuTree c(2);
    std::vector<Float4> ca(n);
    c.evaluate(bodies.data(), n, p, eps, ca.data());
    float4 *d_pos = nullptr, *d_acc = nullptr;
    uint8_t* d_active = nullptr;
    ASSERT_EQ(cudaMalloc(&d_pos, n * sizeof(float4)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_acc, n * sizeof(float4)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_active, n), cudaSuccess);
    cudaMemcpy(d_pos, bodies.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    TreeStats gs, cs;
    g->evaluate_device(d_pos, n, p, eps, d_acc, &gs);
    EXPECT_FALSE(gs.refitted);
    test::scatter_bodies(bodies, 2, 0.06f, 100);
    std::vector<uint8_t> active(n, 0);
    for (std::size_t i = 0; i < n; i += 4) active[i] = 1;
    // both walks read the same last accelerations (the CPU tree's), so the acceleration criterion decides alike
    std::vector<Float4> ga = ca;
    cudaMemcpy(d_pos, bodies.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemcpy(d_acc, ga.data(), n * sizeof(float4), cudaMemcpyHostToDevice);
    cudaMemcpy(d_active, active.data(), n, cudaMemcpyHostToDevice);
    g->evaluate_device(d_pos, n, p, eps, d_acc, &gs, true, d_active, true);
    c.evaluate_active(bodies.data(), n, active.data(), p, eps, ca.data(), &cs, true, true);
    cudaMemcpy(ga.data(), d_acc, n * sizeof(float4), cudaMemcpyDeviceToHost);
    cudaFree(d_pos), cudaFree(d_acc), cudaFree(d_active);
    EXPECT_TRUE(gs.refitted);
    EXPECT_TRUE(cs.refitted);
    EXPECT_EQ(gs.body_body, cs.body_body);
    EXPECT_EQ(gs.body_cell, cs.body_cell);
    std::vector<double> rel;
    for (std::size_t i = 0; i < n; ++i) {
        if (!active[i]) continue;
        const double dx = ga[i].x - ca[i].x, dy = ga[i].y - ca[i].y, dz = ga[i].z - ca[i].z;
        const double a = std::sqrt(double(ca[i].x) * ca[i].x + double(ca[i].y) * ca[i].y + double(ca[i].z) * ca[i].z);
        rel.push_back(std::sqrt(dx * dx + dy * dy + dz * dz) / (a + 1e-30));
    }
    std::sort(rel.begin(), rel.end());
    EXPECT_LT(rel[rel.size() / 2], 1e-5) << "median difference from the CPU tree's refit, relative";
    EXPECT_LT(rel.back(), 5e-4) << "largest difference from the CPU tree's refit, relative";
}

// The window's picked bodies read alone (CudaBackend::read_bodies_of through TreeEngine::read_bodies_alone):
// the same positions and velocities as the whole state's rows, with shared and with block steps (whose
// velocities are brought to the clock), and a body past the end refused in words.
TEST(TreeBlockGpu, PickedBodiesReadAloneAreTheStatesRows) {
    REQUIRE_GPU(gpu);
    const State s0 = rounded_to_float32(test::plummer_state(8000, 3));
    const std::vector<std::size_t> rows = {5, 4321, 7999};
    for (Integrator in : {Integrator::LeapFrog, Integrator::LeapFrogBlock}) {
        SimParams p = block_tree(1.0 / 32, 0.01, 0.1);
        p.integrator = in;
        gpu->reset(s0, p);
        gpu->step(3);
        State all;
        gpu->read_state(all);
        std::vector<Double4> pos, vel;
        gpu->read_bodies_of(rows, pos, vel);
        ASSERT_EQ(pos.size(), rows.size());
        ASSERT_EQ(vel.size(), rows.size());
        for (std::size_t r = 0; r < rows.size(); ++r) {
            EXPECT_EQ(pos[r].x, all.pos_mass[rows[r]].x) << rows[r];
            EXPECT_EQ(pos[r].w, all.pos_mass[rows[r]].w) << rows[r];
            EXPECT_EQ(vel[r].y, all.vel[rows[r]].y) << rows[r];
            EXPECT_EQ(vel[r].z, all.vel[rows[r]].z) << rows[r];
        }
        EXPECT_THROW(gpu->read_bodies_of({8000}, pos, vel), Error);
    }
}
