// Block steps' refitted tree (core/tree/sub_step_rule.hpp, CpuTree::evaluate_active with may_refit): the rule,
// a refit of unmoved bodies is the build bit for bit, and one of bodies that moved far keeps the tree's
// accuracy (the boxes are the bodies' own again), where multipoles left from the build would not.
#include <gtest/gtest.h>

#include <cstring>

#include "core/tree/sub_step_rule.hpp"
#include "cpu/reference_force.hpp"
#include "test_util.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

namespace {

std::vector<Float4> float_bodies(const State& s) {
    std::vector<Float4> out(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) out[i] = to_float4(s.pos_mass[i]);
    return out;
}

State as_state(const std::vector<Float4>& b) {
    State s;
    s.resize(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) s.pos_mass[i] = to_double4(b[i]);
    return s;
}

// Relative errors of the active bodies' accelerations against float64 direct summation at eps.
std::vector<double> errors_of(const std::vector<Float4>& bodies, const std::vector<Float4>& acc,
                              const std::vector<uint8_t>& active, double eps) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        if (active[i]) rows.push_back(i);
    return test::relative_errors(acc, rows, reference_accelerations(as_state(bodies), rows, eps, 1.0, 2));
}

}  // namespace

TEST(TreeSubStepRule, AFewSumDirectlyUnderAnEighthRefitAndMoreBuild) {
    EXPECT_TRUE(tree::refits(7, 64));
    EXPECT_FALSE(tree::refits(8, 64));
    EXPECT_FALSE(tree::refits(1000, 1000));
    EXPECT_FALSE(tree::refits(0, 0));
    EXPECT_TRUE(tree::sums_directly(1, 64));
    EXPECT_FALSE(tree::sums_directly(2, 64));
    EXPECT_FALSE(tree::sums_directly(0, 64));
    // the star cluster's three deepest levels (408 of 65,536 bodies); the fourth (7,152) refits
    EXPECT_TRUE(tree::sums_directly(408, 65536));
    EXPECT_FALSE(tree::sums_directly(7152, 65536));
    EXPECT_TRUE(tree::refits(7152, 65536));
    // Milky Way-Andromeda's lower level: 954 of 2,097,152 is 2e9 pairs, the walk's
    EXPECT_FALSE(tree::sums_directly(954, 2097152));
    EXPECT_TRUE(tree::refits(954, 2097152));
}

// Where no body has moved, the refit's multipoles are the build's: every active body's acceleration is the
// same bits as a tree built afresh gives it.
TEST(TreeRefit, OfUnmovedBodiesIsTheBuildBitForBit) {
    const auto bodies = float_bodies(test::plummer_state(4096, 3));
    const std::size_t n = bodies.size();
    std::vector<uint8_t> active(n, 0);
    for (std::size_t i = 0; i < n; i += 10) active[i] = 1;
    const TreeParams p{};
    CpuTree kept(2), fresh(2);
    std::vector<Float4> a(n);
    kept.evaluate(bodies.data(), n, p, 0.01, a.data());
    std::vector<Float4> b = a;
    TreeStats ks, fs;
    kept.evaluate_active(bodies.data(), n, active.data(), p, 0.01, a.data(), &ks, true, true);
    fresh.evaluate_active(bodies.data(), n, active.data(), p, 0.01, b.data(), &fs, true, false);
    EXPECT_TRUE(ks.refitted);
    EXPECT_FALSE(fs.refitted);
    EXPECT_EQ(ks.t_sort, 0.0);
    EXPECT_EQ(ks.body_body, fs.body_body);
    EXPECT_EQ(ks.body_cell, fs.body_cell);
    ASSERT_EQ(std::memcmp(a.data(), b.data(), n * sizeof(Float4)), 0);
}

// Every body moved by about 0.1 and 200 pairs of bodies swapped (moves across the sphere): the refitted
// tree's median and 99th-percentile errors stay within twice a new tree's. Multipoles or boxes left from the
// build would put a swapped body's mass where it no longer is and miss these bounds.
TEST(TreeRefit, OfBodiesThatMovedFarKeepsTheTreesAccuracy) {
    auto bodies = float_bodies(test::plummer_state(8192, 5));
    const std::size_t n = bodies.size();
    const TreeParams p{};
    const double eps = 0.01;
    CpuTree refitted(2), built(2);
    std::vector<Float4> a(n);
    refitted.evaluate(bodies.data(), n, p, eps, a.data());
    test::scatter_bodies(bodies, 11, 0.06f, 200);
    std::vector<uint8_t> active(n, 0);
    for (std::size_t i = 0; i < n; i += 4) active[i] = 1;
    std::vector<Float4> b = a;
    TreeStats rs, bs;
    refitted.evaluate_active(bodies.data(), n, active.data(), p, eps, a.data(), &rs, true, true);
    built.evaluate_active(bodies.data(), n, active.data(), p, eps, b.data(), &bs, true, false);
    ASSERT_TRUE(rs.refitted);
    const auto er = errors_of(bodies, a, active, eps), eb = errors_of(bodies, b, active, eps);
    const double rm = test::quantile(er, 0.5), bm = test::quantile(eb, 0.5);
    const double r99 = test::quantile(er, 0.99), b99 = test::quantile(eb, 0.99);
    RecordProperty("refit_median", std::to_string(rm));
    RecordProperty("build_median", std::to_string(bm));
    EXPECT_LT(rm, 2 * bm) << "median error, refitted against built";
    EXPECT_LT(r99, 2 * b99) << "99th percentile, refitted against built";
    EXPECT_LT(r99, 3e-3);
}

// A refit needs the build's leaf and group sizes: with another leaf size the tree is built.
TEST(TreeRefit, AnotherLeafSizeBuilds) {
    const auto bodies = float_bodies(test::plummer_state(2048, 7));
    const std::size_t n = bodies.size();
    std::vector<uint8_t> active(n, 1);
    CpuTree t(2);
    std::vector<Float4> a(n);
    TreeParams p{};
    t.evaluate(bodies.data(), n, p, 0.01, a.data());
    p.leaf = 16;
    TreeStats st;
    t.evaluate_active(bodies.data(), n, active.data(), p, 0.01, a.data(), &st, true, true);
    EXPECT_FALSE(st.refitted);
    t.evaluate_active(bodies.data(), n, active.data(), p, 0.01, a.data(), &st, true, true);
    EXPECT_TRUE(st.refitted);
}
