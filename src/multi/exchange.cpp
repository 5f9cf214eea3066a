#include "multi/exchange.hpp"

#include <algorithm>
#include <cstring>

#include "core/errors.hpp"

namespace nbody {

double Exchange::max_over_ranks(double v) {
    const auto n = static_cast<std::size_t>(size());
    std::vector<Double4> all(n);
    all[static_cast<std::size_t>(rank())].x = v;
    all_gather(all, split_ranges(n, size()));  // one slot per rank
    double m = v;
    for (const Double4& d : all) m = std::max(m, d.x);
    return m;
}

std::vector<double> Exchange::all_values(const std::vector<double>& mine) {
    const std::size_t ranks = static_cast<std::size_t>(size()), slots = (mine.size() + 3) / 4;  // 4 a Double4
    std::vector<Double4> all(ranks * slots);
    for (std::size_t k = 0; k < mine.size(); ++k)
        (&all[static_cast<std::size_t>(rank()) * slots + k / 4].x)[k % 4] = mine[k];
    std::vector<IndexRange> ranges;
    for (std::size_t r = 0; r < ranks; ++r) ranges.push_back({r * slots, (r + 1) * slots});
    all_gather(all, ranges);
    std::vector<double> out;
    for (std::size_t r = 0; r < ranks; ++r)
        for (std::size_t k = 0; k < mine.size(); ++k) out.push_back((&all[r * slots + k / 4].x)[k % 4]);
    return out;
}

class ThreadExchange final : public Exchange {
public:
    ThreadExchange(ThreadHub& hub, int rank) : m_hub(hub), m_rank(rank) {}
    int rank() const override { return m_rank; }
    int size() const override { return m_hub.m_ranks; }
    std::string name() const override { return "threads (" + std::to_string(size()) + " ranks)"; }

    void all_gather(std::span<Double4> all, const std::vector<IndexRange>& ranges) override {
        gather_ranges(all, ranges);
    }
    void all_gather_runs(std::span<Float4> all, const std::vector<IndexRange>& runs) override {
        gather_ranges(all, runs);
    }

    void barrier() override { m_hub.arrive_and_wait(timeout, m_rank); }

private:
    template <class T>
    void gather_ranges(std::span<T> all, const std::vector<IndexRange>& ranges) {
        if (ranges.size() != static_cast<std::size_t>(size()))
            throw BackendError("all_gather: " + std::to_string(ranges.size()) + " ranges for " +
                               std::to_string(size()) + " ranks");
        {
            std::lock_guard lock(m_hub.m_mutex);
            m_hub.m_buffers[static_cast<std::size_t>(m_rank)] = all.data();
        }
        barrier();  // every rank's own range is written and its buffer published
        for (int r = 0; r < size(); ++r) {
            if (r == m_rank) continue;
            const IndexRange g = ranges[static_cast<std::size_t>(r)];
            const T* src = static_cast<const T*>(m_hub.m_buffers[static_cast<std::size_t>(r)]);
            std::memcpy(all.data() + g.begin, src + g.begin, g.size() * sizeof(T));
        }
        barrier();  // nobody overwrites its range (next step) while another still reads it
    }

    ThreadHub& m_hub;
    int m_rank;
};

ThreadHub::ThreadHub(int ranks) : m_ranks(ranks), m_buffers(static_cast<std::size_t>(std::max(ranks, 1))) {
    if (ranks < 1) throw ParamError("ranks", "must be >= 1 (got " + std::to_string(ranks) + ")");
}

std::unique_ptr<Exchange> ThreadHub::join(int rank) {
    return std::make_unique<ThreadExchange>(*this, rank);
}

void ThreadHub::arrive_and_wait(std::chrono::milliseconds timeout, int rank) {
    std::unique_lock lock(m_mutex);
    const long long gen = m_generation;
    if (++m_arrived == m_ranks) {
        m_arrived = 0;
        ++m_generation;
        m_cv.notify_all();
        return;
    }
    if (!m_cv.wait_for(lock, timeout, [&] { return m_generation != gen; })) {
        --m_arrived;  // leave the barrier as it was for anyone still waiting
        throw BackendError("rank " + std::to_string(rank) + ": only " + std::to_string(m_arrived + 1) +
                           " of " + std::to_string(m_ranks) + " ranks reached the exchange within " +
                           std::to_string(timeout.count()) + " ms (a rank died or hangs)");
    }
}

}  // namespace nbody
