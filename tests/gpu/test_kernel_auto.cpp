// GPU tests (label gpu) of the automatic kernel choice: what the tuning table picks runs correctly at awkward
// N in every precision, and the backend loads this GPU's cache file (nbody-bench --tune) or falls back to the
// built-in table. They skip, saying why, where no CUDA device can be used.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "core/kernels/gpu_limits.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/kernels/kernel_tuning.hpp"
#include "core/kernels/shape_model.hpp"
#include "cpu/reference_force.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;
using test::within_cap;
namespace fs = std::filesystem;

namespace {


// Points XDG_CACHE_HOME at a fresh directory for one test and restores it after.
struct TempCache {
    fs::path path = fs::temp_directory_path() / ("nbody-auto-" + std::to_string(::getpid()));
    std::string saved;
    bool had = false;
    TempCache() {
        if (const char* x = std::getenv("XDG_CACHE_HOME")) had = true, saved = x;
        fs::remove_all(path);
        fs::create_directories(path / "nbody-sandbox");
        ::setenv("XDG_CACHE_HOME", path.c_str(), 1);
    }
    ~TempCache() {
        if (had)
            ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
        else
            ::unsetenv("XDG_CACHE_HOME");
        fs::remove_all(path);
    }
};

}  // namespace

// The automatic choice at N that leave partial blocks, partial tiles and splits of a few bodies, in each
// precision, against float64. Bounds of CudaKernels.EveryShapeMatchesFloat64ReferenceAtAwkwardN (fp32:
// max 1e-4, median 1e-5; ds and fp64 are far inside them): a missing, doubled or misplaced interaction of
// the shape auto picked, or a j split over blocks that loses a partial sum, is ~1/N of an acceleration.
TEST(CudaKernelAuto, AutoAtAwkwardNMatchesFloat64) {
    REQUIRE_GPU(gpu);
    test::for_each_awkward_n([&](std::size_t n, const State& s, const std::vector<Double3>& ref) {
        for (const auto& prec : precision_table()) {
            SimParams p;
            p.precision = prec.value;
            p.eps = 0.01;
            ASSERT_TRUE(p.kernel_auto);
            gpu->reset(s, p);
            const std::string what =
                std::string(prec.name) + " N " + std::to_string(n) + ": " + gpu->kernel_label();
            EXPECT_NE(gpu->kernel_label().find("(auto)"), std::string::npos) << what;
            EXPECT_NE(gpu->readouts().kernel_choice.find("table: "), std::string::npos)
                << what << " / " << gpu->readouts().kernel_choice;
            std::vector<Double4> acc;
            gpu->read_accelerations(acc);
            ASSERT_EQ(acc.size(), n);
            if (n == 1) {
                EXPECT_EQ(acc[0].x, 0.0) << what;
                continue;
            }
            const ForceError e = compare_forces(acc, ref);
            EXPECT_LT(e.max_rel, 1e-4) << what << " worst body " << e.worst_index;
            EXPECT_LT(e.median_rel, 1e-5) << what;
        }
    });
}

// A cache file for this GPU and driver is what auto runs from; one measured under another driver is not.
TEST(CudaKernelAuto, CacheFileForThisGpuAndDriverIsUsed) {
    REQUIRE_GPU(probe);
    TempCache cache;
    TuningTable t;
    t.key = *probe->readouts().tuning_key;
    t.date = "2026-11-23T00:00:00Z";
    // A shape no built-in row has, so the test sees where the choice came from.
    t.rows = {{Precision::Fp32, 1000, KernelVariant::IJUnrolled, {2, 2, 128, 2, 1}, 1e11, 0}};
    const fs::path file = cache.path / "nbody-sandbox" / tuning_file_name(t.key);
    save_tuning_table(t, file);

    CudaBackend gpu;
    EXPECT_EQ(gpu.tuning_table().source, file.string());
    SimParams p;
    p.eps = 0.01;
    const State s = rounded_to_float32(test::plummer_state(700, 3));
    gpu.reset(s, p);
    const LaunchPlan plan = gpu.plan();
    EXPECT_EQ(plan.k, 2);
    EXPECT_EQ(plan.u, 2);
    EXPECT_EQ(plan.block, 128);
    EXPECT_EQ(plan.q, 2);
    EXPECT_NE(gpu.readouts().kernel_choice.find(file.string()), std::string::npos) << gpu.readouts().kernel_choice;
    std::vector<Double4> acc;
    gpu.read_accelerations(acc);
    EXPECT_LT(compare_forces(acc, reference_accelerations(s, 0.01, 1.0)).max_rel, 1e-4);

    t.key.driver = "0.0.0-another";
    save_tuning_table(t, file);
    CudaBackend other;
    // Without its own file a GPU uses the built-in table where that was measured on its model, else the model.
    const std::string fallback = t.key.gpu == builtin_tuning_table().key.gpu ? "built-in" : "model of";
    EXPECT_NE(other.tuning_table().source.find(fallback), std::string::npos) << other.tuning_table().source;
    other.reset(s, p);
    EXPECT_NE(other.readouts().kernel_choice.find(fallback), std::string::npos) << other.readouts().kernel_choice;
}

// Every published GPU class's modelled plan (core/kernels/shape_model.hpp: shapes within that class's limits) launched on
// this GPU, in each precision at the awkward N, against float64: a plan the model makes for a GPU we do not have
// runs and is correct.
TEST(CudaKernelAuto, EveryGpuClassesModelledPlanMatchesFloat64) {
    REQUIRE_GPU(gpu);
    test::for_each_awkward_n([&](std::size_t n, const State& s, const std::vector<Double3>& ref) {
        if (n < 2) return;
        for (const GpuLimits& g : gpu_classes()) {
            const TuningTable t = model_tuning_table(g);
            for (const auto& prec : precision_table()) {
                const KernelChoice c = choose_kernel(t, prec.value, n);
                ASSERT_EQ(gpu_refusal(variant_info(c.variant), c.shape, g), "");
                SimParams p;
                p.precision = prec.value;
                p.eps = 0.01;
                p.kernel_auto = false;
                p.variant = c.variant;
                p.shape = c.shape;
                gpu->reset(s, p);
                std::vector<Double4> acc;
                gpu->read_accelerations(acc);
                const std::string what = g.name + " " + std::string(prec.name) + " N " + std::to_string(n) + ": " +
                                         gpu->kernel_label();
                const ForceError e = compare_forces(acc, ref);
                EXPECT_LT(e.max_rel, 1e-4) << what;
                EXPECT_LT(e.median_rel, 1e-5) << what;
            }
        }
    });
}
