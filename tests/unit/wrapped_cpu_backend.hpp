#pragma once
// The CPU backend (one thread) behind a Backend that a test gives its own name, caps and quirks.
#include "core/backend/backend.hpp"
#include "cpu/cpu_backend.hpp"

namespace nbody {

class WrappedCpuBackend : public Backend {
  public:
    void reset(const State& s, const SimParams& p) override { m_cpu.reset(s, p), m_p = p; }
    void set_params(const SimParams& p) override { m_cpu.set_params(p), m_p = p; }
    const SimParams& params() const override { return m_p; }
    void step(int k) override { m_cpu.step(k); }
    void read_state(State& out) override { m_cpu.read_state(out); }
    void read_accelerations(std::vector<Double4>& out) override { m_cpu.read_accelerations(out); }
    void copy_positions_to_host(Float4* dst) override { m_cpu.copy_positions_to_host(dst); }
    std::size_t size() const override { return m_cpu.size(); }
    double time() const override { return m_cpu.time(); }
    long long steps_taken() const override { return m_cpu.steps_taken(); }

  protected:
    CpuBackend m_cpu{1};
    SimParams m_p;
};

}  // namespace nbody
