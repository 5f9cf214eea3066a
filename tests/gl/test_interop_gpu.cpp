// Label gpu (run on the device, headless EGL on the NVIDIA GPU): the CUDA-GL interop path and the
// host-copy fallback draw the same image for the same state, and every shipped scene steps and draws.
// They skip only where there is nothing to test (no CUDA in the build, no CUDA device at all, or GL
// registration refused); a device that is there and throws a BackendError for any scene fails them.
#include <filesystem>

#include "app/viewer.hpp"
#include "core/errors.hpp"
#include "engine/backend_factory.hpp"
#include "gl_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

// Skips the test where this build or machine has no CUDA at all.
#define NBODY_CUDA_DEVICE_OR_SKIP()                                      \
    if (!cuda_built()) GTEST_SKIP() << "this build has no CUDA backend"; \
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device on this machine"

namespace {
AppOptions cuda_options(const std::string& scene) {
    AppOptions o;
    o.scene_path = scene;
    o.backend = "cuda";
    o.paused = true;
    return o;
}
}  // namespace

TEST(GpuRender, InteropAndHostCopyDrawTheSameImage) {
    NBODY_CUDA_DEVICE_OR_SKIP();
    NBODY_HEADLESS_OR_SKIP(ctx, 320, 240);
    AppOptions o = cuda_options(NBODY_TEST_DATA "/two_clusters.toml");
    std::unique_ptr<Viewer> interop;
    try {
        interop = std::make_unique<Viewer>(o, *ctx);
    } catch (const BackendError& e) {
        FAIL() << "a CUDA device exists but the backend failed: " << e.what();
    }
    if (interop->feed().path() != UploadPath::Interop)
        GTEST_SKIP() << "interop not in use: " << interop->feed().note();
    interop->simulate_and_draw(0.0, 1.0);
    const Image a = interop->capture();
    interop.reset();
    o.interop = false;
    Viewer copy(o, *ctx);
    ASSERT_EQ(copy.feed().path(), UploadPath::HostCopy);
    copy.simulate_and_draw(0.0, 1.0);
    const Image b = copy.capture();
    ASSERT_EQ(a.rgba.size(), b.rgba.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.rgba.size(); ++i) differ += a.rgba[i] != b.rgba[i];
    EXPECT_EQ(differ, 0u);
}

TEST(GpuRender, EveryShippedSceneStepsAndDraws) {
    NBODY_CUDA_DEVICE_OR_SKIP();
    NBODY_HEADLESS_OR_SKIP(ctx, 320, 240);
    for (const auto& f : std::filesystem::directory_iterator(NBODY_SOURCE_DIR "/scenes")) {
        if (f.path().extension() != ".toml") continue;
        SCOPED_TRACE(f.path().string());
        AppOptions o = cuda_options(f.path().string());
        o.paused = false;
        try {
            Viewer v(o, *ctx);
            v.simulate_and_draw(0.0, 1.0);
            v.simulate_and_draw(0.1, 1.0);
            EXPECT_EQ(v.sim().backend().steps_taken(), 2 * v.sim().params().steps_per_frame);
            EXPECT_TRUE(v.sim().error().empty()) << v.sim().error();
        } catch (const BackendError& e) {  // one scene failing fails the test; the others still run
            ADD_FAILURE() << f.path().filename().string() << ": " << e.what();
        }
    }
}
