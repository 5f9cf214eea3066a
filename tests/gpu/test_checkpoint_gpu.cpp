// HDF5 checkpoints of the CUDA backend: a run checkpointed (through a file where HDF5 is built, else the same
// object in memory) and resumed on a fresh backend steps on bit-identically to the run left alone (leap-frog;
// Hermite once the CUDA engine exports its block state: until then the test skips saying so, and
// checkpoint_of refuses such a run with that reason).
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "app/checkpoint.hpp"
#include "gpu_test_util.hpp"
#include "io/hdf5_snapshot.hpp"

using namespace nbody;
namespace fs = std::filesystem;

namespace {

void resume_on_cuda_is_exact(Integrator integrator, Precision precision) {
    REQUIRE_GPU(a);
    SimParams p;
    p.backend = BackendKind::Cuda;
    p.integrator = integrator;
    p.precision = precision;
    p.dt = integrator == Integrator::HermiteBlock ? 1.0 / 32 : 1.0 / 256;
    p.eps = 0.05;
    a->reset(test::plummer_state(4099, 5), p);
    a->step(5);
    IntegratorState probe;
    if (integrator != Integrator::LeapFrog && !a->export_state(probe)) {
        EXPECT_THROW(checkpoint_of(*a, "t", {}), Error);
        GTEST_SKIP() << "the CUDA Hermite engine cannot export its block-step state yet (checked: refused)";
    }
    // Through a file where HDF5 is built (the GPU machine may lack it: then the same object in memory).
    Hdf5File f = checkpoint_of(*a, "t", {});
    if (hdf5_supported()) {
        const fs::path path = fs::temp_directory_path() / ("nbody_gpu_ck_" + std::to_string(::getpid()) + ".hdf5");
        write_hdf5(f, path.string());
        f = read_hdf5(path.string());
        fs::remove(path);
    }
    REQUIRE_GPU(b);
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
TEST(CudaCheckpoint, HermiteResumesBitForBit) { resume_on_cuda_is_exact(Integrator::Hermite, Precision::DS); }
TEST(CudaCheckpoint, HermiteBlockResumesBitForBit) {
    resume_on_cuda_is_exact(Integrator::HermiteBlock, Precision::DS);
}
