// GPU tests (label gpu) of the engine's axes: the three precisions, the j split over blocks and several
// device parts. They skip, saying why, where no CUDA device can be used; run them on the device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/errors.hpp"
#include "cpu/reference_force.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"
#include "../unit/test_util.hpp"

using namespace nbody;

namespace {

SimParams with_precision(Precision pr, double eps = 0.01) {
    SimParams p;
    p.precision = pr;
    p.eps = eps;
    return p;
}

ForceError force_error(CudaBackend& b, const State& s, const SimParams& p) {
    b.reset(s, p);
    std::vector<Double4> acc;
    b.read_accelerations(acc);
    return compare_forces(acc, reference_accelerations(s, p.eps, p.G));
}

}  // namespace

// fp64: every operation in double, rsqrt from the approximate instruction refined to double (error of the
// series ~ (2^-23)^3); sums of 4,096 terms in double keep ~1e-15 relative. Bound 1e-12: three orders above
// that and ten below fp32, so a float anywhere in the chain (~6e-8) fails it.
// ds: differences formed in double-single and rounded to float, the rest float, sums flushed into double every
// 32 terms. Each term keeps a float rounding (~1e-7), but the sums no longer add rounding that grows with N
// as fp32's do. Measured on the H200 at N = 4,096: fp32 5.1e-8 median / 5.0e-7 max, ds 2.2e-8 / 4.0e-7 (the
// per-term rounding dominates both there). At N = 32,768 fp32's sums have grown (its median ~4x) and ds's
// have not: bound ds median < fp32 median / 4 and ds max < fp32 max / 2. fp32 here is the ij family, one long
// sum a body: `auto` picks pairs at 32,768, whose partial sums a strip, added four lanes a body, round less
// (median 5.1e-8 on the H200) and so are no measure of a long float sum.
TEST(CudaPrecision, ForceErrorOfEachPrecision) {
    REQUIRE_GPU_PARTS(gpu, 0);
    SimParams long_sums = with_precision(Precision::Fp32);
    long_sums.kernel_auto = false;  // IJUnrolled, its default shape
    for (std::size_t n : {3u, 257u, 32768u}) {
        const State s = test::plummer_state(n, 40 + n);
        const ForceError f32 = force_error(*gpu, rounded_to_float32(s), long_sums);
        const ForceError ds = force_error(*gpu, s, with_precision(Precision::DS));
        const ForceError f64 = force_error(*gpu, s, with_precision(Precision::Fp64));
        EXPECT_LT(f64.max_rel, 1e-12) << "N " << n;
        EXPECT_LT(ds.max_rel, 2e-6) << "N " << n;
        if (n < 32768) continue;  // the ratio needs enough terms for fp32's sums to show their rounding
        EXPECT_LT(ds.median_rel, f32.median_rel / 4) << "fp32 " << f32.median_rel << " ds " << ds.median_rel;
        EXPECT_LT(ds.max_rel, f32.max_rel / 2) << "fp32 " << f32.max_rel << " ds " << ds.max_rel;
    }
}

// The reason for ds: a cluster far from the origin. At x ~ 1000 float positions are 6e-5 apart, comparable
// to the cluster's inter-particle spacing, so fp32 forces there are wrong at the 1e-2 level; ds keeps the
// positions in double and forms the differences before rounding, so its error stays the near-origin one.
TEST(CudaPrecision, DoubleSingleHoldsFarFromTheOrigin) {
    REQUIRE_GPU_PARTS(gpu, 0);
    State s = test::plummer_state(2048, 7);
    for (std::size_t i = 0; i < s.size(); ++i) s.pos_mass[i].x += 1000.0;
    const ForceError ds = force_error(*gpu, s, with_precision(Precision::DS));
    const ForceError f32 = force_error(*gpu, s, with_precision(Precision::Fp32));  // rounds the state itself
    EXPECT_LT(ds.max_rel, 1e-5);
    EXPECT_GT(f32.max_rel, 10 * ds.max_rel);
}

// Switching precision at a step boundary carries the particles: float32 values widen exactly to double, and
// double to float32 rounds (what the fp32 backend does on reset).
TEST(CudaPrecision, SwitchingKeepsTheParticles) {
    REQUIRE_GPU_PARTS(gpu, 0);
    const State s0 = test::plummer_state(1000, 9);
    SimParams p = with_precision(Precision::Fp64);
    gpu->reset(s0, p);
    gpu->step(5);
    State a, b;
    gpu->read_state(a);
    p.precision = Precision::DS;
    gpu->set_params(p);
    gpu->read_state(b);
    EXPECT_EQ(test::max_abs_diff(a, b), 0.0);
    EXPECT_EQ(gpu->steps_taken(), 5);
    EXPECT_NEAR(gpu->time(), a.time, 1e-15);
    p.precision = Precision::Fp32;
    gpu->set_params(p);
    gpu->read_state(b);
    EXPECT_EQ(test::max_abs_diff(rounded_to_float32(a), b), 0.0);
    gpu->step(5);
    gpu->read_state(b);
    EXPECT_EQ(first_non_finite(b), -1);
    EXPECT_NE(gpu->kernel_label().find("fp32"), std::string::npos) << gpu->kernel_label();
}

// The j split over blocks changes only the order of the partial sums: every s against s = 1 within float
// rounding of a sum (1e-5 relative at N = 7,499, a few ulps of each term summed), for every precision.
TEST(CudaPrecision, SplitOverBlocksAgreesWithNoSplit) {
    REQUIRE_GPU_PARTS(gpu, 0);
    const State s = rounded_to_float32(test::plummer_state(7499, 12));
    for (Precision pr : {Precision::Fp32, Precision::DS, Precision::Fp64}) {
        SimParams p = with_precision(pr);
        p.kernel_auto = false;
        p.variant = KernelVariant::IJUnrolled;
        p.shape = {2, 4, 256, 1, 1};
        gpu->reset(s, p);
        std::vector<Double4> one, split;
        gpu->read_accelerations(one);
        for (int splits : {2, 7, 64, 0}) {
            p.shape.s = splits;
            gpu->set_params(p);
            gpu->read_accelerations(split);
            const ForceError e = compare_forces(split, [&] {
                std::vector<Double3> r(one.size());
                for (std::size_t i = 0; i < one.size(); ++i) r[i] = {one[i].x, one[i].y, one[i].z};
                return r;
            }());
            EXPECT_LT(e.max_rel, pr == Precision::Fp64 ? 1e-13 : 1e-5)
                << precision_name(pr) << " s " << splits << " plan s " << gpu->plan().splits;
        }
    }
}

// Two parts on one GPU run the whole multi-GPU path (i-split, peer copies of each part's new positions into
// the other part, waits on the other part's event). With a fixed shape each body's force is summed in the
// same order as with one part, so after 50 steps the states must be bit-identical; N odd so the parts differ
// in size. Then the automatic plan (which may split differently per part) within float rounding.
TEST(CudaParts, TwoPartsMatchOnePart) {
    REQUIRE_GPU_PARTS(one, 0);
    REQUIRE_GPU_PARTS(two, 0, 0);
    EXPECT_EQ(two->parts(), 2u);
    const State s0 = test::plummer_state(3001, 21);
    for (Precision pr : {Precision::Fp32, Precision::DS, Precision::Fp64}) {
        SimParams p = with_precision(pr, 0.05);
        p.dt = 0.005;
        p.kernel_auto = false;
        p.variant = KernelVariant::IJUnrolled;
        p.shape = {2, 2, 256, 1, 1};
        one->reset(s0, p);
        two->reset(s0, p);
        one->step(50);
        two->step(50);
        State a, b;
        one->read_state(a);
        two->read_state(b);
        EXPECT_EQ(test::max_abs_diff(a, b), 0.0) << precision_name(pr);
        EXPECT_EQ(a.time, b.time);
        // The Performance panel's per-GPU times of the last step: a kernel that ran, copies that took time.
        const std::vector<DeviceTiming> t = two->readouts(ReadoutAsk::timings()).device_timings;
        ASSERT_EQ(t.size(), 2u);
        EXPECT_GT(t[1].kernel_ms, 0.0);
        EXPECT_GT(t[0].exchange_ms, 0.0);
        EXPECT_TRUE(one->readouts(ReadoutAsk::timings()).device_timings.empty());
        p.kernel_auto = true;
        one->reset(s0, p);
        two->reset(s0, p);
        one->step(50);
        two->step(50);
        one->read_state(a);
        two->read_state(b);
        EXPECT_LT(test::max_abs_diff(a, b), 1e-4) << precision_name(pr) << " auto";
        const double w1 = *one->potential_energy(), w2 = *two->potential_energy();
        EXPECT_NEAR(w1 / w2, 1.0, 1e-5);
    }
}

// Every GPU of the machine (two on the lent x2 machine): the same comparison across real devices, where the
// exchange goes over NVLink; skipped on a one-GPU machine.
TEST(CudaParts, EveryGpuMatchesOneGpu) {
    REQUIRE_GPU_PARTS(one, 0);
    if (one->device().device_count < 2) GTEST_SKIP() << "one CUDA device on this machine";
    std::vector<int> all;
    for (int d = 0; d < one->device().device_count; ++d) all.push_back(d);
    CudaBackend many(all);
    const State s0 = test::plummer_state(20011, 2);
    SimParams p = with_precision(Precision::Fp32, 0.05);
    p.kernel_auto = false;
    p.variant = KernelVariant::IJUnrolled;
    p.shape = {4, 4, 256, 1, 1};
    one->reset(s0, p);
    many.reset(s0, p);
    one->step(40);
    many.step(40);
    State a, b;
    one->read_state(a);
    many.read_state(b);
    EXPECT_EQ(test::max_abs_diff(a, b), 0.0);
}

// Pathological N for the split: fewer bodies than parts and than splits.
TEST(CudaParts, TinyNOnTwoParts) {
    REQUIRE_GPU_PARTS(two, 0, 0);
    for (std::size_t n : {1u, 2u, 3u}) {
        const State s = test::plummer_state(n, 3);
        for (Precision pr : {Precision::Fp32, Precision::Fp64}) {
            SimParams p = with_precision(pr);
            p.kernel_auto = false;
            p.variant = KernelVariant::None;
            p.shape = {1, 1, 64, 1, 0};
            two->reset(s, p);
            two->step(3);
            State out;
            two->read_state(out);
            EXPECT_EQ(first_non_finite(out), -1) << "N " << n;
            std::vector<Double4> acc;
            two->read_accelerations(acc);
            EXPECT_EQ(acc.size(), n);
        }
    }
}
