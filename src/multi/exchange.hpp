#pragma once
// The decomposition of one simulation over ranks (processes under mpirun, or threads in the tests): every
// rank integrates a contiguous i-range of the bodies and, each step, all-gathers the new positions and
// masses of every range. Exchange hides how the gather travels (threads in one process, MPI between
// processes) so the DistributedBackend and its tests are the same code for both.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/float4.hpp"
#include "core/index_range.hpp"

namespace nbody {

// A rank's share: IndexRange and split_ranges (core/index_range.hpp), one slot per rank in rank order.

class Exchange {
public:
    virtual ~Exchange() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // "mpi (2 ranks)", "threads (4 ranks)", "single rank".
    virtual std::string name() const = 0;

    // all[ranges[rank()]] holds this rank's bodies on entry; on return every range holds its owner's.
    // ranges has size() entries covering all. Collective: every rank calls it in the same order. Throws
    // BackendError naming the rank count and the timeout when some rank does not arrive in time.
    virtual void all_gather(std::span<Double4> all, const std::vector<IndexRange>& ranges) = 0;

    // The same for float4 runs (the tree's walked accelerations in key order: every rank holds every body and
    // runs[r] is what rank r walked). Collective.
    virtual void all_gather_runs(std::span<Float4> all, const std::vector<IndexRange>& runs) = 0;

    // Returns when every rank has arrived; BackendError after `timeout` (a rank died or hangs).
    virtual void barrier() = 0;

    // Every rank's `mine` (each rank passes as many), rank after rank (collective): the tree's run bounds,
    // walk times and counts, from which every rank computes the same next shares.
    std::vector<double> all_values(const std::vector<double>& mine);

    // The largest of every rank's v (collective): decisions that depend on a rank's clock, such as how many
    // steps to take before the next look, must be the same on every rank or the gathers pair up wrongly.
    double max_over_ranks(double v);

    std::chrono::milliseconds timeout{std::chrono::seconds(60)};
};

// One rank: the gather and the barrier do nothing.
class SingleExchange final : public Exchange {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::string name() const override { return "single rank"; }
    void all_gather(std::span<Double4>, const std::vector<IndexRange>&) override {}
    void all_gather_runs(std::span<Float4>, const std::vector<IndexRange>&) override {}
    void barrier() override {}
};

// Ranks as threads of one process sharing a ThreadHub: the in-process implementation the unit tests run
// (and the reference for the order MPI_Allgatherv keeps: range r always comes from rank r).
class ThreadHub {
public:
    explicit ThreadHub(int ranks);
    std::unique_ptr<Exchange> join(int rank);  // one per rank, each used by one thread

private:
    friend class ThreadExchange;
    // Generation-counted barrier: waits until `ranks` threads arrived or the deadline passes.
    void arrive_and_wait(std::chrono::milliseconds timeout, int rank);

    int m_ranks;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_arrived = 0;
    long long m_generation = 0;
    std::vector<void*> m_buffers;  // each rank's `all` during a gather
};

}  // namespace nbody
