#pragma once
// The GPU tree against the CPU tree: a GpuTree or a skip with the reason, and the comparison of the two trees
// built over the same float32 bodies (no scene code, so a stand-alone driver can use it too).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/physics/state.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "tree/gpu_tree.hpp"

namespace nbody::test {

inline std::unique_ptr<GpuTree> gpu_tree_or_null(std::string& why) {
    try {
        return std::make_unique<GpuTree>(0);
    } catch (const BackendError& e) {
        why = e.what();
        return nullptr;
    }
}

inline std::vector<Float4> as_float4(const State& s) {
    std::vector<Float4> out(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = to_float4(s.pos_mass[i]);
    return out;
}

inline bool near(float a, float b, float scale) {
    return a == b || std::abs(a - b) <= 4e-7f * scale + 1e-30f;  // == first: a leaf's infinite radius
}

inline void expect_same_tree(const std::vector<Float4>& bodies, const TreeParams& p, GpuTree& g) {
    CpuTree c(2);
    std::vector<Float4> acc(bodies.size());
    TreeStats cs, gs;
    c.evaluate(bodies.data(), bodies.size(), p, 0.01, acc.data(), &cs);
    g.build(bodies.data(), bodies.size(), p, &gs);
    EXPECT_EQ(gs.cells, cs.cells);
    EXPECT_EQ(gs.depth, cs.depth);
    const tree::KeyBox cb = c.key_box(), gb = g.key_box();
    EXPECT_EQ(std::memcmp(&cb, &gb, sizeof cb), 0) << "key cubes differ";
    EXPECT_EQ(g.keys(), c.keys());
    EXPECT_EQ(g.order(), c.order());
    const auto gc = g.cells();
    ASSERT_EQ(gc.size(), c.cells().size());
    for (std::size_t i = 0; i < gc.size(); ++i)
        ASSERT_EQ(std::memcmp(&gc[i], &c.cells()[i], sizeof gc[i]), 0) << "cell " << i;
    const auto gm = g.moments();
    for (std::size_t i = 0; i < gm.size(); ++i) {
        const tree::CellMoments &a = gm[i], &b = c.moments()[i];
        const tree::CellBox box = c.cell_box(i);
        const float len = float(box.side) + std::abs(b.x) + std::abs(b.y) + std::abs(b.z);
        const float q = std::abs(b.qxx) + std::abs(b.qyy) + std::abs(b.qzz) + std::abs(b.qxy) +
                        std::abs(b.qxz) + std::abs(b.qyz);
        ASSERT_TRUE(near(a.x, b.x, len) && near(a.y, b.y, len) && near(a.z, b.z, len)) << "cell " << i;
        ASSERT_TRUE(near(a.m, b.m, b.m)) << "cell " << i;
        ASSERT_TRUE(near(a.qxx, b.qxx, q) && near(a.qyy, b.qyy, q) && near(a.qzz, b.qzz, q) &&
                    near(a.qxy, b.qxy, q) && near(a.qxz, b.qxz, q) && near(a.qyz, b.qyz, q))
            << "cell " << i;
        ASSERT_TRUE(near(a.r_open2, b.r_open2, b.r_open2)) << "cell " << i;
        ASSERT_TRUE(near(a.r_acc2, b.r_acc2, b.r_acc2) && near(a.r_far2, b.r_far2, b.r_far2)) << "cell " << i;
    }
}

}  // namespace nbody::test

#define REQUIRE_GPU_TREE(g)                            \
    std::string why_##g;                               \
    auto g = ::nbody::test::gpu_tree_or_null(why_##g); \
    if (!g) GTEST_SKIP() << "no usable CUDA device: " << why_##g
