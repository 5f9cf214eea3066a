// The tree on awkward input: nothing, one body, two, all at one point, a far outlier, NaN and inf, too many.
#include <gtest/gtest.h>

#include <cmath>

#include "core/errors.hpp"
#include "test_util.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

namespace {
std::string error_of(const State& s) {
    try {
        test::tree_accelerations(s, TreeParams{}, 0.01);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}
}  // namespace

TEST(TreeEdge, NoBodiesIsANoOp) {
    CpuTree t(2);
    TreeStats st;
    st.cells = 99;
    t.evaluate(static_cast<const Double4*>(nullptr), 0, TreeParams{}, 0.01, nullptr, &st);
    EXPECT_EQ(st.cells, 0u);
    EXPECT_TRUE(t.cells().empty());
}

TEST(TreeEdge, OneBodyFeelsNothingAndTwoFeelEachOther) {
    State s;
    s.resize(1);
    s.pos_mass[0] = {3, -2, 1, 2};
    auto a = test::tree_accelerations(s, TreeParams{}, 0.0);
    EXPECT_EQ(a[0].x, 0.f);
    EXPECT_EQ(a[0].y, 0.f);
    EXPECT_EQ(a[0].z, 0.f);
    s.resize(2);
    s.pos_mass[1] = {6, 2, 1, 1};  // 5 away along (3, 4, 0)
    a = test::tree_accelerations(s, TreeParams{}, 0.0);
    EXPECT_NEAR(a[0].x, 3.0 / 125, 1e-7);
    EXPECT_NEAR(a[0].y, 4.0 / 125, 1e-7);
    EXPECT_NEAR(a[1].x, -6.0 / 125, 1e-7);
    EXPECT_NEAR(a[1].y, -8.0 / 125, 1e-7);
}

// 3,000 coincident bodies: one capped leaf at level 21; every force is exactly zero (d = 0 in every pair).
TEST(TreeEdge, AllBodiesAtOnePoint) {
    State s = test::plummer_state(3000, 4);
    for (auto& p : s.pos_mass) p = {1.5, -2.5, 0.5, p.w};
    for (double eps : {0.01, 0.0}) {
        TreeStats st;
        const auto a = test::tree_accelerations(s, TreeParams{}, eps, 2, &st);
        for (const Float4& f : a) ASSERT_TRUE(f.x == 0 && f.y == 0 && f.z == 0);
        EXPECT_EQ(st.depth, tree::kMaxLevel);
        EXPECT_EQ(st.body_body, uint64_t(3000) * 3000);
    }
}

// A dense core and one body 1e4 away: the cube is 1e4 wide, the core resolved to 1e4 / 2^21 = 5e-3; forces on
// the core and on the outlier stay accurate.
TEST(TreeEdge, FarOutlier) {
    State s = rounded_to_float32(test::plummer_state(5000, 8));
    s.pos_mass[17] = {1e4, 0, 0, s.pos_mass[17].w};
    const auto rows = test::sample_rows(s.size(), 500);
    auto with17 = rows;
    with17.push_back(17);
    const auto ref = reference_accelerations(s, with17, 0.01, 1.0);
    TreeStats st;
    const auto e =
        test::relative_errors(test::tree_accelerations(s, TreeParams{}, 0.01, 2, &st), with17, ref);
    EXPECT_LE(test::quantile(e, 0.5), 3e-4);
    EXPECT_LE(test::quantile(e, 0.99), 3e-3);
    EXPECT_LE(e.back(), 1e-2);
    EXPECT_LE(st.depth, tree::kMaxLevel);
}

TEST(TreeEdge, NonFiniteInputIsRefusedNamingTheBody) {
    State s = test::plummer_state(300, 2);
    s.pos_mass[123].y = NAN;
    s.pos_mass[200].x = INFINITY;
    {  // a large N, where conversion runs on several threads: still refused (not std::terminate), by index
        State big = test::plummer_state(50000, 2);
        big.pos_mass[45678].z = 1e300;
        big.pos_mass[49999].x = NAN;
        EXPECT_NE(error_of(big).find("tree: body 45678: position or mass is beyond float32's range ("),
                  std::string::npos)
            << error_of(big);
    }
    EXPECT_NE(error_of(s).find("tree: body 123: position or mass is NaN ("), std::string::npos)
        << error_of(s);
    s.pos_mass[123].y = 0;
    EXPECT_NE(error_of(s).find("tree: body 200: position or mass is infinite (inf"), std::string::npos)
        << error_of(s);
    s.pos_mass[200].x = 1e300;  // finite in double, infinite in float32
    EXPECT_NE(error_of(s).find("body 200: position or mass is beyond float32's range (1e300"),
              std::string::npos)
        << error_of(s);
    s.pos_mass[200].x = 0;
    s.pos_mass[7].w = NAN;
    EXPECT_NE(error_of(s).find("body 7"), std::string::npos) << error_of(s);
}

// Refused before anything is read or allocated: the pointer is never touched.
TEST(TreeEdge, TooManyBodiesIsRefusedWithTheNumber) {
    CpuTree t(1);
    const std::size_t n = CpuTree::max_bodies() + 1;
    try {
        t.evaluate(static_cast<const Double4*>(nullptr), n, TreeParams{}, 0.01, nullptr);
        FAIL() << "accepted " << n << " bodies";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(std::to_string(n) + " bodies"), std::string::npos) << e.what();
    }
}

TEST(TreeEdge, BadParamsAndSofteningAreRefused) {
    const State s = test::plummer_state(10, 1);
    CpuTree t(1);
    std::vector<Float4> a(10);
    EXPECT_THROW(t.evaluate(s.pos_mass.data(), 10, TreeParams{2.0f}, 0.01, a.data()), ParamError);
    EXPECT_THROW(t.evaluate(s.pos_mass.data(), 10, TreeParams{}, -1.0, a.data()), ParamError);
    EXPECT_THROW(t.evaluate(s.pos_mass.data(), 10, TreeParams{}, NAN, a.data()), ParamError);
}

// A tree keeps its walking threads' lists from walk to walk (cpu/tree/walk_scratch.hpp): after a larger and a
// smaller run of bodies, and with potentials (the lists' key positions) in between, a walk gives what a fresh
// tree gives, bit for bit.
TEST(TreeEdge, WalksAfterOtherRunsGiveAFreshTreesBits) {
    const State big = test::plummer_state(6000, 31), small = test::plummer_state(300, 32);
    auto same = [](const std::vector<Float4>& a, const std::vector<Float4>& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i].x != b[i].x || a[i].y != b[i].y || a[i].z != b[i].z) return false;
        return true;
    };
    const TreeParams p{};
    const auto want_big = test::tree_accelerations(big, p, 0.01, 3);
    const auto want_small = test::tree_accelerations(small, p, 0.01, 3);
    CpuTree reused(3);
    EXPECT_TRUE(same(test::tree_accelerations(small, p, 0.01, 3, nullptr, &reused), want_small));
    EXPECT_TRUE(same(test::tree_accelerations(big, p, 0.01, 3, nullptr, &reused), want_big));
    std::vector<double> phi(big.size());
    reused.potentials(big.pos_mass.data(), big.size(), p, 0.01, phi.data());
    EXPECT_TRUE(same(test::tree_accelerations(small, p, 0.01, 3, nullptr, &reused), want_small));
    EXPECT_TRUE(same(test::tree_accelerations(big, p, 0.01, 3, nullptr, &reused), want_big));
}
