// The GPU tree's build and multipoles against the CPU tree (the reference): the same key cube, keys, body
// order and cells bit for bit (both use src/core/tree/'s arithmetic on the same float32 positions), and the
// same multipoles to float32 rounding (double sums that may contract differently on the device).
#include <gtest/gtest.h>

#include <cstdio>

#include "../unit/test_util.hpp"
#include "gpu_test_util.hpp"
#include "tree_gpu_compare.hpp"

using namespace nbody;
using test::as_float4;
using test::expect_same_tree;

TEST(TreeGpu, BuildMatchesTheCpuTreeAtAwkwardN) {
    REQUIRE_GPU_TREE(g);
    for (std::size_t n : {1u, 2u, 3u, 31u, 33u, 255u, 257u, 7499u, 100003u}) {
        if (!test::within_cap(n)) continue;
        SCOPED_TRACE(n);
        const auto bodies = as_float4(test::plummer_state(n, 11 + n));
        for (int leaf : {1, 16, 64}) expect_same_tree(bodies, TreeParams{0.5f, leaf, 32}, *g);
    }
}

TEST(TreeGpu, BuildMatchesOnDegenerateInput) {
    REQUIRE_GPU_TREE(g);
    auto bodies = as_float4(test::plummer_state(3000, 4));
    for (std::size_t i = 1000; i < 3000; ++i) bodies[i] = {1.5f, -2.5f, 0.5f, bodies[i].w};  // coincident
    expect_same_tree(bodies, TreeParams{}, *g);
    bodies = as_float4(test::plummer_state(5000, 8));
    bodies[17] = {1e4f, 0, 0, bodies[17].w};  // a far outlier
    expect_same_tree(bodies, TreeParams{}, *g);
    for (auto& b : bodies) b = {3, 3, 3, 1e-3f};  // all at one point
    expect_same_tree(bodies, TreeParams{}, *g);
}

// The budget: at most 200 bytes of device memory a body (10M bodies in 2 GB). Build and multipoles
// only so far; the walk's lists live in shared memory.
TEST(TreeGpu, DeviceMemoryPerBodyWithinBudget) {
    REQUIRE_GPU_TREE(g);
    const std::size_t n = 1 << 20;
    if (!test::within_cap(n)) GTEST_SKIP() << "above NBODY_GPU_TEST_MAX_N";
    const auto bodies = as_float4(test::plummer_state(n, 3));
    TreeStats st;
    g->build(bodies.data(), n, TreeParams{}, &st);
    std::printf(
        "GPU tree build, N = %zu: %zu cells, depth %d, %.1f bytes a body; keys %.2f sort %.2f build %.2f "
        "multipoles %.2f ms\n",
        n, st.cells, st.depth, g->bytes_per_body(), st.t_keys * 1e3, st.t_sort * 1e3, st.t_build * 1e3,
        st.t_multipoles * 1e3);
    EXPECT_LE(g->bytes_per_body(), 200.0);
}
