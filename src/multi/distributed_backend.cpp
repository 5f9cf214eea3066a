#include "multi/distributed_backend.hpp"

#include "core/errors.hpp"

namespace nbody {

DistributedBackend::DistributedBackend(std::unique_ptr<Backend> inner, std::unique_ptr<Exchange> exchange)
    : m_inner(std::move(inner)), m_exchange(std::move(exchange)) {
    // Probe the hook now so a backend without it is refused before any rank waits on the others.
    if (!m_inner->set_partition(RangePartition{}))
        throw BackendError(m_inner->name() +
                           " cannot integrate a sub-range of the bodies, so it cannot run "
                           "distributed over " +
                           std::to_string(m_exchange->size()) + " ranks");
    m_exchange->barrier();  // every rank is alive before the first gather
}

std::string DistributedBackend::name() const {
    return m_inner->name() + ", rank " + std::to_string(m_exchange->rank()) + " of " + m_exchange->name();
}

void DistributedBackend::reset(const State& s, const SimParams& p) {
    m_ranges = split_ranges(s.size(), m_exchange->size());
    const IndexRange own = own_range();
    Exchange* ex = m_exchange.get();
    auto ranges = m_ranges;
    RangePartition part;
    part.begin = own.begin, part.end = own.end;
    part.gather = [ex, ranges](std::vector<Double4>& all) { ex->all_gather(all, ranges); };
    part.rank = ex->rank(), part.ranks = ex->size();
    part.gather_runs = [ex](Float4* all, std::size_t n, const std::vector<IndexRange>& runs) {
        ex->all_gather_runs({all, n}, runs);
    };
    part.values_of_ranks = [ex](const std::vector<double>& mine) { return ex->all_values(mine); };
    m_inner->set_partition(std::move(part));
    m_inner->reset(s, p);
}

double DistributedBackend::timed_steps(int k) {
    return m_exchange->max_over_ranks(Backend::timed_steps(k));
}

void DistributedBackend::step(int k) {
    const double most = m_exchange->max_over_ranks(k), fewest = -m_exchange->max_over_ranks(-k);
    if (most != fewest)
        throw BackendError("rank " + std::to_string(m_exchange->rank()) + ": the ranks asked for between " +
                           std::to_string(static_cast<long long>(fewest)) + " and " +
                           std::to_string(static_cast<long long>(most)) +
                           " steps; every rank must take the same");
    m_inner->step(k);
}

void DistributedBackend::gather(std::vector<Double4>& out, const std::vector<Double4>& mine) {
    const IndexRange own = own_range();
    out.resize(mine.size());
    for (std::size_t i = own.begin; i < own.end; ++i) out[i] = mine[i];
    m_exchange->all_gather(out, m_ranges);
}

void DistributedBackend::read_state(State& out) {
    State local;
    m_inner->read_state(local);  // positions are current everywhere; velocities only in the own range
    out = local;
    gather(out.vel, local.vel);
}

void DistributedBackend::read_accelerations(std::vector<Double4>& out) {
    std::vector<Double4> local;
    m_inner->read_accelerations(local);
    gather(out, local);
}

WorkCount DistributedBackend::work() const {
    // The whole simulation's work (every rank's share), so interactions/s on rank 0 describe the run.
    return m_inner->work();
}

}  // namespace nbody
