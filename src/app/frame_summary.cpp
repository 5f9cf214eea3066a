#include "app/frame_summary.hpp"

#include <algorithm>
#include <cstdio>

#include "core/session/perf_history.hpp"

namespace nbody {

void print_frame_summary(Viewer& v, long long frames, const WorkCount& work, double seconds,
                         const FrameTimes& sum, const std::string& ctx) {
    const double f = double(std::max(frames, 1LL));
    const Throughput s = throughput(work, sum.sim);
    const long long steps = work.evaluations;
    std::printf("rendered %lld frames of %zu bodies in %.3g s: %s (%s)\n", frames, v.sim().backend().size(),
                seconds, (format_si(double(frames) / seconds) + " frames/s").c_str(), ctx.c_str());
    std::printf("positions: %s%s%s\n", upload_path_name(v.feed().path()), v.feed().note().empty() ? "" : "; ",
                v.feed().note().c_str());
    std::printf(
        "per frame (ms): sim %.3g  upload %.3g  draw %.3g  panels %.3g  total %.3g   steps/frame %d\n",
        1e3 * sum.sim / f, 1e3 * sum.upload / f, 1e3 * sum.draw / f, 1e3 * sum.ui / f, 1e3 * sum.frame / f,
        v.sim().steps_last_frame());
    // sim is the steps' own time (on the device where it has a clock); the frame's stepping adds the host's
    // waits and the samplers (force error, levels, NaN check); the draw runs on after the frame submits it.
    std::printf(
        "per frame (ms): stepping on the frame's thread %.3g (samplers %.3g of it), the draw on the GPU "
        "%.3g, the rest %.3g\n",
        1e3 * sum.sim_frame / f, 1e3 * sum.samplers / f, 1e3 * sum.draw_gpu / f,
        1e3 * (sum.frame - sum.sim_frame - sum.upload - sum.draw - sum.ui) / f);
    // The picture's own budget (2,097,152 sprites in 3 ms on an H200): the sprites alone, from timer
    // queries.
    const bool splat = v.renderer().sprite_path() == SpritePath::Splat;
    std::printf("render on the GPU (ms): sprites %.3g of the draw's %.3g, %zu sprites (%s)\n",
                1e3 * sum.sprites_gpu / f, 1e3 * sum.draw_gpu / f, v.sim().backend().size(),
                splat ? "a compute pass adds those up to 4 px across, GL points draw the rest" : "GL points");
    if (const std::string t = v.trail_note(); !t.empty()) std::printf("trails: %s\n", t.c_str());
    if (v.settings().color_mode == ColorMode::Potential)
        std::printf("potential: %s\n", v.potential_note().c_str());
    if (sum.density_gpu > 0)
        std::printf("render on the GPU (ms): the density grid (colour by density) %.3g of the draw's\n",
                    1e3 * sum.density_gpu / f);
    std::printf("simulation: %lld steps, %s, %s (over the time spent stepping), t = %.5g\n", steps,
                (format_si(s.interactions_per_s) + " interactions/s").c_str(),
                (format_si(s.steps_per_s) + " steps/s").c_str(), v.sim().backend().time());
    if (const std::string m = v.measurements().summary(v.scene().units); !m.empty())
        std::printf("measured (Measure panel) %s\n", m.c_str());
}

}  // namespace nbody
