// The factory's backend rows (engine/backend_rows.hpp) and its structured choice (core/backend/backend_choice.hpp),
// on whatever machine runs the tests: with a usable GPU the choice says CUDA runs; without one (or without
// CUDA in the build) it says the CPU runs and why, in the words the window's banner shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli_parse.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "engine/backend_factory.hpp"
#include "engine/backend_rows.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "ui/plain_words.hpp"

namespace nbody {
namespace {

TEST(BackendRows, LibnbodyListsCpuThenCudaAndTheGlFactoryAddsGl) {
    const BackendRows& lib = backend_rows();
    ASSERT_EQ(lib.size(), 2u);
    EXPECT_EQ(lib[0].kind, BackendKind::Cpu);
    EXPECT_EQ(lib[1].kind, BackendKind::Cuda);
    const BackendRows all = backend_rows_with_gl();
    EXPECT_EQ(backend_names(all), (std::vector<std::string>{"cpu", "cuda", "gl"}));
    for (const BackendRow& r : all) {
        EXPECT_EQ(parse_backend_kind(backend_kind_name(r.kind)), r.kind);  // the name typed is the row's key
        EXPECT_FALSE(r.label.empty());
        EXPECT_FALSE(r.help.empty());
        EXPECT_EQ(find_backend_row(all, r.kind), &r);
    }
    EXPECT_EQ(find_backend_row(lib, BackendKind::Gl), nullptr);
}

TEST(BackendRows, TheBackendFlagListsWhatTheRowsOffer) {
    const BackendRows all = backend_rows_with_gl();
    EXPECT_EQ(backend_flag_choices(all), (std::vector<std::string>{"auto", "cpu", "cuda", "gl"}));
    EXPECT_EQ(
        backend_flag_help(all),
        "cpu, cuda, gl (OpenGL 4.3 compute) or auto (CUDA when a device is usable, else GL compute on a "
        "hardware GPU, else the CPU)");
    EXPECT_TRUE(std::holds_alternative<AppOptions>(test::parse({"--headless", "--backend", "gl"})));
    EXPECT_TRUE(std::holds_alternative<int>(test::parse({"--headless", "--backend", "vulkan"})));
}

TEST(BackendRows, OffersSayWhyABackendCannotRunInThisBuild) {
    const std::vector<BackendOffer> offers = backend_offers(backend_rows_with_gl());
    ASSERT_EQ(offers.size(), 3u);
    EXPECT_EQ(offers[0].label, "CPU");
    EXPECT_EQ(offers[0].unavailable, "");
    EXPECT_EQ(offers[1].label, "CUDA");
    EXPECT_EQ(offers[1].unavailable.empty(), cuda_built()) << offers[1].unavailable;
    EXPECT_EQ(offers[2].label, "GL compute");
}

TEST(BackendRows, AMissingRowIsNullWithTheReason) {
    std::string why;
    EXPECT_EQ(try_make_backend(backend_rows(), BackendKind::Gl, {}, &why), nullptr);
    EXPECT_EQ(why, "no gl backend here");
    auto cpu = try_make_backend(backend_rows(), BackendKind::Cpu, {}, &why);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(cpu->name().rfind("cpu", 0), 0u) << cpu->name();
}

TEST(BackendChoice, TheCpuAskedForIsNoFallback) {
    SimParams p;
    p.backend = BackendKind::Cpu;
    BackendChoice c;
    auto b = make_backend(p, &c);
    EXPECT_EQ(c.asked, BackendKind::Cpu);
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_EQ(c.fallback, "");
    EXPECT_EQ(c.note, "CPU backend (asked for)");
    EXPECT_EQ(cpu_fallback_reason(c), "");
}

// Auto on this machine: CUDA where a device is usable, else the CPU with the reason (the banner's words).
TEST(BackendChoice, AutoSaysWhatRunsAndWhy) {
    SimParams p;
    p.cpu_threads = 1;
    BackendChoice c;
    auto b = make_backend(p, &c);
    EXPECT_EQ(c.asked, BackendKind::Auto);
    if (c.running == BackendKind::Cuda) {
        EXPECT_TRUE(b->caps().gpu);
        EXPECT_EQ(c.fallback, "");
        EXPECT_EQ(c.note.rfind("CUDA backend: ", 0), 0u) << c.note;
        return;
    }
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_FALSE(b->caps().gpu);
    EXPECT_FALSE(c.fallback.empty());
    EXPECT_FALSE(cpu_fallback_reason(c).empty());
    EXPECT_EQ(cpu_fallback_reason(c).find("cudaError"), std::string::npos) << cpu_fallback_reason(c);
    if (!cuda_built()) {
        EXPECT_EQ(c.fallback, kNoCudaWords);
        EXPECT_EQ(c.note, "this build has no CUDA backend; using the CPU backend");
    } else {
        EXPECT_EQ(c.note.rfind("no usable CUDA device (" + c.fallback + ")", 0), 0u) << c.note;
    }
}

// --backend cuda where none can start: the library throws naming why; the sandbox runs the CPU and says why.
TEST(BackendChoice, CudaAskedForWithoutADeviceFallsBackOnlyInTheSandbox) {
    SimParams p;
    p.backend = BackendKind::Cuda;
    p.cpu_threads = 1;
    BackendChoice probe;
    try {
        make_backend(p, &probe);
        GTEST_SKIP() << "a CUDA device is usable here: " << probe.note;
    } catch (const BackendError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("--backend cuda: ", 0), 0u) << e.what();
    }
    BackendChoice c;
    auto b = make_backend_or_cpu(p, &c);
    EXPECT_EQ(c.asked, BackendKind::Cuda);
    EXPECT_EQ(c.running, BackendKind::Cpu);
    EXPECT_FALSE(c.fallback.empty());
    EXPECT_EQ(c.fallback.find("--backend"), std::string::npos) << c.fallback;
    EXPECT_FALSE(b->caps().gpu);
}

// The interface's honest defaults: a host backend times its steps by the host clock, has no launch shape, no
// tuning key, and no link to a GL buffer (the renderer uploads a host copy, with the reason).
TEST(BackendDefaults, HostBackendTimesStepsAndOffersNoGpuPaths) {
    CpuBackend cpu(1);
    SimParams p;
    State s;
    s.resize(64);
    for (std::size_t i = 0; i < s.size(); ++i)
        s.pos_mass[i] = {double(i % 4), double(i / 4 % 4), double(i / 16), 1.0 / 64};
    cpu.reset(s, p);
    const double ms = cpu.timed_steps(3);
    EXPECT_GT(ms, 0.0);
    EXPECT_EQ(cpu.steps_taken(), 3);
    const LaunchShape l = cpu.readouts(ReadoutAsk::launch()).launch_shape;
    EXPECT_EQ(l.k + l.u + l.block + l.q + l.s + l.registers + l.parts, 0);
    EXPECT_FALSE(cpu.readouts().tuning_key.has_value());
    std::string why;
    EXPECT_EQ(cpu.link_gl_buffer(7, 64 * sizeof(Float4), true, &why), nullptr);
    EXPECT_NE(why.find("main memory"), std::string::npos) << why;
}

}  // namespace
}  // namespace nbody
