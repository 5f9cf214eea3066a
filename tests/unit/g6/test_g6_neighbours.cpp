// The GRAPE-6 neighbour searches' k-d tree (g6/neighbour_tree.hpp) gives the brute force's answers exactly: nearest
// neighbours (ties to the lowest position) and neighbour lists (in position order), on sets that stress a tree: a
// dense core, a flat disk, coincident points, a far outlier, NaN and infinite points, queries outside the sources.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "g6/neighbour_tree.hpp"

using nbody::g6::dist2;
using nbody::g6::NeighbourTree;

namespace {
struct Points {
    std::vector<double> x, y, z;
    void add(double a, double b, double c) { x.push_back(a), y.push_back(b), z.push_back(c); }
};

int brute_nearest(const Points& p, std::size_t sources, double qx, double qy, double qz) {
    double best = HUGE_VAL;
    int out = -1;
    for (std::size_t j = 0; j < sources; ++j) {
        const double r2 = dist2(p.x[j], p.y[j], p.z[j], qx, qy, qz);
        if (r2 > 0 && r2 < best) best = r2, out = static_cast<int>(j);
    }
    return out;
}

std::vector<int> brute_within(const Points& p, std::size_t sources, double qx, double qy, double qz, double h2) {
    std::vector<int> out;
    for (std::size_t j = 0; j < sources; ++j) {
        const double r2 = dist2(p.x[j], p.y[j], p.z[j], qx, qy, qz);
        if (r2 > 0 && r2 < h2) out.push_back(static_cast<int>(j));
    }
    return out;
}
}  // namespace

TEST(G6Neighbours, TreeAnswersAsTheBruteForce) {
    std::mt19937_64 gen(11);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    Points p;
    for (int i = 0; i < 2000; ++i) p.add(0.1 * normal(gen), 0.1 * normal(gen), 0.1 * normal(gen));  // a core
    for (int i = 0; i < 600; ++i) p.add(3 * unit(gen), 3 * unit(gen), 0.0);                          // a flat disk
    for (int i = 0; i < 50; ++i) p.add(0.25, -0.5, 0.125);                                           // coincident
    p.add(1e4, 0, 0);                                                                                 // an outlier
    p.add(std::numeric_limits<double>::quiet_NaN(), 0, 0);
    p.add(0, std::numeric_limits<double>::infinity(), 0);
    const std::size_t sources = p.x.size();
    // Queries (the i-particles, after the sources): at sources (zero distance excluded), near the core, in the
    // disk's plane, far out, at the coincident point, NaN.
    for (int i = 0; i < 100; ++i) {
        const std::size_t s = static_cast<std::size_t>(gen() % sources);
        p.add(p.x[s], p.y[s], p.z[s]);
    }
    for (int i = 0; i < 100; ++i) p.add(0.3 * normal(gen), 0.3 * normal(gen), 0.3 * normal(gen));
    for (int i = 0; i < 50; ++i) p.add(3 * unit(gen), 3 * unit(gen), 0.0);
    p.add(-50, 20, 7);
    p.add(0.25, -0.5, 0.125);
    p.add(std::numeric_limits<double>::quiet_NaN(), 1, 1);
    const NeighbourTree tree(p.x.data(), p.y.data(), p.z.data(), sources);
    std::vector<int> found;
    for (std::size_t q = sources; q < p.x.size(); ++q) {
        const double qx = p.x[q], qy = p.y[q], qz = p.z[q];
        EXPECT_EQ(tree.nearest(qx, qy, qz), brute_nearest(p, sources, qx, qy, qz)) << "query " << q - sources;
        for (double h2 : {0.0, 1e-6, 1e-3, 0.04, 1.0, 30.0, 1e300}) {
            tree.within(qx, qy, qz, h2, found);
            EXPECT_EQ(found, brute_within(p, sources, qx, qy, qz, h2)) << "query " << q - sources << ", h2 " << h2;
        }
    }
}

// Degenerate sets: one source, every source at one point, no finite source.
TEST(G6Neighbours, DegenerateSets) {
    Points one;
    one.add(1, 2, 3);
    one.add(1, 2, 4);  // the query
    const NeighbourTree g1(one.x.data(), one.y.data(), one.z.data(), 1);
    EXPECT_EQ(g1.nearest(1, 2, 4), 0);
    EXPECT_EQ(g1.nearest(1, 2, 3), -1);  // only itself, at zero distance
    Points same;
    for (int i = 0; i < 10; ++i) same.add(0.5, 0.5, 0.5);
    same.add(0.5, 0.5, 0.75);
    const NeighbourTree g2(same.x.data(), same.y.data(), same.z.data(), 10);
    EXPECT_EQ(g2.nearest(0.5, 0.5, 0.75), 0);  // ten at one distance: the lowest
    std::vector<int> found;
    g2.within(0.5, 0.5, 0.75, 0.1, found);
    EXPECT_EQ(found.size(), 10u);
    Points none;
    none.add(std::numeric_limits<double>::quiet_NaN(), 0, 0);
    none.add(0, 0, 0);
    const NeighbourTree g3(none.x.data(), none.y.data(), none.z.data(), 1);
    EXPECT_EQ(g3.nearest(0, 0, 0), -1);
    g3.within(0, 0, 0, 1e300, found);
    EXPECT_TRUE(found.empty());
}
