#pragma once
// What every gpu-labelled test file needs: a CUDA backend or a skip that says why (no device, a driver too
// old: CI has no GPU), and the body-count cap for compute-sanitizer runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "cuda_backend.hpp"

namespace nbody::test {

// NBODY_GPU_TEST_MAX_N caps the body counts (compute-sanitizer runs are 100x slower).
inline bool within_cap(std::size_t n) {
    const char* cap = std::getenv("NBODY_GPU_TEST_MAX_N");
    return !cap || n <= std::strtoull(cap, nullptr, 10);
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
