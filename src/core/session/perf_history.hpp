#pragma once
// Live performance counters for the interactive sandbox: per-frame work is accumulated into ~0.5 s
// windows, each window becomes one sample (interactions/s, Gflop/s at 20 and 38, steps/s, frames/s), and
// the last ~30 s of samples are kept with markers where the kernel variant or backend changed.
#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "core/counters.hpp"

namespace nbody {

// Where one frame's time went, in seconds (wall clock on the host).
struct FrameTimes {
    double sim = 0;  // backend steps (a step beside the frames: its own duration, on its worker)
    double sim_frame =
        0;              // what stepping took of the frame itself (a step beside the frames: its collection)
    double samplers = 0;  // of sim_frame: the samplers after the steps (Simulation::sampler_seconds_last_frame)
    double upload = 0;  // positions into GL: glBufferSubData, or interop map + write + unmap
    double draw = 0;    // particles + tone map, on the frame's thread
    double draw_gpu = 0;  // the GPU's own time for that draw where timer queries have it (asynchronous)
    double sprites_gpu = 0;  // of draw_gpu: the sprites alone (N bodies' light into the HDR target)
    double density_gpu = 0;  // of draw_gpu: the density grid's passes (colour by density only)
    double ui = 0;      // ImGui build + draw
    double frame = 0;   // whole frame, present included
};

struct PerfSample {
    double wall = 0;  // seconds since the history started
    Throughput rate;  // over the sample's window
    double frames_per_s = 0;
};

struct PerfMarker {
    double wall = 0;
    std::string label;  // "ij-unrolled k 4 u 4", "backend cpu"
};

class PerfHistory {
  public:
    explicit PerfHistory(double window_s = 0.5, double keep_s = 30.0) : m_window(window_s), m_keep(keep_s) {}

    // One frame at wall time `now` (s): the work `done` on N bodies took `step_seconds`.
    void record_frame(double now, std::size_t n, const WorkCount& done, double step_seconds);
    // `steps` shared leap-frog steps of N bodies.
    void record_frame(double now, std::size_t n, long long steps, double step_seconds) {
        WorkCount w;
        w.evaluations = steps;
        w.add(direct_work(n), double(steps));
        record_frame(now, n, w, step_seconds);
    }
    void mark(double now, std::string label);

    const std::deque<PerfSample>& samples() const { return m_samples; }
    const std::deque<PerfMarker>& markers() const { return m_markers; }
    // The newest sample (zeros before the first window closes).
    PerfSample latest() const { return m_samples.empty() ? PerfSample{} : m_samples.back(); }
    double keep_seconds() const { return m_keep; }

  private:
    void trim(double now);

    double m_window, m_keep;
    double m_window_start = -1;
    WorkCount m_work;
    long long m_frames = 0;
    double m_step_seconds = 0;
    std::size_t m_n = 0;
    std::deque<PerfSample> m_samples;
    std::deque<PerfMarker> m_markers;
};

// What a history plot shows beside its line: the newest value, the smallest and largest in the window, and a y
// range [bottom, top] from 0 (or the minimum, for series that go negative) to a round number at or above the
// largest, so the scale reads at a glance and a change of a few percent is not blown up to the full height.
struct SeriesScale {
    double now = 0, min = 0, max = 0;
    double bottom = 0, top = 1;
};
SeriesScale series_scale(const std::vector<double>& values);

// The smallest of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten that is >= v (v > 0); 1 for v <= 0.
double round_up_nice(double v);

// "1.23 G" + unit: three significant digits with an SI prefix (k, M, G, T, P); "%.2e" below 1e-3.
std::string format_si(double v, const std::string& unit = "");

}  // namespace nbody
