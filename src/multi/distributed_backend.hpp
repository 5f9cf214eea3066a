#pragma once
// One simulation over several ranks on the CPU: each rank keeps the whole state, owns a contiguous range of
// bodies, and per leap-frog step kicks and drifts its range, all-gathers the positions (RankExchange) and
// evaluates the forces on its range against all N bodies. The force rows are the CPU backend's
// (accelerations_f32, one row per body in a fixed j order), so any rank count gives bit-identical results.
// fp32 and leap-frog only, as the CPU backend runs them; the others are refused with the reason.
#include <memory>
#include <vector>

#include "core/backend.hpp"
#include "multi/rank_exchange.hpp"

namespace nbody {

class DistributedBackend final : public Backend {
  public:
    DistributedBackend(std::unique_ptr<RankExchange> exchange, int threads = 0);

    std::string name() const override;
    BackendCaps caps() const override { return {}; }
    // Collective (every rank calls these in the same order): reset, step, read_state, read_accelerations.
    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    const SimParams& params() const override { return m_params; }
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override;  // local: every rank holds every position
    std::string kernel_label() const override;
    std::size_t size() const override { return m_x.size(); }
    double time() const override { return m_time; }
    long long steps_taken() const override { return m_steps; }

    int rank() const { return m_ex->rank(); }
    int ranks() const { return m_ex->size(); }
    BodyRange own_range() const { return m_ranges[static_cast<std::size_t>(m_ex->rank())]; }

  private:
    void compute_own_accelerations();
    // Puts (a, b, c, d)[i] for this rank's bodies into m_buf and all-gathers it.
    void gather(const float* a, const float* b, const float* c, const float* d);

    std::unique_ptr<RankExchange> m_ex;
    int m_threads;
    SimParams m_params;
    std::vector<BodyRange> m_ranges;
    std::vector<float> m_x, m_y, m_z, m_m, m_vx, m_vy, m_vz, m_ax, m_ay, m_az;
    std::vector<Double4> m_buf;
    std::vector<uint32_t> m_group;
    double m_time = 0;
    long long m_steps = 0;
};

}  // namespace nbody
