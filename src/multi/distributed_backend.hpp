#pragma once
// One simulation over several ranks: each rank runs an inner backend (CPU, or CUDA on its local GPU) on its
// own i-range against all N bodies and all-gathers the new positions every step through an Exchange.
// Results equal one rank's: the CPU backend's rows are summed in a fixed j order whatever the split, so a
// distributed CPU run is bit-identical to a single one (tests/unit/multi/test_distributed, tests/mpi).
#include <memory>

#include "core/backend/backend.hpp"
#include "multi/exchange.hpp"

namespace nbody {

class DistributedBackend final : public Backend {
public:
    // Throws BackendError where the inner backend cannot integrate a sub-range.
    DistributedBackend(std::unique_ptr<Backend> inner, std::unique_ptr<Exchange> exchange);

    std::string name() const override;
    BackendCaps caps() const override { return {m_inner->caps().gpu, m_inner->caps().kernel_variants}; }
    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override { m_inner->set_params(p); }
    const SimParams& params() const override { return m_inner->params(); }
    // Collective; throws BackendError when the ranks asked for different step counts (their gathers would
    // pair up with the wrong steps).
    void step(int k) override;
    // Collective: the host clock around step(), the slowest rank's, so every rank takes the same number of
    // steps per benchmark repeat.
    double timed_steps(int k) override;
    // Collective (every rank must call them): velocities and accelerations live with their owner.
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override { m_inner->copy_positions_to_host(dst); }
    std::string kernel_label() const override { return m_inner->kernel_label(); }
    // The inner backend's read-outs (this rank's): the tree's stage times say how the walk was shared out.
    void read_out(const ReadoutAsk& ask, Readouts& out) override { m_inner->read_out(ask, out); }
    WorkCount work() const override;
    std::size_t size() const override { return m_inner->size(); }
    double time() const override { return m_inner->time(); }
    long long steps_taken() const override { return m_inner->steps_taken(); }
    void set_steps_taken(long long n) override { m_inner->set_steps_taken(n); }

    Exchange& exchange() const { return *m_exchange; }
    IndexRange own_range() const { return m_ranges.at(static_cast<std::size_t>(m_exchange->rank())); }

private:
    // out[own range] = mine; all-gathers the rest.
    void gather(std::vector<Double4>& out, const std::vector<Double4>& mine);

    std::unique_ptr<Backend> m_inner;
    std::unique_ptr<Exchange> m_exchange;
    std::vector<IndexRange> m_ranges;
};

}  // namespace nbody
