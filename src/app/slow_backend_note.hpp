#pragma once
// Words in the window when a backend chosen by hand runs far slower than the CPU backend would here (GL
// compute on a software rasterizer: its shaders run on this CPU). The comparison is measured, not assumed:
// once a backend has stepped a few frames, a copy of the running state is stepped on a CPU backend of its own
// (app/step_probe.hpp) and the two step times are compared.
#include <cstdint>
#include <string>

#include "core/session/simulation.hpp"

namespace nbody {

class SlowBackendNote {
  public:
    // Each frame after stepping (measures at most once per backend and scene: a few tens of ms, once).
    void update(Simulation& sim);
    // "GL compute runs on llvmpipe ..., a software rasterizer: its shaders run on this CPU. 4.1x slower than the
    // CPU backend on this scene (measured): Kernel panel, cpu." Empty while none applies or before it is measured.
    const std::string& text() const { return m_text; }

  private:
    uint64_t m_generation = ~uint64_t(0);  // the backend (and scene) last looked at
    int m_frames = 0;             // frames with steps since then
    double m_step_s = 0;          // the running backend's seconds a step, summed over those frames
    int m_steps = 0;
    std::string m_text;
};

// The sentence for a backend `times` slower than the CPU backend (2 significant digits), after `caution`.
std::string slow_backend_text(const std::string& caution, double times);

}  // namespace nbody
