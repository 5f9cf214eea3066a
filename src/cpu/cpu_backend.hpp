#pragma once
// The CPU backend: the numerical reference for the CUDA kernels and the fallback where no NVIDIA GPU is
// present. Structure of arrays in float32; the force loop uses every core and the widest vector unit.
#include <vector>

#include "core/backend.hpp"

namespace nbody {

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(int threads = 0);

    std::string name() const override;
    BackendCaps caps() const override { return {}; }
    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    const SimParams& params() const override { return m_params; }
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override;
    std::string kernel_label() const override;
    bool set_partition(RangePartition p) override;
    std::size_t size() const override { return m_x.size(); }
    double time() const override { return m_time; }
    long long steps_taken() const override { return m_steps; }

    int threads() const { return m_threads; }

private:
    void compute_accelerations();  // a(x) into m_ax.. (G included), rows [m_begin, m_end)
    void gather_positions();       // a distributed run: other ranks' positions into m_x..

    std::size_t m_begin = 0, m_end = 0;  // the rows this backend integrates (all unless partitioned)
    RangePartition m_partition;
    std::vector<Double4> m_gather_buf;

    int m_threads;
    SimParams m_params;
    std::vector<float> m_x, m_y, m_z, m_m, m_vx, m_vy, m_vz, m_ax, m_ay, m_az;
    std::vector<uint32_t> m_group;
    double m_time = 0;
    long long m_steps = 0;
};

}  // namespace nbody
