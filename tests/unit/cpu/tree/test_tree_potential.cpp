// Each body's potential through the tree (CpuTree::potentials) against the exact float64 sum over every pair
// (core/diagnostics body_potentials): few bodies are the exact sum, softening is the exact sum's, and at the
// picture's opening angle the errors stay within what colour by potential's note states
// (app/potential_note.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/potential_note.hpp"
#include "core/physics/diagnostics.hpp"
#include "scene/scene_file.hpp"
#include "test_util.hpp"
#include "tree_test_util.hpp"

using namespace nbody;

namespace {

std::vector<double> tree_potentials(const State& s, const TreeParams& p, double eps,
                                    TreeStats* st = nullptr) {
    std::vector<double> phi(s.size());
    CpuTree(2).potentials(s.pos_mass.data(), s.size(), p, eps, phi.data(), st);
    return phi;
}

// |phi - exact| / |exact| over the bodies `rows` (exact[r] belongs to body rows[r]), sorted.
std::vector<double> relative_errors(const std::vector<double>& phi, const std::vector<std::size_t>& rows,
                                    const std::vector<double>& exact) {
    std::vector<double> e;
    for (std::size_t r = 0; r < rows.size(); ++r)
        e.push_back(std::abs(phi[rows[r]] - exact[r]) / std::abs(exact[r]));
    std::sort(e.begin(), e.end());
    return e;
}

// The exact sum for the bodies `rows` only (O(rows x N)): the reference at sizes the full sum is too slow
// for.
std::vector<double> exact_rows(const State& s, const std::vector<std::size_t>& rows, double eps) {
    std::vector<double> out;
    for (std::size_t i : rows) {
        double sum = 0;
        for (std::size_t j = 0; j < s.size(); ++j) {
            if (j == i) continue;
            const double dx = s.pos_mass[j].x - s.pos_mass[i].x, dy = s.pos_mass[j].y - s.pos_mass[i].y,
                         dz = s.pos_mass[j].z - s.pos_mass[i].z;
            sum += s.pos_mass[j].w / std::sqrt(dx * dx + dy * dy + dz * dz + eps * eps);
        }
        out.push_back(-sum);
    }
    return out;
}

TreeParams picture_params() {
    TreeParams p;
    p.theta = potential_view::kTreeTheta;
    return p;
}

State scene_state(const std::string& file, std::size_t n) {
    SceneSpec spec = load_scene_file(std::string(NBODY_SOURCE_DIR "/scenes/") + file);
    rescale_bodies(spec, n);
    return rounded_to_float32(build_scene(spec));
}

struct Measured {
    double median, max;
};

Measured measure(const char* what, const State& s, const std::vector<std::size_t>& rows,
                 const std::vector<double>& exact, double eps) {
    TreeStats st;
    const auto e = relative_errors(tree_potentials(s, picture_params(), eps, &st), rows, exact);
    const Measured m{test::quantile(e, 0.5), test::quantile(e, 1.0)};
    std::printf(
        "%s, N = %zu, theta %.2f: median relative error %.2e, max %.2e (%zu bodies compared); per body "
        "%.0f body-body + %.0f body-cell, %.0f ms\n",
        what, s.size(), double(potential_view::kTreeTheta), m.median, m.max, rows.size(),
        st.body_body_per_body(), st.body_cell_per_body(), st.total_seconds() * 1e3);
    EXPECT_GT(st.body_cell, 0u);  // cells were accepted: the expansion is what is measured
    return m;
}

}  // namespace

// N = 1, 2, 3 and a few more fit one leaf, which the tree opens whatever theta: the exact sum, up to the
// float32 rounding of positions and of each term. One body alone has no potential.
TEST(TreePotential, FewBodiesAreTheExactSum) {
    for (std::size_t n : {1u, 2u, 3u, 17u}) {
        SCOPED_TRACE(n);
        const State s = rounded_to_float32(test::plummer_state(n, 5 + n));
        for (double eps : {0.0, 0.05}) {
            const auto exact = body_potentials(s, eps, 1.0);
            TreeStats st;
            const auto phi = tree_potentials(s, picture_params(), eps, &st);
            EXPECT_EQ(st.body_cell, 0u);
            for (std::size_t i = 0; i < n; ++i) {
                if (n == 1) {
                    EXPECT_EQ(phi[i], 0.0);
                    continue;
                }
                EXPECT_NEAR(phi[i], exact[i], 1e-6 * std::abs(exact[i])) << "body " << i << " eps " << eps;
            }
        }
    }
}

// Two bodies of masses 2 and 3 a distance 0.3 apart: phi_1 = -3 / sqrt(0.09 + eps^2); on one point they add
// each other m / eps with softening and nothing without (as the exact sum).
TEST(TreePotential, SofteningIsThePlummerSoftening) {
    State s;
    s.resize(2);
    s.pos_mass[0] = {0.1, 0.2, 0.3, 2.0};
    s.pos_mass[1] = {0.4, 0.2, 0.3, 3.0};
    s = rounded_to_float32(s);
    const double r = double(float(0.4)) - double(float(0.1));
    for (double eps : {0.0, 0.01, 0.3, 10.0}) {
        SCOPED_TRACE(eps);
        const auto phi = tree_potentials(s, picture_params(), eps);
        EXPECT_NEAR(phi[0], -3.0 / std::sqrt(r * r + eps * eps), 1e-6 * std::abs(phi[0]));
        EXPECT_NEAR(phi[1], -2.0 / std::sqrt(r * r + eps * eps), 1e-6 * std::abs(phi[1]));
    }
    s.pos_mass[1] = s.pos_mass[0];
    s.pos_mass[1].w = 3.0;
    const auto soft = tree_potentials(s, picture_params(), 0.25);
    EXPECT_NEAR(soft[0], -3.0 / 0.25, 1e-6 * 12);
    EXPECT_NEAR(soft[1], -2.0 / 0.25, 1e-6 * 8);
    const auto bare = tree_potentials(s, picture_params(), 0.0);
    EXPECT_EQ(bare[0], 0.0);
    EXPECT_EQ(bare[1], 0.0);
}

// The potentials come out of the walk that makes the accelerations: the same lists, so the same counts.
TEST(TreePotential, TheWalkIsTheAccelerations) {
    const State s = rounded_to_float32(test::plummer_state(3000, 3));
    TreeParams p = picture_params();
    p.alpha = 0;  // the potentials' walk opens by theta alone
    TreeStats acc_st, phi_st;
    test::tree_accelerations(s, p, 0.01, 2, &acc_st);
    tree_potentials(s, p, 0.01, &phi_st);
    EXPECT_EQ(phi_st.body_body, acc_st.body_body);
    EXPECT_EQ(phi_st.body_cell, acc_st.body_cell);
    EXPECT_GT(phi_st.body_cell, 0u);
    // alpha is not read: the same walk with the criterion asked for
    TreeStats with_alpha;
    p.alpha = 0.001f;
    tree_potentials(s, p, 0.01, &with_alpha);
    EXPECT_EQ(with_alpha.body_cell, phi_st.body_cell);
}

// The accuracy the note states, on every body of a Plummer sphere and of two disk galaxies with their halos
// (galaxy-flyby at the start of its passage, the Cartwheel) at a few thousand bodies. Measured:
// medians 2.0e-5 to 3.0e-5, largest 2.9e-4 to 3.0e-4; sampled (1,000 bodies) at 131,072 bodies of each
// many-body scene in scenes/, and at cartwheel-1m's and milky-way-andromeda's full N (600 sampled), the
// medians stayed within 1.3e-5 to 4.8e-5 and the largest below 2.3e-4. A monopole-only expansion fails both
// bounds on the galaxies (median 3.6e-4, largest 1.7e-3); a body counted twice or not at all, or a cell
// accepted too near, fails the largest.
TEST(TreePotential, ErrorsStayWithinWhatTheNoteSays) {
    struct Case {
        const char* what;
        State s;
        double eps;
    };
    const Case cases[] = {{"Plummer sphere", rounded_to_float32(test::plummer_state(4096, 13)), 0.01},
                          {"galaxy-flyby", scene_state("galaxy-flyby.toml", 4096), 0.025},
                          {"cartwheel", scene_state("cartwheel.toml", 4096), 0.01}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const Measured m =
            measure(c.what, c.s, test::all_rows(c.s.size()), body_potentials(c.s, c.eps, 1.0), c.eps);
        EXPECT_LT(m.median, potential_view::kTreeMedianError);
        EXPECT_LT(m.max, potential_view::kTreeMaxError);
    }
}

// At the sizes the tree is for, on a sample of bodies: the errors do not grow with N past what the note says.
TEST(TreePotential, ErrorsHoldAtLargeN) {
    const State s = rounded_to_float32(test::plummer_state(131072, 17));
    const auto rows = test::sample_rows(s.size(), 512);
    const Measured m = measure("Plummer sphere, sampled", s, rows, exact_rows(s, rows, 0.01), 0.01);
    EXPECT_LT(m.median, potential_view::kTreeMedianError);
    EXPECT_LT(m.max, potential_view::kTreeMaxError);
}

// Softening as wide as the cells the walk accepts: the softened 1/r is not harmonic, so the expansion keeps
// the cells' trace (tree::softened_trace), which the traceless quadrupole alone drops. Measured:
// medians 1.4e-5 to 1.7e-5; without the trace term 8e-5, 5.3e-4 and 1.4e-3 (eps 0.1, 0.3, 1), which fails.
TEST(TreePotential, WideSofteningKeepsTheCellsTrace) {
    const State s = rounded_to_float32(test::plummer_state(4096, 19));
    for (double eps : {0.1, 0.3, 1.0}) {
        SCOPED_TRACE(eps);
        const Measured m = measure("Plummer sphere, wide softening", s, test::all_rows(s.size()),
                                   body_potentials(s, eps, 1.0), eps);
        EXPECT_LT(m.median, potential_view::kTreeMedianError);
        EXPECT_LT(m.max, potential_view::kTreeMaxError);
    }
}
