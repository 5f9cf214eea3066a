#include "app/slow_backend_note.hpp"

#include <cstdio>

#include "app/step_probe.hpp"

namespace nbody {

namespace {
constexpr int kFramesBeforeMeasuring = 8;  // past the first frames' shader compiles and warm-up
constexpr double kSlowerThan = 1.25;       // below this the two are within a frame rate's noise: nothing said
}  // namespace

std::string slow_backend_text(const std::string& caution, double times) {
    char text[160];
    std::snprintf(text, sizeof text, ". %.2gx slower than the CPU backend on this scene (measured): Kernel panel, cpu",
                  times);
    return caution + text;
}

void SlowBackendNote::update(Simulation& sim) {
    const std::string& caution = sim.backend_choice().caution;
    if (sim.generation() != m_generation) {
        m_generation = sim.generation();
        m_frames = m_steps = 0;
        m_step_s = 0;
        m_text.clear();
    }
    if (caution.empty() || m_frames > kFramesBeforeMeasuring || sim.stepping_in_background()) return;
    if (sim.steps_last_frame() <= 0) return;
    m_step_s += sim.step_seconds_last_frame();
    m_steps += sim.steps_last_frame();
    if (++m_frames <= kFramesBeforeMeasuring) return;
    State now;
    sim.backend().read_state(now);
    SimParams cpu = sim.params();
    cpu.backend = BackendKind::Cpu;
    const double cpu_step = measure_cpu_step(now, cpu);
    const double here = m_step_s / m_steps;
    if (cpu_step > 0 && here > kSlowerThan * cpu_step) m_text = slow_backend_text(caution, here / cpu_step);
}

}  // namespace nbody
