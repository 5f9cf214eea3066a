// The automatic shared time step (core/session/auto_step.hpp): the rule's arithmetic on a hand-made CPU state, its
// refusals, the scene-file and command-line forms, and on every shipped scene at reduced N on the CPU: the
// automatic step keeps the energy bounded over a short run, and is never below half the step the scene
// needs (the largest power of two within the same bound, found by halving down from 16 times the automatic
// step).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "app/options.hpp"
#include "core/session/auto_step.hpp"
#include "core/physics/diagnostics.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "scene/scene_file.hpp"
#include "test_util.hpp"

using namespace nbody;

namespace {

// Three light bodies (the peak pull next to one, 0.385 G m / eps^2, is far below theirs): |a| = 1, 4 and 0
// (the last nothing pulls), all moving.
State three_bodies(double mass = 1e-6) {
    State s;
    s.resize(3);
    for (std::size_t i = 0; i < 3; ++i) s.pos_mass[i] = {double(i), 0, 0, mass}, s.vel[i] = {0, 1, 0, 0};
    return s;
}
const std::vector<Double4> kAcc = {{1, 0, 0, 0}, {0, 0, 4, 0}, {0, 0, 0, 0}};

}  // namespace

// min over bodies of eta sqrt(eps / |a|) = 0.5 sqrt(0.04 / 4) = 0.05, rounded down to 1/32.
TEST(AutoStep, SmallestWantRoundedDownToAPowerOfTwo) {
    const AutoStep a = auto_step(three_bodies(), kAcc, 0.04, 1.0);
    EXPECT_EQ(a.eta, kAutoStepEta);
    EXPECT_DOUBLE_EQ(a.want, 0.05);
    EXPECT_FALSE(a.by_heaviest);
    EXPECT_EQ(a.dt, 1.0 / 32);
    EXPECT_EQ(a.body, 1u);
    EXPECT_DOUBLE_EQ(a.accel, 4.0);
    EXPECT_EQ(
        auto_step_words(a),
        "dt 1/32 (auto): body 1 (|a| 4) wants 0.5 sqrt(eps / |a|) = 0.05; the power of two at or below it");
    // A want that is itself a power of two is kept, not halved.
    EXPECT_EQ(auto_step(three_bodies(), kAcc, 0.0625 * 0.0625 * 4, 1.0, 1.0).dt, 0.0625);
}

// A heavy body (a black hole of mass 1 at eps 0.01) can pull a passing body up to 0.385 G m / eps^2 = 3849:
// that bounds the step, 0.5 sqrt(0.01 / 3849) = 8.06e-4, rounded down to 1/2048, and the words say so.
TEST(AutoStep, PeakPullNextToTheHeaviestBody) {
    State s = three_bodies();
    s.pos_mass[2].w = 1.0;
    const AutoStep a = auto_step(s, kAcc, 0.01, 1.0);
    EXPECT_TRUE(a.by_heaviest);
    EXPECT_EQ(a.body, 2u);
    EXPECT_NEAR(a.accel, 3849.0, 0.1);
    EXPECT_NEAR(a.want, 0.5 * std::sqrt(0.01 / 3849.0), 1e-7);
    EXPECT_EQ(a.dt, 1.0 / 2048);
    EXPECT_NE(auto_step_words(a).find("next to the heaviest body (2) a pull of up to 3.85e+03"),
              std::string::npos)
        << auto_step_words(a);
    // G scales the pull: G = 1e-4 gives 0.385, below the bodies' own 4.
    EXPECT_FALSE(auto_step(s, kAcc, 0.01, 1e-4).by_heaviest);
}

// Without softening the criterion is eta |v| / |a|: 0.5 * 1 / 4 = 0.125.
TEST(AutoStep, UnsoftenedUsesTheVelocity) {
    const AutoStep a = auto_step(three_bodies(1.0), kAcc, 0.0, 1.0, 0.5);
    EXPECT_EQ(a.dt, 0.125);
    EXPECT_FALSE(a.by_heaviest);  // no softening: no peak pull
    EXPECT_EQ(auto_step(three_bodies(), kAcc, 0.0, 1.0).eta, kAutoStepEtaUnsoftened);
    EXPECT_NE(auto_step_words(a).find("|v| / |a|"), std::string::npos);
}

TEST(AutoStep, NothingPulledTakesTheUnboundedStep) {
    State one;
    one.resize(1);
    const AutoStep a = auto_step(one, {{0, 0, 0, 0}}, 0.01, 1.0);
    EXPECT_EQ(a.dt, kAutoStepUnbounded);
    EXPECT_NE(auto_step_words(a).find("nothing bounds"), std::string::npos);
}

TEST(AutoStep, RefusesUnderflowNaNAndMismatchedArrays) {
    std::vector<Double4> huge = kAcc;
    huge[0].x = 1e40;
    EXPECT_THROW(auto_step(three_bodies(), huge, 0.01, 1.0), ParamError);
    std::vector<Double4> nan = kAcc;
    nan[2].y = std::nan("");
    EXPECT_THROW(auto_step(three_bodies(), nan, 0.01, 1.0), ParamError);
    EXPECT_THROW(auto_step(three_bodies(), {kAcc[0]}, 0.01, 1.0), Error);
}

TEST(AutoStep, StepText) {
    EXPECT_EQ(step_text(1.0 / 64), "1/64");
    EXPECT_EQ(step_text(1.0), "1/1");
    EXPECT_EQ(step_text(0.01), "0.01");
    EXPECT_EQ(step_text(4.0), "4");
}

// dt = "auto" and no dt both mean the automatic step; a number does not; anything else, or "auto" with block
// steps, is a located error naming the field.
TEST(AutoStep, SceneFileForms) {
    const std::string body = "\n[[component]]\ntype = \"plummer\"\nn = 64\n";
    EXPECT_TRUE(parse_scene("dt = \"auto\"" + body, "s.toml").dt_auto);
    EXPECT_TRUE(parse_scene("eps = 0.05" + body, "s.toml").dt_auto);
    const SceneSpec given = parse_scene("dt = 0.02" + body, "s.toml");
    EXPECT_FALSE(given.dt_auto);
    EXPECT_EQ(given.dt, 0.02);
    const auto error_of = [&](const std::string& head) {
        try {
            parse_scene(head + body, "s.toml");
        } catch (const SceneError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_NE(
        error_of("dt = \"fast\"")
            .find("s.toml:1:6: field 'dt': must be a number from 1e-12 to 1e6 or \"auto\" (got \"fast\")"),
        std::string::npos)
        << error_of("dt = \"fast\"");
    EXPECT_NE(error_of("integrator = \"leapfrog-block\"\ndt = \"auto\"")
                  .find("s.toml:2:6: field 'dt': block steps"),
              std::string::npos)
        << error_of("integrator = \"leapfrog-block\"\ndt = \"auto\"");
    EXPECT_NE(error_of("integrator = \"leapfrog-block\"").find("missing field 'dt'"), std::string::npos);
    EXPECT_NE(error_of("dt = [1]").find("field 'dt'"), std::string::npos);
}

TEST(AutoStep, CommandLineForms) {
    const std::string plummer = std::string(NBODY_SOURCE_DIR) + "/scenes/plummer.toml";
    auto parse = [&](std::vector<std::string> args) {
        args.insert(args.begin(), "nbody-sandbox");
        args.push_back(plummer);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        std::ostringstream out, err;
        return parse_command_line(int(argv.size()), argv.data(), &out, &err);
    };
    const auto a = parse({"--dt", "auto"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(a));
    EXPECT_TRUE(std::get<AppOptions>(a).dt_auto);
    EXPECT_TRUE(prepare_run(std::get<AppOptions>(a)).scene.dt_auto);
    const auto n = parse({"--dt", "0.125"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(n));
    EXPECT_EQ(*std::get<AppOptions>(n).dt, 0.125);
    EXPECT_FALSE(prepare_run(std::get<AppOptions>(n)).scene.dt_auto);
    EXPECT_TRUE(std::holds_alternative<int>(parse({"--dt", "fast"})));
    const auto block = parse({"--dt", "auto", "--integrator", "leapfrog-block"});
    ASSERT_TRUE(std::holds_alternative<AppOptions>(block));
    EXPECT_THROW(prepare_run(std::get<AppOptions>(block)), ParamError);
}

// settle_auto_step sets the rule's step on a reset backend and keeps the particles where they are.
TEST(AutoStep, SettledOnABackend) {
    CpuBackend b(2);
    SimParams p;
    p.eps = 0.01;
    b.reset(test::plummer_state(256), p);
    const AutoStep a = settle_auto_step(b);
    EXPECT_EQ(b.params().dt, a.dt);
    EXPECT_LE(a.dt, a.want);
    EXPECT_GT(2 * a.dt, a.want);
    p.integrator = Integrator::LeapFrogBlock;
    b.reset(test::plummer_state(256), p);
    EXPECT_THROW(settle_auto_step(b), ParamError);
}

namespace {

// What a shipped scene runs at reduced N: the scene's method and its bodies, shared leap-frog.
struct Reduced {
    SceneSpec scene;
    State initial;
    SimParams params;
};

Reduced reduced(const std::filesystem::path& file, std::size_t n) {
    Reduced r;
    r.scene = load_scene_file(file.string());
    if (r.scene.total_bodies() > n) rescale_bodies(r.scene, n);
    r.initial = build_scene(r.scene);
    r.params = r.scene.apply_to({});
    r.params.integrator = Integrator::LeapFrog;
    r.params.backend = BackendKind::Cpu;
    return r;
}

// |dE/E| after shared leap-frog steps of dt to time `span`; a non-finite state counts as infinite.
double energy_error(const Reduced& r, double dt, double span) {
    CpuBackend b(2);
    SimParams p = r.params;
    p.dt = dt;
    b.reset(r.initial, p);
    b.step(int(std::lround(span / dt)));
    State s;
    b.read_state(s);
    if (first_non_finite(s) >= 0) return HUGE_VAL;
    const double e = relative_energy_error(compute_diagnostics(r.initial, p.eps, p.G, 2),
                                           compute_diagnostics(s, p.eps, p.G, 2));
    return std::isfinite(e) ? e : HUGE_VAL;
}

}  // namespace

// Every shipped scene, shared leap-frog at 1,024 bodies (the scene's own method) over one time unit (before
// the random sphere's collapse at 1.1, which no step chosen at the start foresees): the automatic step's
// energy error stays within kBound, and the step the scene needs (the largest power of two within kBound,
// halving down from 16 automatic steps) is at most twice it.
TEST(AutoStep, ShippedScenesBoundedAndNotWasteful) {
    constexpr double kBound = 3e-3, span = 1.0;
    const std::filesystem::path dir = std::filesystem::path(NBODY_SOURCE_DIR) / "scenes";
    int scenes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".toml") continue;
        const Reduced r = reduced(entry.path(), 1024);
        CpuBackend b(2);
        b.reset(r.initial, r.params);
        const AutoStep a = auto_step_of(b);
        const double at_auto = energy_error(r, a.dt, span);
        double needed = 16 * a.dt;
        while (needed > a.dt && energy_error(r, needed, span) > kBound) needed *= 0.5;
        const std::string name = entry.path().filename().string();
        std::printf("%-26s auto %-8s |dE/E| %.2e over t = %.3g; needs %s\n", name.c_str(),
                    step_text(a.dt).c_str(), at_auto, span, step_text(needed).c_str());
        EXPECT_LE(at_auto, kBound) << name << ": " << auto_step_words(a);
        EXPECT_LE(needed, 2 * a.dt) << name << ": the automatic step " << step_text(a.dt)
                                    << " is below half of " << step_text(needed);
        ++scenes;
    }
    EXPECT_GE(scenes, 10);
}
