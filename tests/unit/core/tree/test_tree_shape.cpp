// The octree's shape from sorted keys (core/tree/tree_shape.hpp), what the GPU build runs for every body at
// once: its per-body functions against brute force, and the whole cell array rebuilt from them serially (the
// GPU build's steps in order) against CpuTree's level-by-level build, byte for byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>

#include "core/tree/tree_shape.hpp"
#include "test_util.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

namespace {

struct ShapeTree {
    std::vector<tree::TreeCell> cells;
    std::vector<uint32_t> level_start;
};

int body_split_level(const std::vector<uint64_t>& keys, uint32_t i, int leaf) {
    return tree::split_level([&](uint32_t j) { return tree::window_level(keys.data(), j, leaf); }, i,
                             uint32_t(keys.size()), leaf);
}

// The GPU build's steps, serially: each body's levels and the per-level counts (the count pass), each level's
// first cell (the scan), cells placed by their rank within the level in body order (the write pass), then
// link_cell for each.
ShapeTree tree_from_keys(const std::vector<uint64_t>& keys, int leaf) {
    const uint32_t n = uint32_t(keys.size());
    std::vector<tree::BodyLevels> levels(n);
    std::array<uint32_t, tree::kMaxLevel + 2> start{};
    for (uint32_t i = 0; i < n; ++i) {
        levels[i] = tree::body_levels(tree::first_level(keys.data(), i), body_split_level(keys, i, leaf));
        for (int l = levels[i].lo; l <= levels[i].hi; ++l) ++start[std::size_t(l) + 1];
    }
    for (std::size_t l = 0; l + 1 < start.size(); ++l) start[l + 1] += start[l];
    ShapeTree t;
    const uint32_t total = start.back();
    t.cells.resize(total);
    std::array<uint32_t, tree::kMaxLevel + 2> next = start;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t child = 0;
        for (int l = levels[i].hi; l >= levels[i].lo; --l) {
            const uint32_t at = next[std::size_t(l)]++;
            t.cells[at] = tree::start_cell(keys[i], i, l, l < levels[i].hi ? child : 0);
            child = at;
        }
    }
    for (uint32_t c = 0; c < total; ++c) tree::link_cell(t.cells.data(), c, total, keys.data(), n);
    t.level_start.assign(start.begin(), start.begin() + tree::tree_depth(start.data()) + 1);
    t.level_start.push_back(total);
    return t;
}

void expect_same_as_cpu_tree(const State& s, int leaf) {
    SCOPED_TRACE("leaf " + std::to_string(leaf));
    CpuTree c(2);
    test::tree_accelerations(s, TreeParams{.theta = 0.5f, .leaf = leaf}, 0.01, 2, nullptr, &c);
    const ShapeTree t = tree_from_keys(c.keys(), leaf);
    EXPECT_EQ(t.level_start, c.level_starts());
    ASSERT_EQ(t.cells.size(), c.cells().size());
    for (std::size_t i = 0; i < t.cells.size(); ++i)
        ASSERT_EQ(std::memcmp(&t.cells[i], &c.cells()[i], sizeof t.cells[i]), 0)
            << "cell " << i << " (level " << int(c.cells()[i].level) << ")";
}

}  // namespace

TEST(TreeShape, SharedLevelsNameTheFirstDifferingTriple) {
    EXPECT_EQ(tree::shared_levels(5, 5), tree::kMaxLevel);
    EXPECT_EQ(tree::shared_levels(0, 1), tree::kMaxLevel - 1);  // the last triple differs
    EXPECT_EQ(tree::shared_levels(0, uint64_t(1) << 62), 0);    // the first triple's top bit
    EXPECT_EQ(tree::shared_levels(0, uint64_t(1) << 60), 0);    // the first triple's bottom bit
    EXPECT_EQ(tree::shared_levels(0, uint64_t(1) << 59), 1);
    std::mt19937_64 rng(3);
    for (int k = 0; k < 20000; ++k) {
        const uint64_t a = rng() >> 1, b = a ^ (rng() >> (1 + rng() % 63));  // differences at every depth
        int brute = 0;
        while (brute < tree::kMaxLevel &&
               a >> tree::level_shift(brute + 1) == b >> tree::level_shift(brute + 1))
            ++brute;
        ASSERT_EQ(tree::shared_levels(a, b), brute) << std::hex << a << " " << b;
    }
}

// split_level from the windows against its definition: the deepest level whose run of equal prefixes around
// body i holds more than leaf bodies, counted.
TEST(TreeShape, SplitLevelIsTheDeepestRunLargerThanTheLeaf) {
    std::mt19937_64 rng(5);
    for (uint32_t n : {1u, 2u, 5u, 17u, 70u, 300u}) {
        std::vector<uint64_t> keys(n);
        for (auto& k : keys) k = (rng() >> 1) & ~((uint64_t(1) << (3 * (rng() % 22))) - 1);  // clustered
        std::sort(keys.begin(), keys.end());
        for (int leaf : {1, 2, 16, 64})
            for (uint32_t i = 0; i < n; ++i) {
                int brute = -1;
                for (int l = 0; l <= tree::kMaxLevel; ++l) {
                    const int shift = tree::level_shift(l);
                    const auto run = std::count_if(
                        keys.begin(), keys.end(), [&](uint64_t k) { return k >> shift == keys[i] >> shift; });
                    if (run > leaf) brute = l;
                }
                ASSERT_EQ(body_split_level(keys, i, leaf), brute)
                    << "n " << n << " leaf " << leaf << " body " << i;
            }
    }
}

TEST(TreeShape, CellsMatchTheCpuTreeAtAwkwardN) {
    for (std::size_t n : {1u, 2u, 3u, 31u, 33u, 255u, 257u, 7499u, 100003u}) {
        SCOPED_TRACE(n);
        const State s = test::plummer_state(n, 11 + n);
        for (int leaf : {1, 16, 64}) expect_same_as_cpu_tree(s, leaf);
    }
}

TEST(TreeShape, CellsMatchTheCpuTreeOnDegenerateInput) {
    State s = test::plummer_state(3000, 4);
    for (std::size_t i = 1000; i < 3000; ++i)
        s.pos_mass[i] = {1.5, -2.5, 0.5, s.pos_mass[i].w};  // capped leaf
    for (int leaf : {1, 16, 64}) expect_same_as_cpu_tree(s, leaf);
    s = test::plummer_state(5000, 8);
    s.pos_mass[17] = {1e4, 0, 0, s.pos_mass[17].w};  // a far outlier: the rest deep in one corner
    for (int leaf : {1, 16, 64}) expect_same_as_cpu_tree(s, leaf);
    for (auto& p : s.pos_mass)
        p = {3, 3, 3, 1e-3};  // all at one point: a chain of single children to the cap
    for (int leaf : {1, 16, 64}) expect_same_as_cpu_tree(s, leaf);
    s = test::plummer_state(64, 9);
    for (auto& p : s.pos_mass) p = {3, 3, 3, 1e-3};  // n <= leaf 64: the root is the only cell
    for (int leaf : {1, 16, 64}) expect_same_as_cpu_tree(s, leaf);
}
