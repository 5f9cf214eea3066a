// Rewind: the ring's slot bookkeeping, the Backend's default snapshots (host memory, the CPU
// backend), and the Simulation's timeline: bit-identical re-runs, the future dropped on stepping on, mass
// edits.
#include <gtest/gtest.h>

#include <cstring>

#include "core/errors.hpp"
#include "core/session/rewind.hpp"
#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

SimParams params() {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.dt = 0.005;
    p.eps = 0.05;
    p.cpu_threads = 2;
    return p;
}

struct RewindSim : ::testing::Test {
    Simulation sim{
        [](const SimParams& p, BackendChoice*) { return std::make_unique<CpuBackend>(p.cpu_threads); }};
    void SetUp() override {
        State s = test::plummer_state(200);
        for (std::size_t i = 0; i < s.size(); ++i) s.group[i] = uint32_t(i % 3);
        SimParams p = params();
        p.steps_per_frame = 7;  // not a multiple of the stride: the frames are cut at the saves
        sim.load(s, p);
        sim.set_rewind({true, 10 * p.dt, 64});  // a state every 10 steps
    }
    void frames(int n) {
        for (int i = 0; i < n; ++i) sim.advance_frame(1.0, 0.0);
    }
};

}  // namespace

TEST(RewindRing, HandsOutFreeSlotsThenOverwritesTheOldest) {
    RewindRing r;
    r.reset(3);
    EXPECT_EQ(r.capacity(), 3);
    EXPECT_EQ(r.push(0, 0.0), 0);
    EXPECT_EQ(r.push(10, 0.1), 1);
    EXPECT_EQ(r.push(20, 0.2), 2);
    EXPECT_EQ(r.push(30, 0.3), 0);  // full: step 0's slot
    ASSERT_EQ(r.size(), 3);
    EXPECT_EQ(r.at(0).step, 10);
    EXPECT_EQ(r.at(2).step, 30);
    EXPECT_EQ(r.at(2).slot, 0);
    EXPECT_EQ(r.capacity(), 3);
    EXPECT_THROW(r.at(3), std::out_of_range);
}

TEST(RewindRing, NearestAndDropAfter) {
    RewindRing r;
    r.reset(8);
    for (int i = 0; i < 5; ++i) r.push(10 * i, 0.1 * i);
    EXPECT_EQ(r.nearest(0.26), 3);
    EXPECT_EQ(r.nearest(-5), 0);
    EXPECT_EQ(r.nearest(99), 4);
    r.drop_after(20);
    ASSERT_EQ(r.size(), 3);
    EXPECT_EQ(r.at(2).step, 20);
    // The freed slots are handed out again, and a push at an earlier step replaces what came after.
    const int s = r.push(25, 0.25);
    EXPECT_TRUE(s == 3 || s == 4);
    r.push(15, 0.15);
    ASSERT_EQ(r.size(), 3);
    EXPECT_EQ(r.at(2).step, 15);
    RewindRing off;
    off.reset(0);
    EXPECT_EQ(off.push(0, 0), -1);
    EXPECT_EQ(off.nearest(0), -1);
}

TEST(RewindRing, StrideRoundsToWholeSteps) {
    EXPECT_EQ(rewind_stride(0.05, 1.0 / 128), 6);
    EXPECT_EQ(rewind_stride(0.001, 0.01), 1);
    EXPECT_EQ(rewind_stride(0.05, 0.0), 1);
}

TEST(CpuBackendRewind, RestoreStep50ThenRun50IsBitIdenticalToStep100) {
    CpuBackend b(2);
    b.reset(test::plummer_state(300), params());
    ASSERT_EQ(b.reserve_snapshots(11), 11);
    for (int i = 0; i < 10; ++i) {
        b.save_snapshot(i);
        b.step(10);
    }
    b.save_snapshot(10);
    State at100;
    b.read_state(at100);
    ASSERT_EQ(b.steps_taken(), 100);
    b.restore_snapshot(5);
    EXPECT_EQ(b.steps_taken(), 50);
    EXPECT_DOUBLE_EQ(b.time(), 50 * params().dt);
    b.step(50);
    State again;
    b.read_state(again);
    EXPECT_EQ(b.steps_taken(), 100);
    EXPECT_TRUE(test::bit_identical(at100, again)) << test::max_abs_diff(at100, again);
}

TEST(CpuBackendRewind, InvalidSlotIsAnErrorAndKeepsTheState) {
    CpuBackend b(1);
    b.reset(test::plummer_state(50), params());
    b.reserve_snapshots(4);
    b.step(3);
    State before;
    b.read_state(before);
    EXPECT_THROW(b.restore_snapshot(2), Error);  // reserved, never saved
    EXPECT_THROW(b.restore_snapshot(4), Error);
    EXPECT_THROW(b.restore_snapshot(-1), Error);
    EXPECT_THROW(b.save_snapshot(7), Error);
    State after;
    b.read_state(after);
    EXPECT_TRUE(test::bit_identical(before, after));
    EXPECT_EQ(b.steps_taken(), 3);
    EXPECT_EQ(b.reserve_snapshots(0), 0);
    EXPECT_THROW(b.save_snapshot(0), Error);
}

TEST_F(RewindSim, RecordsEveryStrideAndReRunsBitIdentically) {
    frames(15);  // 105 steps
    const RewindRing& r = sim.rewind();
    ASSERT_EQ(r.size(), 11);  // steps 0, 10, ..., 100
    for (int i = 0; i < r.size(); ++i) EXPECT_EQ(r.at(i).step, 10 * i);
    State at105;
    sim.backend().read_state(at105);
    sim.restore(5);
    EXPECT_TRUE(sim.paused());
    EXPECT_EQ(sim.backend().steps_taken(), 50);
    EXPECT_EQ(sim.rewind().size(), 11);  // scrubbing keeps the later states
    sim.set_paused(false);
    frames(7);  // 49 steps, cut at 60, 70, 80, 90
    sim.pending().steps_per_frame = 6;
    frames(1);  // 105
    State again;
    sim.backend().read_state(again);
    EXPECT_EQ(sim.backend().steps_taken(), 105);
    EXPECT_TRUE(test::bit_identical(at105, again)) << test::max_abs_diff(at105, again);
}

TEST_F(RewindSim, SteppingOnFromARestoredStateDropsTheFuture) {
    frames(15);
    sim.restore(3);  // step 30
    sim.restore(8);  // scrubbing forward again works
    EXPECT_EQ(sim.backend().steps_taken(), 80);
    sim.restore(3);
    sim.pending().dt = 0.0025;  // another dt from here: the next stride is 20 of these steps
    sim.request_step();
    sim.advance_frame(1.0, 0.0);
    ASSERT_EQ(sim.rewind().size(), 4);  // 0..30 kept, 40..100 gone
    EXPECT_EQ(sim.rewind().at(3).step, 30);
    sim.set_paused(false);
    frames(3);
    ASSERT_EQ(sim.rewind().size(), 5);
    EXPECT_EQ(sim.rewind().at(4).step, 50);
    EXPECT_NEAR(sim.rewind().at(4).time, 30 * 0.005 + 20 * 0.0025, 1e-12);
}

TEST_F(RewindSim, FullRingOverwritesTheOldest) {
    sim.set_rewind({true, 10 * params().dt, 4});
    frames(10);  // 70 steps: saves at 0..70, four kept
    ASSERT_EQ(sim.rewind().size(), 4);
    EXPECT_EQ(sim.rewind().at(0).step, 40);
    EXPECT_EQ(sim.rewind().at(3).step, 70);
    sim.restore(0);
    EXPECT_EQ(sim.backend().steps_taken(), 40);
    EXPECT_THROW(sim.restore(4), Error);
    EXPECT_THROW(sim.restore(-1), Error);
    EXPECT_EQ(sim.backend().steps_taken(), 40);
}

TEST_F(RewindSim, ResetAndOffStartNewTimelines) {
    frames(5);
    sim.reset();
    EXPECT_EQ(sim.rewind().size(), 1);
    sim.set_rewind({false, 0.05, 64});
    EXPECT_EQ(sim.rewind().capacity(), 0);
    frames(3);
    EXPECT_EQ(sim.rewind().size(), 0);
    EXPECT_THROW(sim.restore(0), Error);
}

TEST_F(RewindSim, ScalingAGroupsMassKeepsTheRestAndBranchesTheTimeline) {
    frames(10);      // 70 steps
    sim.restore(4);  // step 40
    State before;
    sim.backend().read_state(before);
    sim.scale_group_mass(2, 3.0);
    State after;
    sim.backend().read_state(after);
    for (std::size_t i = 0; i < after.size(); ++i) {
        const double want = before.group[i] == 2 ? 3.0 * before.pos_mass[i].w : before.pos_mass[i].w;
        EXPECT_DOUBLE_EQ(after.pos_mass[i].w, want);
        EXPECT_EQ(after.pos_mass[i].x, before.pos_mass[i].x);
        EXPECT_EQ(after.vel[i].y, before.vel[i].y);
    }
    EXPECT_EQ(sim.backend().steps_taken(), 40);
    EXPECT_DOUBLE_EQ(sim.backend().time(), before.time);
    ASSERT_EQ(sim.rewind().size(), 5);  // 0..30, and 40 saved again with the new masses
    sim.restore(4);
    State restored;
    sim.backend().read_state(restored);
    EXPECT_TRUE(test::bit_identical(after, restored));
    EXPECT_THROW(sim.scale_group_mass(2, 0.0), Error);
    EXPECT_THROW(sim.scale_group_mass(2, -1.0), Error);
    EXPECT_THROW(sim.scale_group_mass(7, 2.0), Error);  // no such group
}

TEST_F(RewindSim, ScrubbingRestoresTheNearestStateOnce) {
    frames(15);  // saves every 0.05 up to t = 0.5
    EXPECT_TRUE(sim.scrub_to(0.26));
    EXPECT_EQ(sim.backend().steps_taken(), 50);
    EXPECT_TRUE(sim.paused());
    EXPECT_FALSE(sim.scrub_to(0.24));  // the same state: nothing to do
    EXPECT_TRUE(sim.scrub_to(-3.0));   // before the first: the first
    EXPECT_EQ(sim.backend().steps_taken(), 0);
    sim.set_rewind({false, 0.05, 8});
    EXPECT_FALSE(sim.scrub_to(0.1));
}

TEST_F(RewindSim, ANewIntegratorStartsANewTimelineThatStillRewinds) {
    frames(10);
    sim.pending().integrator = Integrator::Hermite;
    frames(1);  // applied, then 7 Hermite steps
    ASSERT_GE(sim.rewind().size(), 1);
    EXPECT_EQ(sim.rewind().at(0).step, 70);  // the timeline starts where the switch happened
    frames(3);
    ASSERT_GE(sim.rewind().size(), 2);
    sim.restore(0);
    EXPECT_EQ(sim.backend().steps_taken(), 70);
    EXPECT_NEAR(sim.backend().time(), 70 * params().dt, 1e-12);
    EXPECT_TRUE(sim.error().empty());
}
