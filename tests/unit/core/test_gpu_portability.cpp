// Every NVIDIA GPU since Turing, without one here: the launch rules and the shape model for each published GPU
// class (core/kernels/gpu_limits.hpp, core/kernels/shape_model.hpp), the words a user gets when the CUDA backend cannot start
// (core/backend/gpu_words.hpp, from fake device queries), and the CPU taking over when a GPU cannot hold a scene.
#include <gtest/gtest.h>

#include <string>

#include "core/errors.hpp"
#include "core/kernels/gpu_limits.hpp"
#include "core/backend/gpu_words.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/kernels/shape_model.hpp"
#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"

using namespace nbody;

namespace {

const GpuLimits& gpu_class(const std::string& name) {
    for (const GpuLimits& g : gpu_classes())
        if (g.name.find(name) != std::string::npos) return g;
    throw std::runtime_error("no GPU class " + name);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(GpuLimits, TheTensorFamilyIsRefusedBeforeAmpereWithItsReason) {
    const FamilyInfo& tensor = variant_info(KernelVariant::Tensor);
    const std::string why = gpu_refusal(tensor, tensor.default_shape, gpu_class("RTX 2080"));
    EXPECT_TRUE(contains(why, "compute capability 8.0")) << why;
    EXPECT_TRUE(contains(why, "TF32")) << why;
    EXPECT_TRUE(contains(why, "RTX 2080 has 7.5")) << why;
    for (const char* ampere_on : {"RTX 3060", "A100", "H100", "RTX 5090"})
        EXPECT_EQ(gpu_refusal(tensor, tensor.default_shape, gpu_class(ampere_on)), "") << ampere_on;
}

TEST(GpuLimits, PairsShapesMustFitTheBlocksSharedMemory) {
    const FamilyInfo& pairs = variant_info(KernelVariant::Pairs);
    const KernelShape big{8, 2, 160, 0, 1};  // 384 x 8 x 5 x 5 = 76,800 bytes of sums
    ASSERT_EQ(pairs_shared_bytes(big), 76800);
    const std::string why = gpu_refusal(pairs, big, gpu_class("RTX 2080"));
    EXPECT_TRUE(contains(why, "76800 bytes of shared memory")) << why;
    EXPECT_TRUE(contains(why, "offers 65536")) << why;
    EXPECT_EQ(gpu_refusal(pairs, big, gpu_class("RTX 4090")), "");  // 99 KiB a block
    EXPECT_EQ(gpu_refusal(pairs, pairs.default_shape, gpu_class("RTX 2080")), "");
}

TEST(GpuLimits, EveryClassRunsEveryFamilysDefaultShapeItsGenerationAllows) {
    for (const GpuLimits& g : gpu_classes())
        for (const FamilyInfo& f : variant_table()) {
            const std::string why = gpu_refusal(f, f.default_shape, g);
            EXPECT_EQ(why.empty(), g.cc() >= f.min_cc) << g.name << " " << f.name << ": " << why;
        }
}

// The model gives every class a plan for each precision and N, within that class's limits, rated by its own peak.
TEST(ShapeModel, EveryClassGetsAPlanThatFitsItsLimits) {
    for (const GpuLimits& g : gpu_classes()) {
        const TuningTable t = model_tuning_table(g);
        ASSERT_FALSE(t.rows.empty()) << g.name;
        EXPECT_TRUE(contains(t.source, "model of " + g.name)) << t.source;
        for (const TuningRow& r : t.rows) ASSERT_EQ(gpu_refusal(variant_info(r.variant), r.shape, g), "") << g.name;
        for (Precision p : {Precision::Fp32, Precision::DS, Precision::Fp64})
            for (std::size_t n : {1000u, 18000u, 131072u, 1048576u}) {
                const KernelChoice c = choose_kernel(t, p, n);
                EXPECT_GT(c.rate, 0) << g.name << " n " << n;
                EXPECT_EQ(gpu_refusal(variant_info(c.variant), c.shape, g), "") << g.name << " n " << n;
                EXPECT_TRUE(runs_in(variant_info(c.variant), p)) << g.name;
            }
    }
}

// On a GPU with the reference's SMs, threads and clock (the H100 against the H200's table) the model picks what the
// measured table picks; a GPU holding fewer threads at once reaches the same choice at proportionally smaller N.
TEST(ShapeModel, TheReferencesTwinGetsTheMeasuredChoicesAndLoadScalesN) {
    const TuningTable& measured = builtin_tuning_table();
    const TuningTable h100 = model_tuning_table(gpu_class("H100"));
    for (Precision p : {Precision::Fp32, Precision::DS, Precision::Fp64})
        for (std::size_t n : {7500u, 18000u, 131072u, 1048576u}) {
            const KernelChoice a = choose_kernel(measured, p, n), b = choose_kernel(h100, p, n);
            EXPECT_EQ(a.variant, b.variant) << n;
            EXPECT_EQ(a.shape, b.shape) << n;
        }
    const GpuLimits& small = gpu_class("RTX 3060");  // 28 SMs x 1,536 threads: 0.159 of the reference's load
    const double load = model_slots(small) / model_slots(model_reference());
    const TuningTable t = model_tuning_table(small);
    const KernelChoice ref = choose_kernel(measured, Precision::Fp32, 131072);
    const KernelChoice got = choose_kernel(t, Precision::Fp32, static_cast<std::size_t>(131072 * load + 0.5));
    EXPECT_EQ(ref.variant, got.variant);
    EXPECT_NEAR(got.rate / ref.rate, model_peak(small, Precision::Fp32) / model_peak(model_reference(), Precision::Fp32),
                1e-6);
    // fp64 on a GeForce (1/64 of fp32) is rated at its own, far lower, peak.
    EXPECT_LT(choose_kernel(t, Precision::Fp64, 18000).rate, choose_kernel(t, Precision::DS, 18000).rate / 8);
}

TEST(ShapeModel, AnUntunedGpuGetsTheModelAndANoteTheReferenceGetsItsTable) {
    const GpuLimits& h100 = gpu_class("H100");
    const LoadedTuning a = load_tuning_for({h100.name, h100.sms, "580.159.04"}, {}, h100);
    EXPECT_TRUE(contains(a.table.source, "model of NVIDIA H100")) << a.table.source;
    EXPECT_TRUE(contains(a.note, "nbody-bench --tune")) << a.note;
    EXPECT_TRUE(contains(a.note, "132 SMs")) << a.note;
    EXPECT_EQ(a.note.rfind("no tuning table for NVIDIA H100 80GB HBM3 yet", 0), 0u) << "one note, not two: " << a.note;
    const GpuLimits& h200 = model_reference();
    const LoadedTuning b = load_tuning_for(builtin_tuning_table().key, {}, h200);
    EXPECT_EQ(b.note, "");
    EXPECT_EQ(b.table.source, builtin_tuning_table().source);
}

// ---------------------------------------------------------------------------------------------------------
// Words instead of CUDA error strings (fake device queries)
// ---------------------------------------------------------------------------------------------------------

TEST(GpuWords, ABinaryWithoutTheGpusArchitectureSaysWhatAndHowToRebuild) {
    const std::string w =
        cuda_start_words({"cudaErrorNoKernelImageForDevice", "NVIDIA GeForce RTX 2080", 75, "90", 13000, 13000});
    EXPECT_TRUE(contains(w, "NVIDIA GeForce RTX 2080 (compute capability 7.5) has no GPU code")) << w;
    EXPECT_TRUE(contains(w, "built for compute capability 9.0 (sm_90)")) << w;  // "90": SASS and PTX of 9.0
    EXPECT_TRUE(contains(w, "scripts/build.sh")) << w;
    EXPECT_TRUE(contains(w, "-DNBODY_CUDA_ARCHS=75")) << w;
    EXPECT_EQ(w.rfind("cuda", 0), std::string::npos) << "the words come first, the error's name last: " << w;
    EXPECT_TRUE(contains(w, "(cudaErrorNoKernelImageForDevice)")) << w;
}

TEST(GpuWords, ArchitectureListsReadAsComputeCapabilities) {
    EXPECT_EQ(built_architectures_text("90-real"), "compute capability 9.0 (sm_90)");
    EXPECT_EQ(built_architectures_text("90"),  // CMake's plain number: SASS and PTX
              "compute capability 9.0 (sm_90), with PTX for compute capability 9.0 that the driver compiles for newer "
              "GPUs");
    EXPECT_EQ(built_architectures_text("75-virtual"),
              "PTX for compute capability 7.5 that the driver compiles for newer GPUs");
    EXPECT_EQ(built_architectures_text("75-real,80-real,120"),
              "compute capability 7.5 (sm_75), 8.0 (sm_80) and 12.0 (sm_120), with PTX for compute capability 12.0 "
              "that the driver compiles for newer GPUs");
    EXPECT_EQ(built_architectures_text("native"), "the architectures native");
}

TEST(GpuWords, DriverAndDeviceProblemsNameVersionsAndTheFix) {
    const std::string old = cuda_start_words({"cudaErrorInsufficientDriver", "", 0, "90", 12020, 13000});
    EXPECT_TRUE(contains(old, "supports CUDA 12.2, older than the CUDA 13.0")) << old;
    EXPECT_TRUE(contains(old, "update the NVIDIA driver")) << old;
    const std::string ptx = cuda_start_words({"cudaErrorUnsupportedPtxVersion", "NVIDIA L4", 89, "75-virtual", 12080, 13000});
    EXPECT_TRUE(contains(ptx, "-DNBODY_CUDA_ARCHS=89")) << ptx;
    EXPECT_TRUE(contains(cuda_start_words({"cudaErrorNoDevice", "", 0, "90", 0, 13000}), "no NVIDIA GPU was found"));
    // No libcuda at all: the runtime says "insufficient driver" and the driver's version is 0.
    EXPECT_TRUE(contains(cuda_start_words({"cudaErrorInsufficientDriver", "", 0, "90", 0, 13000}),
                         "no NVIDIA GPU driver was found"));
    const std::string pascal = cuda_start_words({"cudaErrorInvalidDevice", "NVIDIA GeForce GTX 1080", 61, "90", 13000, 13000});
    EXPECT_TRUE(contains(pascal, "older than Turing")) << pascal;
    EXPECT_TRUE(contains(cuda_start_words({"cudaErrorLaunchTimeout", "NVIDIA T4", 75, "75", 13000, 13000}),
                         "could not start the NVIDIA T4"));
}

// A GPU backend that cannot hold the scene: Simulation::load puts the CPU backend in its place and says why.
namespace {
class NoRoomGpu final : public Backend {
  public:
    std::string name() const override { return "fake gpu"; }
    BackendCaps caps() const override { return {true, true, true}; }
    void reset(const State&, const SimParams&) override {
        throw BackendError("GPU 0 has too little free memory: positions needs 9000 MiB, 100 MiB of its 8192 MiB are "
                           "free (cudaErrorMemoryAllocation); keeping the previous state");
    }
    void set_params(const SimParams& p) override { m_p = p; }
    const SimParams& params() const override { return m_p; }
    void step(int) override {}
    void read_state(State& out) override { out = State{}; }
    void read_accelerations(std::vector<Double4>& out) override { out.clear(); }
    void copy_positions_to_host(Float4*) override {}
    std::size_t size() const override { return 0; }
    double time() const override { return 0; }
    long long steps_taken() const override { return 0; }

  private:
    SimParams m_p;
};
}  // namespace

TEST(GpuFallback, ASceneTooBigForTheGpuRunsOnTheCpuWithTheReason) {
    Simulation sim([](const SimParams& p, BackendChoice* choice) -> std::unique_ptr<Backend> {
        if (p.backend == BackendKind::Cpu) return std::make_unique<CpuBackend>(1);
        if (choice) *choice = {p.backend, BackendKind::Cuda, "", "CUDA backend: fake", ""};
        return std::make_unique<NoRoomGpu>();
    });
    State s;
    s.resize(16);
    for (std::size_t i = 0; i < s.size(); ++i) s.pos_mass[i] = {double(i), 0.5 * double(i), 0, 1.0 / 16};
    SimParams p;
    p.backend = BackendKind::Auto;
    sim.load(s, p);
    EXPECT_EQ(sim.backend().name().rfind("cpu", 0), 0u) << sim.backend().name();
    EXPECT_EQ(sim.backend().size(), 16u);
    EXPECT_TRUE(contains(sim.backend_note(), "too little free memory")) << sim.backend_note();
    EXPECT_FALSE(contains(sim.backend_note(), "keeping the previous state")) << sim.backend_note();
    // The banner reads the choice, not the note's words.
    EXPECT_EQ(sim.backend_choice().asked, BackendKind::Auto);
    EXPECT_EQ(sim.backend_choice().running, BackendKind::Cpu);
    EXPECT_TRUE(contains(sim.backend_choice().fallback, "too little free memory"))
        << sim.backend_choice().fallback;
}
