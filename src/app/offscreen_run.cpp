// nbody-sandbox --headless --frames K [--screenshot out.png] [--record out.mp4]: renders through a headless
// EGL context (no X, no GLFW at run time), as on the GPU server.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "app/frame_summary.hpp"
#include "app/sandbox.hpp"
#include "app/viewer.hpp"
#include "core/errors.hpp"
#include "core/session/perf_history.hpp"
#include "render/image_stats.hpp"

namespace nbody {

namespace {
using Clock = std::chrono::steady_clock;

}  // namespace

int run_offscreen(const AppOptions& o) {
    std::string why;
    auto ctx = create_headless_context(o.width, o.height, &why);
    if (!ctx) {
        std::fprintf(stderr, "error: %s\n", why.c_str());
        return 1;
    }
    Viewer viewer(o, *ctx);
    if (!o.quiet)
        std::fprintf(stderr, "%s\n%s\n", viewer.sim().backend_note().c_str(), ctx->description().c_str());
    std::optional<VideoRecorder> video;
    if (!o.record_path.empty()) video.emplace(o.record_path, o.width, o.height, 60);
    const long long frames = o.frames.value_or(video ? 240 : 1);
    FrameTimes sum;
    const WorkCount work0 = viewer.sim().backend().work();
    const auto t_start = Clock::now();
    for (long long i = 0; i < frames; ++i) {
        const auto t0 = Clock::now();
        const double now = std::chrono::duration<double>(t0 - t_start).count();
        viewer.simulate_and_draw(now, viewer.simulation_budget());
        if (video) video->add_frame(viewer.capture());
        ctx->present();
        FrameTimes& t = viewer.times();
        t.frame = std::chrono::duration<double>(Clock::now() - t0).count();
        add_frame_times(sum, t);
        if (viewer.sim().blew_up()) throw Error(viewer.sim().error());
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
    if (!o.screenshot_path.empty()) {
        const Image shot = viewer.capture();
        write_png(o.screenshot_path, shot);
        // The picture's goals (docs/rendering.md): at most 0.05% of pixels clipped, at least 2% lit.
        const PictureStats st = picture_stats(shot, background_rgb8(viewer.settings().background));
        std::printf("wrote %s (%dx%d): %.3f%% of pixels clipped (a channel at 255), %.1f%% lit\n",
                    o.screenshot_path.c_str(), o.width, o.height, 100 * st.clipped_share(),
                    100 * st.lit_share());
    }
    if (video) {
        video->finish();
        std::printf("wrote %s (%ld frames)\n", video->path().c_str(), video->frames());
    }
    print_frame_summary(viewer, frames, viewer.sim().backend().work() - work0, seconds, sum, ctx->description());
    return 0;
}

}  // namespace nbody
