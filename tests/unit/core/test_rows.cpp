// Integrator and force-method rows (core/rows/integrator.hpp, core/rows/force_method.hpp): every enumerator has its row,
// the rows agree with each other, combinations they do not list are refused naming both, and what a backend
// has no code for is refused naming the backend.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "test_util.hpp"

using namespace nbody;

TEST(Rows, EveryIntegratorHasItsRowAndName) {
    std::set<std::string> names;
    for (std::size_t k = 0; k < integrator_rows().size(); ++k) {
        const IntegratorInfo& row = integrator_rows()[k];
        EXPECT_EQ(static_cast<std::size_t>(row.id), k) << "rows are listed in enumerator order";
        EXPECT_EQ(&integrator_info(row.id), &row);
        EXPECT_EQ(parse_integrator(row.name), row.id);
        EXPECT_TRUE(names.insert(std::string(row.name)).second) << row.name;
        EXPECT_GT(row.order, 0);
        EXPECT_GT(row.flops_per_pair, 0.0);
        EXPECT_NE(row.methods, 0u) << row.name << " integrates no method";
        EXPECT_NE(row.precisions, 0u) << row.name;
        EXPECT_FALSE(row.pair_terms.empty());
        // block steps carry each body's time and step: a checkpoint must export them
        if (row.block_steps) {
            EXPECT_TRUE(row.own_state) << row.name;
        }
    }
}

TEST(Rows, EveryMethodHasItsRowAndTheRowsAgree) {
    for (std::size_t k = 0; k < method_rows().size(); ++k) {
        const MethodInfo& m = method_rows()[k];
        EXPECT_EQ(static_cast<std::size_t>(m.id), k);
        EXPECT_EQ(&method_info(m.id), &m);
        EXPECT_EQ(parse_method(m.name), m.id);
        ASSERT_NE(m.relative_work, nullptr);
        ASSERT_NE(m.label, nullptr);
        EXPECT_GT(m.relative_work(1e6), m.relative_work(1e3));
        // each integrator a method lists must list the method back, and the reverse
        for (const IntegratorInfo& in : integrator_rows())
            EXPECT_EQ((m.integrators & bit(in.id)) != 0, (in.methods & bit(m.id)) != 0) << m.name << " / " << in.name;
        // a method's default parameters are valid with the first integrator and precision it takes
        SimParams p;
        p.method = m.id;
        fit_to_method(p);
        EXPECT_NO_THROW(validate(p)) << m.name;
        EXPECT_FALSE(m.label(p).empty());
    }
}

TEST(Rows, RefusedCombinationsNameBothRows) {
    SimParams p;
    p.method = ForceMethod::Tree;
    p.integrator = Integrator::HermiteBlock;
    const std::string e = test::validation_error(p);
    EXPECT_NE(e.find("integrator: the tree runs with leapfrog and leapfrog-block only (got hermite-block)"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("; choose leapfrog or leapfrog-block, or method direct"), std::string::npos) << e;
    fit_to_method(p);
    EXPECT_EQ(p.integrator, Integrator::LeapFrog);
    p.precision = Precision::Fp64;
    fit_to_method(p);
    EXPECT_EQ(p.precision, Precision::Fp32);
}

TEST(Rows, ABackendsReachNamesTheBackendAndTheValue) {
    const BackendReach gl{"the gl backend", bit(Scheme::KickDriftKick), bit(ForceMethod::Direct),
                          bit(Precision::Fp32)};
    SimParams p;
    EXPECT_NO_THROW(check_reach(gl, p));
    auto refusal = [&](SimParams q) {
        try {
            check_reach(gl, q);
        } catch (const ParamError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    SimParams h = p;
    h.integrator = Integrator::Hermite;
    EXPECT_EQ(refusal(h), "integrator: the gl backend runs leapfrog only (got hermite)");
    SimParams t = p;
    t.method = ForceMethod::Tree;
    EXPECT_EQ(refusal(t), "method: the gl backend runs method direct only (got tree); choose backend cpu, which runs "
                         "every method");
    SimParams d = p;
    d.precision = Precision::DS;
    EXPECT_EQ(refusal(d), "precision: the gl backend runs fp32 only (got ds)");
}

// The shared- and block-step twin of a row is found from the rows (the GPU Hermite's single evaluations ask
// for the twin of their order), not named by hand.
TEST(Rows, EachIntegratorsBlockStepTwinSharesItsScheme) {
    for (const IntegratorInfo& row : integrator_rows()) {
        EXPECT_EQ(with_block_steps(row.id, row.block_steps), row.id) << row.name;
        for (bool block : {false, true}) {
            const IntegratorInfo& twin = integrator_info(with_block_steps(row.id, block));
            EXPECT_EQ(twin.scheme, row.scheme) << row.name;
            EXPECT_EQ(twin.order, row.order) << row.name;
            bool exists = false;
            for (const IntegratorInfo& other : integrator_rows())
                exists = exists || (other.scheme == row.scheme && other.block_steps == block);
            if (exists) {
                EXPECT_EQ(twin.block_steps, block) << row.name;
            }
        }
    }
    EXPECT_EQ(with_block_steps(Integrator::Hermite6, true), Integrator::Hermite6Block);
    EXPECT_EQ(with_block_steps(Integrator::HermiteBlock, false), Integrator::Hermite);
}
