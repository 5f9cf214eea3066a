// The walk's groups (core/tree/groups.hpp): packed groups keep out of their dense siblings, so no group's list
// runs far past the mean, on one Plummer sphere and on two clusters far apart in a mostly empty key cube.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/tree/groups.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

namespace {

constexpr double kEps = 0.01;
constexpr double kApart = 1e4;

// The bodies' box of key-order bodies [b, e) of the last tree, from the positions themselves.
tree::BodyBox bodies_box(const State& s, const CpuTree& t, uint32_t b, uint32_t e) {
    const auto at = [&](uint32_t k) {
        const Double4& p = s.pos_mass[t.order()[k]];
        return tree::BodyBox{{float(p.x), float(p.y), float(p.z)}, {float(p.x), float(p.y), float(p.z)}};
    };
    tree::BodyBox box = at(b);
    for (uint32_t k = b + 1; k < e; ++k) box = tree::united(box, at(k));
    return box;
}

// A group's walk on the GPU: one warp through its whole list, each body-cell term about 35 issued
// instructions and each body-body term 13 (cuda/tree/tree_walk.cu), whatever the group's size.
struct ListCosts {
    double mean = 0, worst = 0;
};
ListCosts list_costs(const CpuTree& t) {
    ListCosts c;
    const auto& cells = t.group_cell_counts();
    const auto& bodies = t.group_body_counts();
    for (std::size_t g = 0; g < cells.size(); ++g) {
        const double cost = 35.0 * cells[g] + 13.0 * bodies[g];
        c.mean += cost;
        c.worst = std::max(c.worst, cost);
    }
    c.mean /= double(cells.size());
    return c;
}

}  // namespace

// A group made of several children of a split cell H (packed by H) never overlaps, with its bodies' box, a
// child of H that is itself split: the box rule, checked from the positions rather than the moments.
TEST(TreeGroups, PackedGroupsStayClearOfDenseSiblings) {
    for (const State& s : {test::plummer_state(20000, 5), test::two_far_clusters(20000, kApart, 5)}) {
        for (int group : {8, 32, 64}) {
            SCOPED_TRACE("group " + std::to_string(group));
            CpuTree t(2);
            test::tree_accelerations(s, TreeParams{.group = group}, kEps, 2, nullptr, &t);
            const auto& cells = t.cells();
            const auto split = [&](const tree::TreeCell& k) {
                return k.body_count > uint32_t(group) && k.n_children > 0;
            };
            std::size_t packed = 0;
            for (const tree::TreeGroup& g : t.groups()) {
                const std::size_t h = test::deepest_cell_holding(cells, g.begin, g.begin + g.count);
                if (!split(cells[h])) continue;  // one piece: a small cell or a chunk of a leaf
                ++packed;
                const tree::BodyBox box = bodies_box(s, t, g.begin, g.begin + g.count);
                for (uint32_t c = 0; c < cells[h].n_children; ++c) {
                    const tree::TreeCell& kid = cells[cells[h].first_child + c];
                    if (!split(kid)) continue;
                    ASSERT_FALSE(tree::overlap(box, bodies_box(s, t, kid.body_begin, kid.body_begin + kid.body_count)))
                        << "group at " << g.begin << " reaches into a split sibling";
                }
            }
            EXPECT_GT(packed, 0u) << "no packed groups: the check checked nothing";
        }
    }
}

// The GPU walk at 131,072 bodies is about as long as its costliest group (one warp; the mean warp holds
// fewer than two groups). Packed outskirt bodies spanning a cluster's core made that group 24 times the mean on
// this Plummer sphere and 8 times on these two clusters 1e4 apart; the box rule keeps both near 3. Far apart, the
// clusters cost the same work a body as one sphere.
TEST(TreeGroups, CostliestListStaysNearTheMean) {
    const std::size_t n = 131072;
    const State one = rounded_to_float32(test::plummer_state(n, 21));
    const State two = test::two_far_clusters(n, kApart, 7);
    double per_body[2] = {};
    for (int k = 0; k < 2; ++k) {
        const State& s = k == 0 ? one : two;
        CpuTree t(0);
        TreeStats st;
        std::vector<Float4> acc(n);
        t.evaluate(s.pos_mass.data(), n, TreeParams{}, kEps, acc.data(), &st);  // priming walk, then the criterion's
        t.evaluate(s.pos_mass.data(), n, TreeParams{}, kEps, acc.data(), &st, true);
        const ListCosts c = list_costs(t);
        per_body[k] = 35 * st.body_cell_per_body() + 13 * st.body_body_per_body();
        std::printf("%s: %zu groups of %.1f bodies; list cost mean %.0f, costliest %.0f (%.1f x)\n",
                    k == 0 ? "one Plummer sphere" : "two clusters 1e4 apart", st.groups,
                    double(n) / double(st.groups), c.mean, c.worst, c.worst / c.mean);
        EXPECT_LE(c.worst, 4 * c.mean);
        // Pieces that do not fit whole top a group up: 24.5 bodies a group here, 22.6 packing whole pieces alone.
        EXPECT_GE(double(n) / double(st.groups), 0.75 * 32) << "lanes left idle: groups too small";
    }
    EXPECT_NEAR(per_body[1] / per_body[0], 1.0, 0.1) << "the empty box costs work a body";
}

// Far apart, each cluster meets the accuracy goal as one sphere does (median <= 3e-4, 99th percentile <=
// 3e-3 against float64 direct summation, on a sample of 2,000 bodies).
TEST(TreeGroups, TwoFarClustersMeetTheAccuracyGoal) {
    const std::size_t n = 65536;
    const State s = test::two_far_clusters(n, kApart, 3);
    const auto rows = test::sample_rows(n, 2000);
    const auto ref = reference_accelerations(s, rows, kEps, 1.0);
    std::vector<Float4> acc(n);
    CpuTree t(0);
    t.evaluate(s.pos_mass.data(), n, TreeParams{}, kEps, acc.data());
    t.evaluate(s.pos_mass.data(), n, TreeParams{}, kEps, acc.data(), nullptr, true);
    const auto e = test::relative_errors(acc, rows, ref);
    std::printf("two clusters 1e4 apart, N = %zu: median %.3e, 99%% %.3e\n", n, test::quantile(e, 0.5),
                test::quantile(e, 0.99));
    EXPECT_LE(test::quantile(e, 0.5), 3e-4);
    EXPECT_LE(test::quantile(e, 0.99), 3e-3);
}
