// The kernel race on the CUDA backend: every variant of the table and auto in every precision at N = 2,000,
// and the tree; each entry's force error against float64, and the running state put back bit for bit
// afterwards.
#include <gtest/gtest.h>

#include <cstring>

#include "../unit/test_util.hpp"
#include "bench/race.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;

TEST(RaceGpu, EveryVariantInEveryPrecisionAndTheStateRestoredBitForBit) {
    REQUIRE_GPU(gpu);
    const std::size_t n = 2000;
    if (!test::within_cap(n)) GTEST_SKIP() << "N = 2,000 is over NBODY_GPU_TEST_MAX_N";
    SimParams p;
    p.backend = BackendKind::Cuda;
    p.dt = 1e-3;
    p.eps = 0.01;
    p.precision = Precision::DS;  // not the first entry's precision, so the restore has something to do
    p.kernel_auto = false;
    p.variant = KernelVariant::IUnrolled;
    p.shape = variant_info(KernelVariant::IUnrolled).default_shape;
    gpu->reset(test::plummer_state(n), p);
    gpu->step(10);
    State before, after;
    gpu->read_state(before);
    const long long steps = gpu->steps_taken();

    RaceOptions o;
    o.seconds = 0.2;
    std::string note;
    const std::vector<RaceEntry> entries = race_entries(gpu->caps(), p.tree);
    const std::vector<RaceResult> results = run_race(*gpu, entries, o, nullptr, &note);

    gpu->read_state(after);
    ASSERT_EQ(after.size(), n);
    EXPECT_EQ(0, std::memcmp(before.pos_mass.data(), after.pos_mass.data(), n * sizeof(Double4)));
    EXPECT_EQ(0, std::memcmp(before.vel.data(), after.vel.data(), n * sizeof(Double4)));
    EXPECT_EQ(before.time, after.time);
    EXPECT_EQ(gpu->steps_taken(), steps);
    EXPECT_TRUE(same_params(gpu->params(), p));

    ASSERT_EQ(results.size(), entries.size());
    EXPECT_EQ(entries.size(), precision_table().size() * (variant_table().size() + 1) + 1);  // and the tree
    for (const RaceResult& r : results) {
        if (r.entry.method == ForceMethod::Tree) {
            // The GPU tree (fp32 leap-frog) at the default theta: its own counts and an approximation's
            // error.
            ASSERT_TRUE(r.skipped.empty()) << r.skipped;
            EXPECT_EQ(r.row.method, "tree");
            EXPECT_GT(r.row.rate.body_cell_per_s, 0);
            // Its rate is what it evaluated (at N = 2,000 a group's list holds about as many terms as direct
            // summation would); N^2 a step is shown apart, as the direct-equivalent rate.
            EXPECT_NEAR(r.row.rate.interactions_per_s, r.row.rate.body_body_per_s + r.row.rate.body_cell_per_s,
                        1e-9 * r.row.rate.interactions_per_s);
            EXPECT_NEAR(r.row.rate.equivalent_direct_per_s, r.row.rate.steps_per_s * double(n) * double(n),
                        0.01 * r.row.rate.equivalent_direct_per_s);
            EXPECT_GT(r.row.error.median_rel, 1e-6);
            EXPECT_LT(r.row.error.median_rel, 1e-3);
            std::printf("%-20s %.3e interactions/s  median err %.2e  %s\n", r.entry.name.c_str(),
                        r.row.rate.interactions_per_s, r.row.error.median_rel, r.row.kernel.c_str());
            continue;
        }
        // The CUDA-core variants and auto run in every precision; a family added later may refuse a
        // precision.
        const bool core = !r.entry.variant || *r.entry.variant == KernelVariant::None ||
                          *r.entry.variant == KernelVariant::IUnrolled ||
                          *r.entry.variant == KernelVariant::IJUnrolled;
        if (!r.skipped.empty()) {
            EXPECT_FALSE(core) << r.entry.name << ": " << r.skipped;
            continue;
        }
        EXPECT_GT(r.row.rate.interactions_per_s, 0) << r.entry.name;
        EXPECT_FALSE(r.row.kernel.empty()) << r.entry.name;
        const double cap = r.entry.precision == Precision::Fp64 ? 1e-12 : 1e-4;
        EXPECT_LT(r.row.error.max_rel, cap) << r.entry.name << " (" << r.row.kernel << ")";
        std::printf("%-20s %.3e interactions/s  max err %.2e  %s\n", r.entry.name.c_str(),
                    r.row.rate.interactions_per_s, r.row.error.max_rel, r.row.kernel.c_str());
    }
    EXPECT_NE(note.find("all bodies"), std::string::npos) << note;
}
