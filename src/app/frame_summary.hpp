#pragma once
// What a run of K frames prints at its end (--frames K, headless or in a window): frames/s, how positions
// reached GL, the time per frame by stage, and the simulation's rate over the time spent stepping.
#include <string>

#include "app/viewer.hpp"
#include "core/counters.hpp"
#include "core/session/perf_history.hpp"

namespace nbody {

// `ctx`: the GL context's description (renderer, version, and EGL or GLFW).
void print_frame_summary(Viewer& v, long long frames, const WorkCount& work, double seconds, const FrameTimes& sum,
                         const std::string& ctx);

// Adds one frame's stage times to a sum.
inline void add_frame_times(FrameTimes& sum, const FrameTimes& t) {
    sum.sim += t.sim, sum.sim_frame += t.sim_frame, sum.samplers += t.samplers;
    sum.upload += t.upload, sum.draw += t.draw, sum.draw_gpu += t.draw_gpu, sum.sprites_gpu += t.sprites_gpu,
        sum.density_gpu += t.density_gpu,
        sum.ui += t.ui, sum.frame += t.frame;
}

}  // namespace nbody
