// The tree cells drawn from the CUDA backend (only the cells to the depth copied back) against the CPU
// backend's for the same state: the same tree algorithm on the same float32 positions, so the same boxes, in
// the same breadth-first order, depth by depth.
#include <gtest/gtest.h>

#include <map>

#include "cpu/cpu_backend.hpp"
#include "gpu_test_util.hpp"

using namespace nbody;

namespace {
std::map<int, std::size_t> per_depth(const std::vector<TreeCellBox>& boxes) {
    std::map<int, std::size_t> count;
    for (const TreeCellBox& b : boxes) ++count[b.depth];
    return count;
}
}  // namespace

TEST(TreeCellsGpu, CudaBoxesEqualTheCpuBackendsPerDepth) {
    REQUIRE_GPU(g);
    for (std::size_t n : {257u, 7499u, 100003u}) {
        if (!test::within_cap(n)) continue;
        SCOPED_TRACE(n);
        const State s = rounded_to_float32(test::plummer_state(n, 11 + n));
        SimParams p;
        p.method = ForceMethod::Tree;
        p.eps = 0.01;
        p.dt = 1e-3;
        CpuBackend c(2);
        c.reset(s, p);
        g->reset(s, p);
        for (int depth : {0, 1, 2, 4, kMaxCellDrawDepth}) {
            SCOPED_TRACE(depth);
            const std::vector<TreeCellBox> cb = c.readouts(ReadoutAsk::cells(depth)).tree_cells, gb = g->readouts(ReadoutAsk::cells(depth)).tree_cells;
            ASSERT_FALSE(cb.empty());
            ASSERT_EQ(per_depth(gb), per_depth(cb));
            ASSERT_EQ(gb.size(), cb.size());
            for (std::size_t i = 0; i < cb.size(); ++i) {
                ASSERT_EQ(gb[i].depth, cb[i].depth) << "box " << i;
                ASSERT_EQ(gb[i].cx, cb[i].cx) << "box " << i;  // exact: the same key cube and keys
                ASSERT_EQ(gb[i].cy, cb[i].cy) << "box " << i;
                ASSERT_EQ(gb[i].cz, cb[i].cz) << "box " << i;
                ASSERT_EQ(gb[i].half, cb[i].half) << "box " << i;
            }
        }
        p.method = ForceMethod::Direct;  // direct summation draws no cells
        g->set_params(p);
        EXPECT_TRUE(g->readouts(ReadoutAsk::cells(2)).tree_cells.empty());
    }
}
