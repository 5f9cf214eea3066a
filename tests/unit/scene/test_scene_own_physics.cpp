// A scene loaded into a running window (the Scene panel's Load) runs with its own physics, whatever scene
// ran before it: SceneSpec::with_own_physics keeps only the running window's machine choices (backend, kernel,
// GPUs, threads). Checked for every ordered pair of shipped scenes.
#include <gtest/gtest.h>

#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "scene/scene_file.hpp"
#include "scene/scene_names.hpp"

using namespace nbody;

namespace {
SceneSpec shipped(const std::string& name) {
    return load_scene_file(NBODY_SOURCE_DIR "/scenes/" + name + ".toml");
}
}  // namespace

TEST(SceneOwnPhysics, EachShippedSceneCarriesOnlyItsOwnPhysicsAfterAnyOther) {
    const std::vector<std::string> names = scene_names(NBODY_SOURCE_DIR "/scenes");
    ASSERT_GE(names.size(), 2u);
    int pairs = 0;
    for (const std::string& before : names) {
        // The parameters after `before` loaded, with the user's own machine choices.
        SimParams running = shipped(before).with_own_physics({});
        running.backend = BackendKind::Cpu;
        running.cpu_threads = 1;
        for (const std::string& after : names) {
            const SceneSpec next = shipped(after);
            SimParams want = next.apply_to({});  // as the command line starts it
            want.backend = BackendKind::Cpu, want.cpu_threads = 1;
            const SimParams got = next.with_own_physics(running);
            EXPECT_TRUE(same_params(got, want))
                << after << " after " << before << ": method " << int(got.method) << " (want " << int(want.method)
                << "), integrator " << int(got.integrator) << " (want " << int(want.integrator) << "), eta "
                << got.eta << " (want " << want.eta << "), dt " << got.dt << " (want " << want.dt << ")";
            ++pairs;
        }
    }
    EXPECT_EQ(pairs, int(names.size() * names.size()));
}

TEST(SceneOwnPhysics, AKernelTheScenesPrecisionCannotRunGoesBackToAuto) {
    SimParams running;
    running.kernel_auto = false;
    running.variant = KernelVariant::Tensor;  // fp32 only
    SceneSpec s = shipped("plummer");
    EXPECT_EQ(s.with_own_physics(running).variant, KernelVariant::Tensor);  // an fp32 scene keeps it
    EXPECT_FALSE(s.with_own_physics(running).kernel_auto);
    s.precision = Precision::DS;
    const SimParams p = s.with_own_physics(running);
    EXPECT_TRUE(p.kernel_auto);
    EXPECT_NE(p.variant, KernelVariant::Tensor);
    EXPECT_NO_THROW(validate(p));
}
