// Every shipped scene (scenes/*.toml) loads and draws one frame off-screen without GL errors. Paused and
// at 4096 bodies, so the CPU-only CI machine does not evaluate 131,072^2 forces; the gpu-labelled test
// runs them at full size.
#include <filesystem>

#include "app/viewer.hpp"
#include "gl_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

TEST(Scenes, EveryShippedSceneDrawsAFrame) {
    NBODY_HEADLESS_OR_SKIP(ctx, 128, 96);
    int scenes = 0;
    for (const auto& f : std::filesystem::directory_iterator(NBODY_SOURCE_DIR "/scenes")) {
        if (f.path().extension() != ".toml") continue;
        SCOPED_TRACE(f.path().string());
        AppOptions o;
        o.scene_path = f.path().string();
        o.backend = "cpu";
        o.paused = true;
        o.bodies = 4096;
        Viewer v(o, *ctx);
        v.simulate_and_draw(0.0, 1.0);
        const Image img = v.capture();
        int lit = 0;
        for (int y = 0; y < img.height; ++y)
            for (int x = 0; x < img.width; ++x) lit += pixel(img, x, y).sum() > 3 * 60;
        EXPECT_GT(lit, 10) << "nothing visible";
        ++scenes;
    }
    EXPECT_GE(scenes, 1);
}
