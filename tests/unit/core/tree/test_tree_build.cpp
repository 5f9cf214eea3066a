// The tree's structure: Morton keys, the octree's invariants, multipoles, parameter checks, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"
#include "core/tree/morton.hpp"
#include "test_util.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

TEST(TreeMorton, DilateAndContractAreInverse) {
    for (uint32_t v : {0u, 1u, 2u, 7u, 12345u, 0x155555u, 0x1fffffu})
        EXPECT_EQ(tree::contract3(tree::dilate3(v)), v);
    EXPECT_EQ(tree::morton_key(1, 0, 0), 4u);  // x is the most significant bit of each triple
    EXPECT_EQ(tree::morton_key(0, 1, 0), 2u);
    EXPECT_EQ(tree::morton_key(0, 0, 1), 1u);
    EXPECT_EQ(tree::morton_key(0x1fffff, 0x1fffff, 0x1fffff), (uint64_t(1) << 63) - 1);
}

TEST(TreeMorton, KeysClampToTheCube) {
    const tree::KeyBox box{-1, -1, -1, 2};
    EXPECT_EQ(tree::body_key(-1, -1, -1, box), 0u);
    EXPECT_EQ(tree::body_key(1, 1, 1, box), (uint64_t(1) << 63) - 1);  // upper face: last cell
    EXPECT_EQ(tree::body_key(-5, 9, -1, box) >> 60, 2u);  // x below -> 0, y above -> max: top triple 010
}

TEST(TreeParams, RangesAreChecked) {
    auto field = [](TreeParams p) -> std::string {
        try {
            p.validate();
        } catch (const ParamError& e) {
            return e.field + " | " + e.what();
        }
        return "";
    };
    EXPECT_EQ(field(TreeParams{}), "");
    EXPECT_EQ(field(TreeParams{.theta = 1.5f, .leaf = 1, .group = 8}), "");
    EXPECT_NE(field(TreeParams{0.0f}).find("theta | theta: must be from 1e-6 to 1.5 (got 0)"),
              std::string::npos);
    EXPECT_NE(field(TreeParams{1.6f}).find("theta"), std::string::npos);
    EXPECT_NE(field(TreeParams{NAN}).find("theta"), std::string::npos);
    EXPECT_NE(field(TreeParams{-0.5f}).find("theta"), std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .leaf = 0}).find("leaf: must be from 1 to 64 (got 0)"), std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .leaf = 65}).find("leaf"), std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .leaf = 16, .group = 7}).find("group: must be from 8 to 128 (got 7)"),
              std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .leaf = 16, .group = 129}).find("group"), std::string::npos);
    EXPECT_EQ(field(TreeParams{.theta = 0.5f, .alpha = 0}), "");  // off
    EXPECT_EQ(field(TreeParams{.theta = 0.5f, .alpha = 1}), "");
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .alpha = -1e-3f}).find("alpha | alpha: must be from 0 to 1 (0: off)"),
              std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .alpha = 1.5f}).find("alpha"), std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .alpha = NAN}).find("alpha"), std::string::npos);
    EXPECT_NE(field(TreeParams{.theta = 0.5f, .alpha = INFINITY}).find("alpha"), std::string::npos);
}

namespace {

// Checks every structural invariant of the last tree `t` built over `s` with leaf size `leaf`.
void expect_tree_invariants(const CpuTree& t, const State& s, int leaf) {
    const auto& cells = t.cells();
    const auto& keys = t.keys();
    const std::size_t n = s.size();
    ASSERT_FALSE(cells.empty());
    EXPECT_EQ(cells[0].body_begin, 0u);
    EXPECT_EQ(cells[0].body_count, n);
    EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
    // order() is a permutation
    std::vector<int> seen(n, 0);
    for (uint32_t i : t.order()) ++seen[i];
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
    std::vector<int> in_leaf(n, 0);
    const auto& ls = t.level_starts();
    EXPECT_LE(ls.size() - 2, std::size_t(tree::kMaxLevel));
    for (std::size_t l = 0; l + 1 < ls.size(); ++l)
        for (uint32_t c = ls[l]; c < ls[l + 1]; ++c) ASSERT_EQ(cells[c].level, l) << "cell " << c;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const tree::TreeCell& cell = cells[c];
        ASSERT_GT(cell.body_count, 0u);
        const int shift = tree::level_shift(cell.level);
        for (uint32_t k = cell.body_begin; k < cell.body_begin + cell.body_count; ++k) {
            ASSERT_EQ(keys[k] >> shift << shift, cell.key) << "body " << k << " outside cell " << c;
            // the body lies in the cell's geometric cube (a float32 step of slack at the faces)
            const tree::CellBox b = t.cell_box(c);
            const Double4 p = s.pos_mass[t.order()[k]];
            const double slack = 0.5 * b.side + 1e-6 * (1 + std::abs(p.x) + std::abs(p.y) + std::abs(p.z));
            ASSERT_LE(std::abs(float(p.x) - b.cx), slack);
            ASSERT_LE(std::abs(float(p.y) - b.cy), slack);
            ASSERT_LE(std::abs(float(p.z) - b.cz), slack);
        }
        if (cell.n_children == 0) {
            EXPECT_TRUE(cell.body_count <= uint32_t(leaf) || cell.level == tree::kMaxLevel) << "cell " << c;
            for (uint32_t k = cell.body_begin; k < cell.body_begin + cell.body_count; ++k) ++in_leaf[k];
            continue;
        }
        EXPECT_GT(cell.body_count, uint32_t(leaf));
        // children contiguous, one level down, covering the parent's bodies in order
        uint32_t next = cell.body_begin;
        for (uint32_t k = 0; k < cell.n_children; ++k) {
            const tree::TreeCell& ch = cells[cell.first_child + k];
            EXPECT_EQ(ch.level, cell.level + 1);
            EXPECT_EQ(ch.body_begin, next);
            next += ch.body_count;
        }
        EXPECT_EQ(next, cell.body_begin + cell.body_count) << "children of cell " << c << " miss bodies";
    }
    EXPECT_TRUE(std::all_of(in_leaf.begin(), in_leaf.end(), [](int c) { return c == 1; }))
        << "every body in exactly one leaf";
}

}  // namespace

TEST(TreeBuild, InvariantsOnPlummerAtAwkwardN) {
    for (std::size_t n : {1u, 2u, 3u, 31u, 33u, 255u, 257u, 7499u}) {
        SCOPED_TRACE(n);
        const State s = test::plummer_state(n, 3 + n);
        for (int leaf : {1, 16, 64}) {
            CpuTree t(2);
            TreeStats st;
            test::tree_accelerations(s, TreeParams{.theta = 0.5f, .leaf = leaf, .group = 32}, 0.01, 2, &st, &t);
            expect_tree_invariants(t, s, leaf);
            EXPECT_EQ(st.cells, t.cells().size());
            EXPECT_LE(st.depth, tree::kMaxLevel);
            EXPECT_GE(st.leaves, n / std::size_t(leaf));
        }
    }
}

TEST(TreeBuild, CoincidentBodiesStopAtTheDepthCap) {
    State s = test::plummer_state(100, 5);
    for (std::size_t i = 50; i < 100; ++i) s.pos_mass[i] = {0.25, -0.5, 0.125, s.pos_mass[i].w};
    CpuTree t(2);
    TreeStats st;
    test::tree_accelerations(s, TreeParams{}, 0.01, 2, &st, &t);
    expect_tree_invariants(t, s, 16);
    EXPECT_EQ(st.depth, tree::kMaxLevel);
    const auto it = std::find_if(t.cells().begin(), t.cells().end(), [](const tree::TreeCell& c) {
        return c.n_children == 0 && c.body_count >= 50;
    });
    ASSERT_NE(it, t.cells().end());
    EXPECT_EQ(it->level, tree::kMaxLevel);
}

// Short keys (tree_defs.hpp): where no level-16 cell holds more than a leaf the keys keep their top 48 bits and
// a level-16 cell's bodies their input order; a clump that fills one makes the tree sort on all 63 bits. The
// result depends on the bodies alone, not on what the same tree built before.
TEST(TreeBuild, ShortKeysUnlessALevel16CellOverflows) {
    const State sparse = test::plummer_state(5000, 21);
    State clumped = sparse;
    for (std::size_t i = 0; i < 40; ++i)  // 40 bodies within 1e-4: one level-16 cell (about 3e-4 wide here)
        clumped.pos_mass[i] = {0.1 + 1e-4 * double(i % 4) / 4, 0.2 + 1e-4 * double(i / 4 % 4) / 4,
                               0.3 + 1e-4 * double(i / 16) / 4, clumped.pos_mass[i].w};
    const TreeParams p{.theta = 0.5f, .leaf = 16, .group = 32};
    const uint64_t low = ~tree::kShortKeyMask;
    auto build = [&](CpuTree& t, const State& s) {
        TreeStats st;
        test::tree_accelerations(s, p, 0.01, 2, &st, &t);
        expect_tree_invariants(t, s, p.leaf);
        return st.depth;
    };

    CpuTree t(2);
    EXPECT_LE(build(t, sparse), tree::kShortLevels);
    const std::vector<uint64_t> sparse_keys = t.keys();
    const std::vector<uint32_t> sparse_order = t.order();
    EXPECT_TRUE(std::all_of(sparse_keys.begin(), sparse_keys.end(), [&](uint64_t k) { return (k & low) == 0; }));
    for (std::size_t k = 1; k < sparse_keys.size(); ++k) {
        if (sparse_keys[k] == sparse_keys[k - 1]) {
            EXPECT_LT(sparse_order[k - 1], sparse_order[k]) << k;
        }
    }

    EXPECT_GT(build(t, clumped), tree::kShortLevels);
    EXPECT_TRUE(std::any_of(t.keys().begin(), t.keys().end(), [&](uint64_t k) { return (k & low) != 0; }));

    // After the full keys, the sparse bodies again: the same tree as the first time.
    EXPECT_LE(build(t, sparse), tree::kShortLevels);
    EXPECT_EQ(t.keys(), sparse_keys);
    EXPECT_EQ(t.order(), sparse_order);
    // And a fresh tree on the clump: the same as the one that had built the sparse bodies first.
    CpuTree u(2);
    build(t, clumped);
    build(u, clumped);
    EXPECT_EQ(t.keys(), u.keys());
    EXPECT_EQ(t.order(), u.order());
}

// The root's moments equal the whole system's, computed directly in double about its centre of mass.
TEST(TreeBuild, RootMomentsMatchDirectSums) {
    const State s = rounded_to_float32(test::plummer_state(3000, 9));
    CpuTree t(2);
    test::tree_accelerations(s, TreeParams{}, 0.01, 2, nullptr, &t);
    double m = 0, cx = 0, cy = 0, cz = 0;
    for (const auto& p : s.pos_mass) m += p.w, cx += p.w * p.x, cy += p.w * p.y, cz += p.w * p.z;
    cx /= m, cy /= m, cz /= m;
    tree::MomentsD q{};
    for (const auto& p : s.pos_mass) tree::add_point_quadrupole(q, p.w, p.x - cx, p.y - cy, p.z - cz);
    const tree::CellMoments& r = t.moments()[0];
    EXPECT_NEAR(r.m, m, 1e-6 * m);
    EXPECT_NEAR(r.x, cx, 1e-6);
    EXPECT_NEAR(r.y, cy, 1e-6);
    EXPECT_NEAR(r.z, cz, 1e-6);
    const double scale = std::abs(q.qxx) + std::abs(q.qyy) + std::abs(q.qzz);
    for (auto [a, b] : {std::pair{r.qxx, q.qxx},
                        {r.qyy, q.qyy},
                        {r.qzz, q.qzz},
                        {r.qxy, q.qxy},
                        {r.qxz, q.qxz},
                        {r.qyz, q.qyz}})
        EXPECT_NEAR(a, b, 1e-5 * scale);
    EXPECT_NEAR(r.qxx + r.qyy + r.qzz, 0, 1e-5 * scale);  // traceless
}

// The same input gives the same bits whatever the thread count, and on a second evaluation.
TEST(TreeBuild, DeterministicForAnyThreadCount) {
    const State s = test::plummer_state(20000, 17);
    const auto a1 = test::tree_accelerations(s, TreeParams{}, 0.01, 1);
    const auto a2 = test::tree_accelerations(s, TreeParams{}, 0.01, 2);
    const auto a5 = test::tree_accelerations(s, TreeParams{}, 0.01, 5);
    CpuTree t(3);
    test::tree_accelerations(s, TreeParams{}, 0.01, 3, nullptr, &t);
    const auto again = test::tree_accelerations(s, TreeParams{}, 0.01, 3, nullptr, &t);
    EXPECT_EQ(std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(Float4)), 0);
    EXPECT_EQ(std::memcmp(a1.data(), a5.data(), a1.size() * sizeof(Float4)), 0);
    EXPECT_EQ(std::memcmp(a1.data(), again.data(), a1.size() * sizeof(Float4)), 0);
}

// The sort runs in parts of at least 16,384 bodies, one a thread: 100,000 bodies on 7 threads sort in 7, and
// give the serial sort's order (ties in input order) and the same tree.
TEST(TreeBuild, SortInPartsIsTheSerialSort) {
    const State s = test::plummer_state(100000, 23);
    CpuTree one(1), seven(7);
    const auto a1 = test::tree_accelerations(s, TreeParams{}, 0.01, 1, nullptr, &one);
    const auto a7 = test::tree_accelerations(s, TreeParams{}, 0.01, 7, nullptr, &seven);
    ASSERT_EQ(one.order().size(), s.size());
    EXPECT_TRUE(one.order() == seven.order());
    EXPECT_EQ(std::memcmp(a1.data(), a7.data(), a1.size() * sizeof(Float4)), 0);
    // Keys ascend, and equal keys keep input order: what the stable sort promises.
    const auto& key = seven.keys();
    const auto& order = seven.order();
    for (std::size_t k = 1; k < key.size(); ++k) {
        ASSERT_LE(key[k - 1], key[k]) << k;
        if (key[k - 1] == key[k]) {
            ASSERT_LT(order[k - 1], order[k]) << k;
        }
    }
    std::vector<uint32_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k) ASSERT_EQ(sorted[k], k);  // a permutation
}

// Groups cover every body once, each at most `group` bodies and inside one parent cell's box
// (packed siblings: compact), and they fill a warp's lanes: a group a child left them 9 of 32 full.
TEST(TreeGroups, PackedSiblingsCoverEveryBodyOnceAndFillTheLanes) {
    for (std::size_t n : {1u, 2u, 33u, 257u, 7499u, 100003u}) {
        for (int group : {8, 32, 64}) {
            SCOPED_TRACE(std::to_string(n) + " bodies, group " + std::to_string(group));
            const State s = test::plummer_state(n, 11 + n);
            CpuTree t(2);
            test::tree_accelerations(s, TreeParams{.theta = 0.5f, .leaf = 16, .group = group}, 0.01, 2, nullptr, &t);
            std::vector<tree::TreeGroup> groups = t.groups();  // in cell order (breadth first): sort by body
            std::sort(groups.begin(), groups.end(),
                      [](const tree::TreeGroup& a, const tree::TreeGroup& b) { return a.begin < b.begin; });
            const auto& cells = t.cells();
            uint32_t next = 0;
            for (const tree::TreeGroup& g : groups) {
                ASSERT_EQ(g.begin, next) << "groups leave a gap or overlap";
                ASSERT_GE(g.count, 1u);
                ASSERT_LE(g.count, uint32_t(group));
                next = g.begin + g.count;
                // H, the deepest cell holding the whole group, is the parent it was packed in: each child of H
                // that shares bodies with the group was emitted whole (a leaf or at most `group` bodies), or
                // H is itself such a cell (the root, or a leaf cut in chunks). Packing across parents fails.
                const auto emitted = [&](const tree::TreeCell& k) {
                    return k.n_children == 0 || k.body_count <= uint32_t(group);
                };
                const std::size_t h = test::deepest_cell_holding(cells, g.begin, g.begin + g.count);
                const tree::TreeCell& hc = cells[h];
                bool inside_small_parent = emitted(hc);
                if (!inside_small_parent) {
                    inside_small_parent = true;
                    for (uint32_t c = 0; c < hc.n_children; ++c) {
                        const tree::TreeCell& kid = cells[hc.first_child + c];
                        const bool shares = kid.body_begin < g.begin + g.count && g.begin < kid.body_begin + kid.body_count;
                        if (shares && !emitted(kid)) inside_small_parent = false;
                    }
                }
                ASSERT_TRUE(inside_small_parent) << "group at " << g.begin << " spans more than one parent";
            }
            EXPECT_EQ(next, n) << "groups miss bodies";
            if (n >= 100000 && group == 32) {
                EXPECT_GE(double(n) / double(groups.size()), 0.6 * group) << "lanes left idle: groups too small";
            }
        }
    }
}
