// The GL compute backend (label gl): each variant against the float64 reference, against the CPU backend
// after 100 steps, a backend switch mid-run, positions into a GL buffer, and a shader that fails to compile.
// On Mesa's llvmpipe in CI (surfaceless EGL); on the GPU machine through NVIDIA's EGL.
#include <gtest/gtest.h>

#include <glad/gl.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/physics/force_reference.hpp"
#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"
#include "gl_backend/gl_backend.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#include "scene/scene.hpp"

namespace nbody {
namespace {

// A GL compute backend in its own headless context, or a skip with the reason.
#define GL_BACKEND_OR_SKIP(b)                   \
    std::string why_##b;                        \
    auto b = try_make_gl_backend({}, &why_##b); \
    if (!b) GTEST_SKIP() << "no GL compute context: " << why_##b

State plummer(std::size_t n) {
    return rounded_to_float32(build_scene(henon_plummer_scene(n, 20081)));
}

SimParams gl_params(KernelVariant v, int k, int u) {
    SimParams p;
    p.backend = BackendKind::Gl;
    p.eps = 0.01;
    p.dt = 1e-3;
    p.kernel_auto = false;
    p.variant = v;
    p.shape = {k, u, 256, 0, 1};
    return p;
}

// The largest relative error of `acc` against the float64 reference on up to 2,000 rows spread over N.
double max_error(const std::vector<Double4>& acc, const State& s, double eps) {
    const auto rows = spread_rows(s.size(), 2000);
    const auto ref = direct_reference(s.pos_mass, rows, eps, 1.0);
    std::vector<Double4> picked;
    for (std::size_t r : rows) picked.push_back(acc[r]);
    return compare_forces(picked, ref).max_rel;
}

struct VariantCase {
    KernelVariant v;
    int k, u;
};

// Plain float32 summation, as the CUDA kernels do it: the largest relative error grows with N (2.2e-6 at
// 2,048 to 2.2e-5 at 131,072, PHYSICS.md); measured here 4.6e-6 at 10,007 and 1.1e-5 at 65,537 (llvmpipe).
double fp32_bound(std::size_t n) {
    return 4e-6 + 5e-10 * double(n);
}

TEST(GlBackend, EveryVariantMatchesTheFloat64Reference) {
    GL_BACKEND_OR_SKIP(gl);
    const VariantCase cases[] = {
        {KernelVariant::None, 1, 1}, {KernelVariant::IUnrolled, 4, 1}, {KernelVariant::IJUnrolled, 4, 4}};
    std::vector<Double4> acc;
    for (std::size_t n : {1, 2, 3, 31, 33, 255, 257, 7499, 10007, 65537}) {
        const State s = plummer(n);
        for (const VariantCase& c : cases) {
            gl->reset(s, gl_params(c.v, c.k, c.u));
            gl->read_accelerations(acc);
            ASSERT_EQ(acc.size(), n);
            if (n == 1) {  // the self term alone: exactly nothing
                EXPECT_EQ(acc[0].x, 0.0);
                EXPECT_EQ(acc[0].y, 0.0);
                EXPECT_EQ(acc[0].z, 0.0);
                continue;
            }
            EXPECT_LT(max_error(acc, s, 0.01), fp32_bound(n)) << gl->kernel_label() << " N = " << n;
        }
    }
}

TEST(GlBackend, JSplitOverInvocationsMatchesOneSlice) {
    GL_BACKEND_OR_SKIP(gl);
    const State s = plummer(3001);
    std::vector<Double4> one, split;
    SimParams p = gl_params(KernelVariant::IJUnrolled, 2, 4);
    p.shape.q = 1;
    gl->reset(s, p);
    gl->read_accelerations(one);
    for (int q : {2, 8, 32}) {
        p.shape.q = q;
        gl->reset(s, p);
        gl->read_accelerations(split);
        double worst = 0;
        for (std::size_t i = 0; i < one.size(); ++i) {
            const double d = std::hypot(split[i].x - one[i].x, split[i].y - one[i].y, split[i].z - one[i].z);
            worst = std::max(worst, d / std::hypot(one[i].x, one[i].y, one[i].z));
        }
        EXPECT_LT(worst, 1e-5) << gl->kernel_label();
    }
}

TEST(GlBackend, HundredStepsFollowTheCpuBackend) {
    GL_BACKEND_OR_SKIP(gl);
    const State s = plummer(2000);
    SimParams p = gl_params(KernelVariant::IJUnrolled, 4, 4);
    p.eps = 0.05;
    CpuBackend cpu;
    SimParams cp = p;
    cp.backend = BackendKind::Cpu;
    cpu.reset(s, cp);
    gl->reset(s, p);
    cpu.step(100);
    gl->step(60);
    gl->step(40);  // two batches: the ping-pong buffers' parity
    State a, b;
    cpu.read_state(a);
    gl->read_state(b);
    EXPECT_NEAR(b.time, a.time, 1e-12);
    EXPECT_EQ(gl->steps_taken(), 100);
    // The GL state is float32 (a far body at |x| ~ 16 is rounded to ~1e-6 at every drift), the CPU's float64:
    // positions agree to a few float32 roundings a step relative to max(|x|, 1), velocities to float32
    // force sums. A wrong kick (dt/2 |a| ~ 5e-4) or drift (v dt ~ 3e-4) fails both by an order or more.
    double dx = 0, dv = 0, moved = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const Double4 x = a.pos_mass[i], y = b.pos_mass[i], x0 = s.pos_mass[i];
        const double scale = std::max(1.0, std::hypot(x.x, x.y, x.z));
        dx = std::max(dx, std::hypot(x.x - y.x, x.y - y.y, x.z - y.z) / scale);
        dv = std::max(dv,
                      std::hypot(a.vel[i].x - b.vel[i].x, a.vel[i].y - b.vel[i].y, a.vel[i].z - b.vel[i].z));
        moved = std::max(moved, std::hypot(x.x - x0.x, x.y - x0.y, x.z - x0.z));
        EXPECT_EQ(y.w, x.w);
    }
    EXPECT_GT(moved, 1e-2);  // the bodies did move
    EXPECT_LT(dx, 2e-5);
    EXPECT_LT(dv, 2e-5);
}

// The measuring tools' per-row reads: the same values as the whole state's rows, in the order asked, and a row
// past N refused.
TEST(GlBackend, ReadsSingleRowsAsTheWholeStateHasThem) {
    GL_BACKEND_OR_SKIP(gl);
    const State s = plummer(500);
    gl->reset(s, gl_params(KernelVariant::IJUnrolled, 4, 4));
    gl->step(3);  // the ping-pong buffers' other half
    State all;
    gl->read_state(all);
    std::vector<Double4> acc_all;
    gl->read_accelerations(acc_all);
    const std::vector<std::size_t> rows{499, 0, 17};
    std::vector<Double4> pos, vel, acc;
    gl->read_bodies_of(rows, pos, vel);
    gl->read_accelerations_of(rows, acc);
    ASSERT_EQ(pos.size(), 3u);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const std::size_t i = rows[r];
        EXPECT_EQ(pos[r].x, all.pos_mass[i].x);
        EXPECT_EQ(pos[r].w, all.pos_mass[i].w);
        EXPECT_EQ(vel[r].y, all.vel[i].y);
        EXPECT_EQ(acc[r].z, acc_all[i].z);
    }
    EXPECT_THROW(gl->read_bodies_of({500}, pos, vel), Error);
}

TEST(GlBackend, SwitchingBackendMidRunKeepsTheState) {
    std::string why;
    if (!try_make_gl_backend({}, &why)) GTEST_SKIP() << "no GL compute context: " << why;
    Simulation sim([](const SimParams& p, BackendChoice* choice) { return make_backend_with_gl(p, choice); });
    SimParams p = gl_params(KernelVariant::IJUnrolled, 4, 4);
    p.backend = BackendKind::Cpu;
    p.steps_per_frame = 5;
    const State s = plummer(500);
    sim.load(s, p);
    for (int f = 0; f < 3; ++f) sim.advance_frame(1.0, f);
    State before, after;
    sim.backend().read_state(before);
    const long long steps = sim.backend().steps_taken();
    sim.set_paused(true);
    sim.pending().backend = BackendKind::Gl;
    sim.advance_frame(1.0, 4);
    ASSERT_TRUE(sim.error().empty()) << sim.error();
    ASSERT_TRUE(sim.backend().caps().gl_positions) << sim.backend_note();
    sim.backend().read_state(after);
    EXPECT_DOUBLE_EQ(after.time, before.time);
    EXPECT_EQ(sim.backend().steps_taken(), steps);
    for (std::size_t i = 0; i < s.size(); ++i) {
        EXPECT_FLOAT_EQ(float(after.pos_mass[i].x), float(before.pos_mass[i].x));
        EXPECT_FLOAT_EQ(float(after.vel[i].y), float(before.vel[i].y));
    }
    sim.set_paused(false);
    sim.advance_frame(1.0, 5);
    EXPECT_EQ(sim.backend().steps_taken(), steps + 5);
    sim.pending().backend = BackendKind::Cpu;  // and back
    sim.advance_frame(1.0, 6);
    EXPECT_FALSE(sim.backend().caps().gl_positions);
    EXPECT_EQ(sim.backend().steps_taken(), steps + 10);
}

TEST(GlBackend, WritesPositionsIntoTheRenderersBuffer) {
    GL_BACKEND_OR_SKIP(gl);
    const State s = plummer(1000);
    gl->reset(s, gl_params(KernelVariant::IUnrolled, 2, 1));
    GLuint buf = 0;
    glCreateBuffers(1, &buf);
    glNamedBufferData(buf, GLsizeiptr(s.size() * 16), nullptr, GL_DYNAMIC_DRAW);
    std::vector<Float4> host(s.size()), drawn(s.size());
    auto check = [&](const char* when) {
        gl->write_positions_to_gl_buffer(buf);
        gl->copy_positions_to_host(host.data());
        glGetNamedBufferSubData(buf, 0, GLsizeiptr(s.size() * 16), drawn.data());
        for (std::size_t i = 0; i < s.size(); i += 97) {
            EXPECT_EQ(drawn[i].x, host[i].x) << when << " body " << i;
            EXPECT_EQ(drawn[i].w, host[i].w) << when << " body " << i;
        }
    };
    check("after reset (a copy)");
    gl->step(3);  // the last dispatch writes the buffer itself
    check("after steps");
    glDeleteBuffers(1, &buf);
}

TEST(GlBackend, RefusesWhatItDoesNotRun) {
    GL_BACKEND_OR_SKIP(gl);
    const State s = plummer(100);
    SimParams p = gl_params(KernelVariant::Pairs, 4, 2);
    EXPECT_THROW(gl->reset(s, p), ParamError);
    p = gl_params(KernelVariant::IJUnrolled, 4, 4);
    p.precision = Precision::Fp64;
    EXPECT_THROW(gl->reset(s, p), ParamError);
    p.precision = Precision::Fp32;
    p.integrator = Integrator::Hermite;
    EXPECT_THROW(gl->reset(s, p), ParamError);
}

TEST(GlBackend, ABrokenShaderHandsOverToTheCpuWithTheLog) {
    std::string why;
    if (!try_make_gl_backend({}, &why)) GTEST_SKIP() << "no GL compute context: " << why;
    const auto dir = std::filesystem::temp_directory_path() / "nbody_broken_shaders";
    std::filesystem::create_directories(dir / "compute");
    std::ofstream(dir / "compute" / "nbody_step.comp")
        << "layout(local_size_x = WG) in;\nvoid main() { oops; }\n";
    SimParams p;
    p.backend = BackendKind::Gl;
    BackendChoice choice;
    auto b = make_backend_with_gl(p, &choice, {GlContextSource::OwnHeadless, dir.string()});
    const std::string& note = choice.note;
    EXPECT_EQ(choice.running, BackendKind::Cpu);
    EXPECT_EQ(choice.fallback, "the GL compute shader failed to compile");
    EXPECT_FALSE(b->caps().gl_positions);
    EXPECT_NE(b->name().find("cpu"), std::string::npos);
    EXPECT_NE(note.find("compile failed"), std::string::npos) << note;
    EXPECT_NE(note.find("nbody_step.comp (ij-unrolled k 4 u 4 block 256 q"), std::string::npos) << note;
    EXPECT_NE(note.find("oops"), std::string::npos) << note;  // the driver's log names the culprit
    std::filesystem::remove_all(dir);
}

TEST(GlBackend, AutoDoesNotPickASoftwareRasterizer) {
    GL_BACKEND_OR_SKIP(gl);
    SimParams p;
    BackendChoice choice;
    auto b = make_backend_with_gl(p, &choice);
    const std::string& note = choice.note;
    EXPECT_EQ(choice.asked, BackendKind::Auto);
    if (software_renderer(gl->limits().renderer)) {
        EXPECT_NE(b->name().find("cpu"), std::string::npos) << note;
        EXPECT_NE(note.find("software rasterizer"), std::string::npos) << note;
        EXPECT_EQ(choice.running, BackendKind::Cpu);
        EXPECT_NE(choice.fallback.find("GL compute would run on the CPU too (a software rasterizer)"),
                  std::string::npos)
            << choice.fallback;
    } else {
        EXPECT_TRUE(b->caps().gpu) << note;
        EXPECT_NE(choice.running, BackendKind::Cpu);
        EXPECT_EQ(choice.fallback, "");
    }
}

// ---------------------------------------------------------------------------------------------------------
// The checks on a context's numbers (no context needed).
// ---------------------------------------------------------------------------------------------------------
GlComputeLimits nvidia_like() {
    GlComputeLimits l;
    l.major = 4, l.minor = 6;
    l.max_shared_bytes = 49152, l.max_invocations = 1024, l.max_size_x = 1024;
    l.max_groups_x = 2147483647, l.max_ssbo_bytes = 2147483647, l.units = 132;
    l.renderer = "NVIDIA H100 PCIe/PCIe/SSE2", l.version = "4.6.0 NVIDIA 580.159.04";
    return l;
}

TEST(GlLimits, AContextWithoutComputeIsRefusedWithTheReason) {
    GlComputeLimits l = nvidia_like();
    EXPECT_EQ(compute_refusal(l), "");
    l.major = 4, l.minor = 2;
    const std::string why = compute_refusal(l);
    EXPECT_NE(why.find("OpenGL 4.2 has no compute shaders"), std::string::npos) << why;
    EXPECT_NE(why.find("4.3"), std::string::npos) << why;
    l = nvidia_like();
    l.max_shared_bytes = 512;
    EXPECT_NE(compute_refusal(l).find("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE is 512"), std::string::npos);
}

TEST(GlLimits, BodiesOverTheBlockSizeOrMemoryAreRefusedWithTheNumbers) {
    GlComputeLimits l = nvidia_like();
    l.max_ssbo_bytes = 134217728;  // the 128 MiB many drivers give
    EXPECT_EQ(buffers_refusal(l, 8388608), "");
    const std::string big = buffers_refusal(l, 8388609);
    EXPECT_NE(big.find("GL_MAX_SHADER_STORAGE_BLOCK_SIZE of 134217728"), std::string::npos) << big;
    EXPECT_NE(big.find("at most 8388608 bodies"), std::string::npos) << big;
    l.free_memory_bytes = 100LL << 20;
    const std::string mem = buffers_refusal(l, 2000000);  // 4 x 32 MB
    EXPECT_NE(mem.find("122 MiB"), std::string::npos) << mem;
    EXPECT_NE(mem.find("100 MiB"), std::string::npos) << mem;
}

TEST(GlLimits, SoftwareRasterizersAreKnown) {
    EXPECT_TRUE(software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(software_renderer("Google SwiftShader"));
    EXPECT_FALSE(software_renderer("NVIDIA H100 PCIe/PCIe/SSE2"));
    EXPECT_FALSE(software_renderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6)"));
}

TEST(GlShape, AutomaticQFillsTheGpuAndExplicitShapesAreChecked) {
    const GlComputeLimits l = nvidia_like();
    SimParams p;  // kernel_auto
    GlShape s = resolve_gl_shape(p, 131072, l);
    EXPECT_EQ(s.variant, KernelVariant::IJUnrolled);
    EXPECT_GE(gl_groups(s, 131072) * s.block, 132LL * 1024);
    EXPECT_EQ(resolve_gl_shape(p, 18000, l).q, 32);          // 18,000 / (256 / 32 x 4) = 563 groups of 256
    EXPECT_EQ(resolve_gl_shape(p, 18000, l).tile_loads, 4);  // slices of 32 bodies a tile
    GlComputeLimits unknown = l;
    unknown.units = 0;
    EXPECT_EQ(resolve_gl_shape(p, 18000, unknown).q, 1);
    p = gl_params(KernelVariant::IJUnrolled, 4, 8);
    p.shape.block = 64, p.shape.q = 16;  // slices of 4 bodies cannot hold u = 8
    EXPECT_THROW(resolve_gl_shape(p, 1000, l), ParamError);
    p.shape.q = 8;
    EXPECT_EQ(gl_shape_label(resolve_gl_shape(p, 1000, l)), "ij-unrolled k 4 u 8 block 64 q 8");
    p.shape.s = 4;
    EXPECT_THROW(resolve_gl_shape(p, 1000, l), ParamError);
}

}  // namespace
}  // namespace nbody
