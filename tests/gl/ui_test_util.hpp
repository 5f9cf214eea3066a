#pragma once
// Shared by the gl tests that drive the panels: a small CPU simulation of a ring of bodies.
#include <cmath>
#include <memory>

#include "core/session/simulation.hpp"
#include "cpu/cpu_backend.hpp"

namespace nbody::test {

inline State ring(std::size_t n) {
    State s;
    s.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const float a = 6.2831853f * float(i) / float(n);
        s.pos_mass[i] = {std::cos(a), std::sin(a), 0, 1.0f / float(n)};
        s.group[i] = uint32_t(i % 3);
    }
    return s;
}

inline std::unique_ptr<Simulation> cpu_simulation() {
    auto sim = std::make_unique<Simulation>([](const SimParams& p, BackendChoice* choice) {
        if (choice) *choice = {BackendKind::Cpu, BackendKind::Cpu, "", "cpu", ""};
        return std::make_unique<CpuBackend>(p.cpu_threads);
    });
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.cpu_threads = 1;
    sim->load(ring(32), p);
    return sim;
}

}  // namespace nbody::test
