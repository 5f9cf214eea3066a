// The tree's cells as boxes for drawing (Readouts::tree_cells, Simulation::tree_cells): the CPU backend's boxes
// are its tree's cells down to the depth asked, each the cell's cube; nothing under direct summation; the
// simulation copies them at a new depth or state, at most every kTreeCellsInterval seconds of wall time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/session/simulation.hpp"
#include "core/tree/morton.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/tree/cpu_tree.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {
SimParams tree_params() {
    SimParams p;
    p.method = ForceMethod::Tree;
    p.dt = 1e-3;
    p.eps = 0.01;
    return p;
}
}  // namespace

TEST(TreeCells, CpuBackendBoxesAreItsTreeCellsDownToTheDepth) {
    CpuBackend b(2);
    b.reset(test::plummer_state(3000, 5), tree_params());
    CpuTree reference(1);  // the same float32 positions build the same tree
    State s;
    b.read_state(s);
    std::vector<Float4> pos(s.size()), acc(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) pos[i] = to_float4(s.pos_mass[i]);
    reference.evaluate(pos.data(), pos.size(), TreeParams{}, 0.01, acc.data());
    const tree::KeyBox box = reference.key_box();
    for (int depth : {0, 1, 2, 3}) {
        const std::vector<TreeCellBox> boxes = b.readouts(ReadoutAsk::cells(depth)).tree_cells;
        const auto& starts = reference.level_starts();
        ASSERT_EQ(boxes.size(), std::size_t(starts[std::size_t(depth) + 1])) << "depth " << depth;
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            const tree::CellBox c = reference.cell_box(i);
            EXPECT_EQ(boxes[i].depth, reference.cells()[i].level);
            EXPECT_FLOAT_EQ(boxes[i].cx, float(c.cx));
            EXPECT_FLOAT_EQ(boxes[i].half, float(0.5 * c.side));
        }
    }
    ASSERT_EQ(b.readouts(ReadoutAsk::cells(0)).tree_cells.size(), 1u);
    EXPECT_FLOAT_EQ(b.readouts(ReadoutAsk::cells(0)).tree_cells[0].half, float(0.5 * box.side));  // the root is the key cube
    EXPECT_LE(b.readouts(ReadoutAsk::cells(99)).tree_cells.size(), b.readouts(ReadoutAsk::cells(kMaxCellDrawDepth)).tree_cells.size());  // the depth is capped

    SimParams direct = tree_params();
    direct.method = ForceMethod::Direct;
    b.set_params(direct);
    EXPECT_TRUE(b.readouts(ReadoutAsk::cells(2)).tree_cells.empty());
}

TEST(TreeCells, SimulationCopiesThemOnAskAndAtMostEveryInterval) {
    Simulation sim([](const SimParams&, BackendChoice*) { return std::make_unique<CpuBackend>(1); });
    sim.load(test::plummer_state(500, 3), tree_params());
    sim.advance_frame(1.0, 0.0);
    EXPECT_TRUE(sim.tree_cells().empty());  // none asked for
    sim.set_tree_cells_depth(2);
    sim.advance_frame(1.0, 0.01);
    const uint64_t v = sim.tree_cells_version();
    EXPECT_GT(sim.tree_cells().size(), 1u);
    sim.advance_frame(1.0, 0.02);  // stepped, but too soon
    EXPECT_EQ(sim.tree_cells_version(), v);
    sim.advance_frame(1.0, 0.02 + Simulation::kTreeCellsInterval);
    EXPECT_GT(sim.tree_cells_version(), v);  // the new positions' tree
    sim.set_tree_cells_depth(0);
    sim.advance_frame(1.0, 0.3);  // a new depth is copied at once
    EXPECT_EQ(sim.tree_cells().size(), 1u);
    sim.set_tree_cells_depth(-1);
    sim.advance_frame(1.0, 0.31);
    EXPECT_TRUE(sim.tree_cells().empty());
    sim.set_tree_cells_depth(3);
    sim.pending().method = ForceMethod::Direct;
    sim.advance_frame(1.0, 2.0);
    EXPECT_TRUE(sim.tree_cells().empty());  // drawn for the tree only
}
