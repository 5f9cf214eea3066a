#pragma once
// What every gpu-labelled test file needs: a CUDA backend or a skip that says why (no device, a driver too
// old: CI has no GPU), and the body-count cap for compute-sanitizer runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../unit/test_util.hpp"
#include "core/errors.hpp"
#include "core/physics/state.hpp"
#include "cpu/reference_force.hpp"
#include "cuda_backend.hpp"

namespace nbody::test {

// NBODY_GPU_TEST_MAX_N caps the body counts (compute-sanitizer runs are 100x slower).
inline bool within_cap(std::size_t n) {
    const char* cap = std::getenv("NBODY_GPU_TEST_MAX_N");
    return !cap || n <= std::strtoull(cap, nullptr, 10);
}

// The awkward N the kernel tests run (partial blocks, partial tiles, splits of a few bodies), within the cap:
// f(n, state, reference) with a Plummer state rounded to float32 (what every precision sees alike) and its
// float64 accelerations at eps = 0.01, G = 1, computed once per N.
template <class F>
void for_each_awkward_n(F&& f) {
    for (std::size_t n : {1u, 2u, 3u, 31u, 33u, 255u, 257u, 7499u, 100003u}) {
        if (!within_cap(n)) continue;
        const State s = rounded_to_float32(plummer_state(n, 11 + n));
        f(n, s, reference_accelerations(s, 0.01, 1.0));
    }
}

// A CUDA backend with one part per entry of `devices` (an ordinal may repeat), or null with the reason.
inline std::unique_ptr<CudaBackend> backend_or_null(std::vector<int> devices, std::string& why) {
    try {
        return std::make_unique<CudaBackend>(std::move(devices));
    } catch (const BackendError& e) {
        why = e.what();
        return nullptr;
    }
}

}  // namespace nbody::test

// `b`: a backend over the listed CUDA devices (GPU 0 when none are listed), or the test is skipped with the reason.
#define REQUIRE_GPU_PARTS(b, ...)                                                                \
    std::string why_##b;                                                                         \
    auto b = ::nbody::test::backend_or_null(std::vector<int>{__VA_ARGS__}, why_##b);             \
    if (!b) GTEST_SKIP() << "no usable CUDA device: " << why_##b
#define REQUIRE_GPU(b) REQUIRE_GPU_PARTS(b, 0)
