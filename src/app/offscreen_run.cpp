// nbody-sandbox --headless --frames K [--screenshot out.png] [--record out.mp4]: renders through a headless
// EGL context (no X, no GLFW at run time), as on the GPU server.
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "app/sandbox.hpp"
#include "app/viewer.hpp"
#include "core/errors.hpp"
#include "core/perf_history.hpp"

namespace nbody {

namespace {
using Clock = std::chrono::steady_clock;

void print_summary(Viewer& v, long long frames, const WorkCount& work, double seconds, const FrameTimes& sum,
                   const std::string& ctx) {
    const double f = double(std::max(frames, 1LL));
    const Throughput s = throughput(work, sum.sim);
    const long long steps = work.evaluations;
    std::printf("rendered %lld frames of %zu bodies in %.3f s: %.1f frames/s (%s)\n", frames,
                v.sim().backend().size(), seconds, double(frames) / seconds, ctx.c_str());
    std::printf("positions: %s%s%s\n", upload_path_name(v.feed().path()), v.feed().note().empty() ? "" : "; ",
                v.feed().note().c_str());
    std::printf("per frame (ms): sim %.3f  upload %.3f  draw %.3f  total %.3f   steps/frame %d\n",
                1e3 * sum.sim / f, 1e3 * sum.upload / f, 1e3 * sum.draw / f, 1e3 * sum.frame / f,
                v.sim().steps_last_frame());
    std::printf(
        "simulation: %lld steps, %s, %.4g steps/s (over the time spent stepping), t = "
        "%.5g\n",
        steps, format_si(s.interactions_per_s, "interactions/s").c_str(), s.steps_per_s, v.sim().backend().time());
}
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
        sum.sim += t.sim, sum.upload += t.upload, sum.draw += t.draw, sum.frame += t.frame;
        if (viewer.sim().blew_up()) throw Error(viewer.sim().error());
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
    if (!o.screenshot_path.empty()) {
        write_png(o.screenshot_path, viewer.capture());
        std::printf("wrote %s (%dx%d)\n", o.screenshot_path.c_str(), o.width, o.height);
    }
    if (video) {
        video->finish();
        std::printf("wrote %s (%ld frames)\n", video->path().c_str(), video->frames());
    }
    print_summary(viewer, frames, viewer.sim().backend().work() - work0, seconds, sum, ctx->description());
    return 0;
}

}  // namespace nbody
