// Rewind on the CUDA backend: leap-frog keeps its saved states in device memory and a run restored
// from one goes on bit-identically; Hermite goes through the host default; out of memory shrinks the ring.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/session/simulation.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;

namespace {

SimParams rewind_params(Precision prec, Integrator integ = Integrator::LeapFrog) {
    SimParams p;
    p.backend = BackendKind::Cuda;
    p.precision = prec;
    p.integrator = integ;
    p.dt = 0.005;
    p.eps = 0.05;
    return p;
}

// 100 steps saving every 10, back to step 50, 50 steps again: the state of step 100, bit for bit.
void check_rerun(CudaBackend& b, const SimParams& p) {
    b.reset(test::plummer_state(3000), p);
    ASSERT_EQ(b.reserve_snapshots(11), 11);
    for (int i = 0; i < 10; ++i) {
        b.save_snapshot(i);
        b.step(10);
    }
    State at100;
    b.read_state(at100);
    b.restore_snapshot(5);
    EXPECT_EQ(b.steps_taken(), 50);
    EXPECT_DOUBLE_EQ(b.time(), 50 * p.dt);
    b.step(50);
    State again;
    b.read_state(again);
    EXPECT_EQ(b.steps_taken(), 100);
    EXPECT_TRUE(test::bit_identical(at100, again)) << "max difference " << test::max_abs_diff(at100, again);
}

}  // namespace

TEST(CudaRewind, Fp32LeapfrogReRunsBitIdentically) {
    REQUIRE_GPU(b);
    check_rerun(*b, rewind_params(Precision::Fp32));
}

TEST(CudaRewind, DsLeapfrogReRunsBitIdentically) {
    REQUIRE_GPU(b);
    check_rerun(*b, rewind_params(Precision::DS));
}

// The pairs family adds each body's partial sums in a fixed order whatever order its blocks ran in (q = 1 and the
// j-split over warps): a re-run is bit-identical too.
TEST(CudaRewind, PairsReRunsBitIdentically) {
    REQUIRE_GPU(b);
    for (const KernelShape& shape : {variant_info(KernelVariant::Pairs).default_shape, KernelShape{8, 2, 128, 4, 1}}) {
        SimParams p = rewind_params(Precision::Fp32);
        p.kernel_auto = false;
        p.variant = KernelVariant::Pairs;
        p.shape = shape;
        SCOPED_TRACE(kernel_label(p.variant, p.shape));
        check_rerun(*b, p);
    }
}

// The tree keeps its saved states on the device too (positions, velocities, accelerations), and its walk is
// deterministic: a re-run is bit-identical, and a save costs no read-back.
TEST(CudaRewind, TreeReRunsBitIdenticallyFromDeviceSlots) {
    REQUIRE_GPU(b);
    SimParams p = rewind_params(Precision::Fp32);
    p.method = ForceMethod::Tree;
    check_rerun(*b, p);
}

TEST(CudaRewind, TwoPartsReRunBitIdentically) {
    REQUIRE_GPU_PARTS(b, 0, 0);  // the multi-GPU exchange, on one GPU
    check_rerun(*b, rewind_params(Precision::Fp32));
}

TEST(CudaRewind, HermiteGoesThroughTheHostAndGetsTimeAndStepsBack) {
    REQUIRE_GPU(b);
    const SimParams p = rewind_params(Precision::Fp64, Integrator::Hermite);
    b->reset(test::plummer_state(1000), p);
    ASSERT_EQ(b->reserve_snapshots(2), 2);
    b->step(5);
    b->save_snapshot(1);
    State at5;
    b->read_state(at5);
    b->step(20);
    b->restore_snapshot(1);
    EXPECT_EQ(b->steps_taken(), 5);
    State back;
    b->read_state(back);
    EXPECT_TRUE(test::bit_identical(at5, back));
}

TEST(CudaRewind, RestoreUnderAnotherDtRePrimes) {
    REQUIRE_GPU(b);
    SimParams p = rewind_params(Precision::Fp32);
    b->reset(test::plummer_state(2000), p);
    b->reserve_snapshots(1);
    b->step(10);
    b->save_snapshot(0);
    b->step(10);
    p.dt *= 0.5;
    b->set_params(p);
    b->restore_snapshot(0);
    b->step(20);  // as far as the 10 steps of the old dt
    EXPECT_NEAR(b->time(), 20 * 0.005, 1e-12);
    State s;
    b->read_state(s);
    EXPECT_EQ(first_non_finite(s), -1);
}

TEST(CudaRewind, MoreThanFitsShrinksTheRingWithANoteAndInvalidSlotsThrow) {
    REQUIRE_GPU(b);
    b->reset(test::plummer_state(20000), rewind_params(Precision::DS));  // 192 bytes per body per state
    std::string note;
    const int got = b->reserve_snapshots(1 << 30, &note);
    EXPECT_GT(got, 0);
    EXPECT_LT(got, 1 << 30);
    EXPECT_NE(note.find("rewind keeps"), std::string::npos) << note;
    EXPECT_THROW(b->save_snapshot(got), Error);
    EXPECT_THROW(b->restore_snapshot(0), Error);  // reserved, never saved
    b->save_snapshot(got - 1);
    b->step(3);
    b->restore_snapshot(got - 1);
    EXPECT_EQ(b->steps_taken(), 0);
    EXPECT_EQ(b->reserve_snapshots(0), 0);  // frees the device memory
}

// The Simulation's timeline over the CUDA backend, as the Timeline panel drives it: back to t = 0.25, on to
// where the first run stood, bit for bit; then a heavier component from there changes the outcome.
TEST(CudaRewind, SimulationTimelineReRunsAndBranches) {
    REQUIRE_GPU(probe);
    probe.reset();
    Simulation sim([](const SimParams&, BackendChoice*) { return std::make_unique<CudaBackend>(); });
    State s = test::plummer_state(4000);
    for (std::size_t i = 0; i < s.size(); ++i) s.group[i] = uint32_t(i % 2);
    SimParams p = rewind_params(Precision::Fp32);
    p.steps_per_frame = 7;
    sim.load(s, p);
    sim.set_rewind({true, 10 * p.dt, 64});
    for (int f = 0; f < 15; ++f) sim.advance_frame(1.0, 0.0);  // 105 steps
    ASSERT_EQ(sim.rewind().size(), 11);
    State first;
    sim.backend().read_state(first);
    ASSERT_TRUE(sim.scrub_to(0.25));
    EXPECT_EQ(sim.backend().steps_taken(), 50);
    sim.set_paused(false);
    for (int f = 0; f < 7; ++f) sim.advance_frame(1.0, 0.0);  // 99
    sim.pending().steps_per_frame = 6;
    sim.advance_frame(1.0, 0.0);  // 105
    State again;
    sim.backend().read_state(again);
    EXPECT_TRUE(test::bit_identical(first, again)) << test::max_abs_diff(first, again);
    sim.restore(5);
    sim.scale_group_mass(1, 4.0);
    sim.set_paused(false);
    while (sim.backend().steps_taken() < 105) {
        sim.pending().steps_per_frame = int(std::min<long long>(6, 105 - sim.backend().steps_taken()));
        sim.advance_frame(1.0, 0.0);
    }
    ASSERT_EQ(sim.backend().steps_taken(), 105);
    State branched;
    sim.backend().read_state(branched);
    EXPECT_GT(test::max_abs_diff(first, branched), 1e-6);
}
