// The tree as a force method of the engine (SimParams::method = tree): the CPU backend's leap-frog over the
// CPU tree against direct summation, its energy over an orbit time, the work it reports (what it evaluated,
// never N^2 in disguise), and what it refuses and why (scene files, flags, parameters).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/scene_file.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

SimParams tree_params(double dt, float theta = 0.5f) {
    SimParams p;
    p.method = ForceMethod::Tree;
    p.tree.theta = theta;
    p.dt = dt;
    p.eps = 0.01;
    return p;
}

// E = T + W in float64 over all pairs (core/physics/diagnostics.hpp), G = 1.
double total_energy(CpuBackend& b, double eps) {
    State s;
    b.read_state(s);
    return compute_diagnostics(s, eps, 1.0).total;
}

std::string param_error(const SimParams& p) { return test::validation_error(p); }

}  // namespace

// The same run, tree against direct: after 50 steps of a Plummer sphere the positions agree to what a force
// error of ~1e-4 allows (measured 7.7e-7 at the largest, in length units; the sphere's radius is about 1).
TEST(TreeMethod, CpuTreeRunFollowsDirectSummation) {
    const State s = rounded_to_float32(test::plummer_state(3000, 21));
    CpuBackend direct(2), tree(2);
    SimParams d = tree_params(1e-3);
    d.method = ForceMethod::Direct;
    direct.reset(s, d);
    tree.reset(s, tree_params(1e-3));
    direct.step(50);
    tree.step(50);
    State a, b;
    direct.read_state(a);
    tree.read_state(b);
    double worst = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double dx = a.pos_mass[i].x - b.pos_mass[i].x, dy = a.pos_mass[i].y - b.pos_mass[i].y,
                     dz = a.pos_mass[i].z - b.pos_mass[i].z;
        worst = std::max(worst, std::sqrt(dx * dx + dy * dy + dz * dz));
    }
    std::printf("tree against direct after 50 steps: largest position difference %.3g\n", worst);
    EXPECT_GT(worst, 0.0) << "the tree run is the direct run: the tree was not used";
    EXPECT_LT(worst, 1e-5);
    EXPECT_DOUBLE_EQ(a.time, b.time);
}

// Leap-frog over tree forces keeps the energy over a crossing time (the force error is not a drift; measured
// 3.4e-5).
TEST(TreeMethod, CpuTreeConservesEnergy) {
    const State s = test::plummer_state(1500, 5);
    CpuBackend b(2);
    SimParams p = tree_params(1.0 / 128);
    b.reset(s, p);
    const double e0 = total_energy(b, p.eps);
    b.step(256);  // t = 2
    const double e1 = total_energy(b, p.eps);
    std::printf("tree leap-frog, 1,500 bodies to t = 2: relative energy error %.3g\n", std::abs(e1 - e0) / std::abs(e0));
    EXPECT_LT(std::abs(e1 - e0) / std::abs(e0), 1e-3);
}

// The work a step is what the walk evaluated: body-body and body-cell, with N^2 kept apart as the equivalent.
TEST(TreeMethod, WorkIsWhatTheTreeEvaluated) {
    const std::size_t n = 20000;
    CpuBackend b(2);
    b.reset(test::plummer_state(n, 9), tree_params(1e-3));
    const WorkCount w0 = b.work();
    b.step(2);
    const WorkCount w = b.work() - w0;
    const double n2 = double(n) * double(n);
    EXPECT_EQ(w.evaluations, 2);
    EXPECT_GT(w.body_cell, 0.0);
    EXPECT_GT(w.pairs, 0.0);
    EXPECT_LT(w.pairs + w.body_cell, 0.5 * 2 * n2) << "a tree at 20,000 bodies evaluates far fewer than N^2";
    EXPECT_DOUBLE_EQ(w.equivalent_direct, 2 * n2);
    EXPECT_NE(b.kernel_label().find("tree theta 0.5"), std::string::npos) << b.kernel_label();
}

// A smaller opening angle opens more cells: set_params re-evaluates with it, keeping the bodies.
TEST(TreeMethod, ThetaChangesTheForcesAndKeepsTheBodies) {
    const State s = test::plummer_state(5000, 2);
    CpuBackend b(2);
    b.reset(s, tree_params(1e-3, 0.9f));
    std::vector<Double4> coarse, fine;
    b.read_accelerations(coarse);
    const WorkCount w0 = b.work();
    b.set_params(tree_params(1e-3, 0.3f));
    b.read_accelerations(fine);
    State now;
    b.read_state(now);
    EXPECT_EQ(now.pos_mass[17].x, s.pos_mass[17].x);
    int differ = 0;
    for (std::size_t i = 0; i < s.size(); ++i) differ += coarse[i].x != fine[i].x;
    EXPECT_GT(differ, int(s.size()) / 2);
    b.step(1);
    const WorkCount w1 = b.work() - w0;
    b.set_params(tree_params(1e-3, 0.9f));
    const WorkCount w2 = b.work();
    b.step(1);
    EXPECT_GT(w1.pairs + w1.body_cell, (b.work() - w2).pairs + (b.work() - w2).body_cell);
}

TEST(TreeMethod, RefusalsNameTheFieldAndWhatRuns) {
    SimParams p = tree_params(0.01);
    p.integrator = Integrator::Hermite;
    EXPECT_NE(
        param_error(p).find("integrator: the tree runs with leapfrog and leapfrog-block only (got hermite)"),
        std::string::npos)
        << param_error(p);
    p = tree_params(0.01);
    p.precision = Precision::DS;
    EXPECT_NE(param_error(p).find("precision: the tree evaluates forces in fp32 only (got ds)"), std::string::npos)
        << param_error(p);
    p = tree_params(0.01, 2.0f);
    EXPECT_NE(param_error(p).find("theta: must be from 1e-6 to 1.5 (got 2)"), std::string::npos) << param_error(p);
    p = tree_params(0.01);
    p.tree.group = 4;
    EXPECT_NE(param_error(p).find("group: must be from 8 to 128"), std::string::npos) << param_error(p);
    // The backend keeps its state on a refusal.
    CpuBackend b(1);
    const State s = test::plummer_state(100, 1);
    b.reset(s, tree_params(0.01));
    p = tree_params(0.01);
    p.integrator = Integrator::HermiteBlock;
    EXPECT_THROW(b.set_params(p), ParamError);
    EXPECT_EQ(b.params().method, ForceMethod::Tree);
    EXPECT_EQ(b.size(), 100u);
}

TEST(TreeMethod, ADistributedRunRefusesTheTree) {
    CpuBackend b(1);
    RangePartition part;
    part.begin = 0, part.end = 50;
    part.gather = [](std::vector<Double4>&) {};
    b.set_partition(part);
    try {
        b.reset(test::plummer_state(100, 1), tree_params(0.01));
        FAIL() << "a partitioned tree run was accepted";
    } catch (const ParamError& e) {
        EXPECT_EQ(e.field, "method");
        EXPECT_NE(std::string(e.what()).find("direct summation only"), std::string::npos) << e.what();
    }
}

TEST(TreeMethod, SceneFilesNameTheTreeAndItsAngle) {
    const std::string base = "name = \"t\"\nbodies = 100\n[[component]]\ntype = \"plummer\"\nfraction = 1\n";
    const SceneSpec s = parse_scene("method = \"tree\"\ntheta = 0.7\nalpha = 0.002\n" + base, "s.toml");
    const SimParams p = s.apply_to(SimParams{});
    EXPECT_EQ(p.method, ForceMethod::Tree);
    EXPECT_FLOAT_EQ(p.tree.theta, 0.7f);
    EXPECT_FLOAT_EQ(p.tree.alpha, 0.002f);
    EXPECT_FLOAT_EQ(parse_scene("method = \"tree\"\n" + base, "s.toml").apply_to(SimParams{}).tree.alpha,
                    TreeParams{}.alpha);  // not named: the default
    // A bad value is refused at its line (2), naming the key and its range.
    auto expect_refused = [&](const std::string& line, const std::string& key, const std::string& bound) {
        try {
            parse_scene("method = \"tree\"\n" + line + "\n" + base, "s.toml");
            FAIL() << line << " accepted";
        } catch (const SceneError& e) {
            EXPECT_EQ(e.line, 2);
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find(bound), std::string::npos) << e.what();
        }
    };
    expect_refused("alpha = -1", "alpha", "from 0 to 1");
    expect_refused("theta = 2", "theta", "1.5");
}
