// A CUDA backend on a full device (label gpu, a binary of its own that ctest runs alone: it fills the GPU's
// memory, which would fail any test running beside it under `ctest -j`).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "../unit/test_util.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "cuda_backend.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;

TEST(CudaBackend, OutOfMemoryKeepsTheOldState) {
    REQUIRE_GPU(gpu);
    const State s0 = test::plummer_state(1000, 4);
    gpu->reset(s0, SimParams{});
    // Fill the device (256 MiB pieces, then 1 MiB ones) until allocations fail, then ask for a state that needs
    // ~200 MiB: the reset must fail, say so, and leave the state it had.
    std::vector<void*> hogs;
    for (std::size_t piece : {std::size_t{1} << 28, std::size_t{1} << 20})
        for (void* p = nullptr; hogs.size() < 200000 && cudaMalloc(&p, piece) == cudaSuccess;) hogs.push_back(p);
    (void)cudaGetLastError();
    ASSERT_FALSE(hogs.empty());
    try {
        gpu->reset(test::plummer_state(4000000, 5), SimParams{});
        ADD_FAILURE() << "a 4M-body reset succeeded on a full device";
    } catch (const BackendError& e) {
        EXPECT_NE(std::string(e.what()).find("keeping the previous state"), std::string::npos) << e.what();
    }
    for (void* p : hogs) cudaFree(p);
    EXPECT_EQ(gpu->size(), 1000u);
    gpu->step(2);
    State s;
    gpu->read_state(s);
    EXPECT_EQ(first_non_finite(s), -1);
    EXPECT_EQ(s.pos_mass[999].w, static_cast<double>(static_cast<float>(s0.pos_mass[999].w)));
}
