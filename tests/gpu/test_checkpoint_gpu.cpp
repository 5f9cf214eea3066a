// HDF5 checkpoints of the CUDA backend: a run checkpointed (through a file where HDF5 is built, else the same
// object in memory) and resumed on a fresh backend steps on bit-identically to the run left alone: leap-frog
// from the snapshot's state, Hermite (shared and block steps) from its exported block-step state, the tree
// (shared and block steps) from its accelerations and time line. A state
// that does not hold together is refused with its reason and the running state kept.
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "app/checkpoint.hpp"
#include "core/rows/integrator.hpp"
#include "gpu_test_util.hpp"
#include "io/hdf5_snapshot.hpp"

using namespace nbody;
namespace fs = std::filesystem;

namespace {

// parts: 1, or 2 on GPU 0 (the several-GPU path: every part imports every body).
void resume_on_cuda_is_exact(Integrator integrator, Precision precision, int parts = 1,
                             ForceMethod method = ForceMethod::Direct) {
    const std::vector<int> devices(static_cast<std::size_t>(parts), 0);
    std::string why;
    auto a = test::backend_or_null(devices, why);
    if (!a) GTEST_SKIP() << "no usable CUDA device: " << why;
    SimParams p;
    p.backend = BackendKind::Cuda;
    p.integrator = integrator;
    p.precision = precision;
    p.method = method;
    p.eta = integrator == Integrator::LeapFrogBlock ? 0.1 : p.eta;
    p.dt = integrator_info(integrator).block_steps ? 1.0 / 32 : 1.0 / 256;
    p.eps = 0.05;
    a->reset(test::plummer_state(4099, 5), p);
    a->step(5);
    IntegratorState probe;
    // The tree exports its accelerations too (its opening test reads them); direct leap-frog needs nothing.
    EXPECT_EQ(a->export_state(probe), integrator != Integrator::LeapFrog || method == ForceMethod::Tree);
    // Through a file where HDF5 is built (the GPU machine may lack it: then the same object in memory).
    Hdf5File f = checkpoint_of(*a, "t", {});
    if (hdf5_supported()) {
        const fs::path path = fs::temp_directory_path() / ("nbody_gpu_ck_" + std::to_string(::getpid()) + ".hdf5");
        write_hdf5(f, path.string());
        f = read_hdf5(path.string());
        fs::remove(path);
    }
    auto b = test::backend_or_null(devices, why);
    ASSERT_TRUE(b) << why;
    b->reset(f.snapshot.state, f.checkpoint->params);
    resume_backend(*b, f);
    EXPECT_EQ(b->time(), a->time());
    EXPECT_EQ(b->steps_taken(), a->steps_taken());
    a->step(11), b->step(11);
    State sa, sb;
    a->read_state(sa), b->read_state(sb);
    ASSERT_EQ(sa.size(), sb.size());
    EXPECT_EQ(0, std::memcmp(sa.pos_mass.data(), sb.pos_mass.data(), sa.size() * sizeof(Double4)));
    EXPECT_EQ(0, std::memcmp(sa.vel.data(), sb.vel.data(), sa.size() * sizeof(Double4)));
    EXPECT_EQ(sa.time, sb.time);
}

}  // namespace

TEST(CudaCheckpoint, LeapfrogFp32ResumesBitForBit) { resume_on_cuda_is_exact(Integrator::LeapFrog, Precision::Fp32); }
TEST(CudaCheckpoint, LeapfrogDsResumesBitForBit) { resume_on_cuda_is_exact(Integrator::LeapFrog, Precision::DS); }
TEST(CudaCheckpoint, TreeResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::LeapFrog, Precision::Fp32, 1, ForceMethod::Tree);
}
TEST(CudaCheckpoint, TreeBlockStepsResumeBitForBit) {
    resume_on_cuda_is_exact(Integrator::LeapFrogBlock, Precision::Fp32, 1, ForceMethod::Tree);
}
TEST(CudaCheckpoint, TreeOnTwoPartsResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::LeapFrog, Precision::Fp32, 2, ForceMethod::Tree);
}
TEST(CudaCheckpoint, TreeBlockStepsOnTwoPartsResumeBitForBit) {
    resume_on_cuda_is_exact(Integrator::LeapFrogBlock, Precision::Fp32, 2, ForceMethod::Tree);
}
TEST(CudaCheckpoint, HermiteResumesBitForBit) { resume_on_cuda_is_exact(Integrator::Hermite, Precision::DS); }
TEST(CudaCheckpoint, HermiteBlockResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::HermiteBlock, Precision::DS);
}
TEST(CudaCheckpoint, HermiteBlockFp64ResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::HermiteBlock, Precision::Fp64);
}
TEST(CudaCheckpoint, Hermite6BlockResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::Hermite6Block, Precision::Fp64);
}
TEST(CudaCheckpoint, Hermite6BlockDsOnTwoPartsResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::Hermite6Block, Precision::DS, 2);
}
TEST(CudaCheckpoint, HermiteBlockOnTwoPartsResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::HermiteBlock, Precision::DS, 2);
}

// A state whose times do not bracket its block time, or one written by the CPU backend, is refused; the
// backend that refused it runs on from where it was.
TEST(CudaCheckpoint, HermiteRefusesABrokenStateAndKeepsItsOwn) {
    REQUIRE_GPU(a);
    SimParams p;
    p.backend = BackendKind::Cuda;
    p.integrator = Integrator::HermiteBlock;
    p.dt = 1.0 / 32;
    p.eps = 0.05;
    a->reset(test::plummer_state(300, 9), p);
    a->step(3);
    IntegratorState st;
    ASSERT_TRUE(a->export_state(st));
    State before;
    a->read_state(before);
    const long long steps = a->steps_taken();

    IntegratorState late = st;
    for (auto& [name, v] : late.arrays)
        if (name == "t_end_hi") v[7] = 0;
    for (auto& [name, v] : late.arrays)
        if (name == "t_end_lo") v[7] = 0;
    try {
        a->import_state(late, p, 5);
        ADD_FAILURE() << "a body due before the block time was imported";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("body 7"), std::string::npos) << e.what();
    }
    IntegratorState cpu = st;
    cpu.backend = "cpu";
    EXPECT_THROW(a->import_state(cpu, p, 5), Error);
    IntegratorState short_x = st;
    short_x.arrays.front().second.pop_back();
    EXPECT_THROW(a->import_state(short_x, p, 5), Error);

    State after;
    a->read_state(after);
    EXPECT_EQ(a->steps_taken(), steps);
    EXPECT_EQ(0, std::memcmp(before.pos_mass.data(), after.pos_mass.data(), before.size() * sizeof(Double4)));
    a->import_state(st, p, steps);  // the good one still goes in, and the run goes on
    a->step(2);
    EXPECT_EQ(a->steps_taken(), steps + 2);
}
