// The MPI RankExchange: MPI_Iallgatherv / MPI_Ibarrier on host buffers, polled with MPI_Test against a
// deadline so a dead or hung peer ends the job with a message instead of leaving every rank waiting.
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/errors.hpp"
#include "multi/rank_exchange.hpp"

namespace nbody {

bool mpi_built() {
    return true;
}

namespace {

void finalize_at_exit() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

// Test-only fault injection (tests/mpi and the by-hand check in docs/performance.md):
// NBODY_TEST_RANK_FAULT="exit:R" makes rank R exit without MPI_Finalize at its first collective,
// "hang:R" makes it sleep forever there, so the others' deadline is what ends the job.
void maybe_inject_fault(int rank) {
    const char* f = std::getenv("NBODY_TEST_RANK_FAULT");
    if (!f) return;
    const std::string s(f);
    const auto colon = s.find(':');
    if (colon == std::string::npos || std::atoi(s.c_str() + colon + 1) != rank) return;
    std::fprintf(stderr, "rank %d: NBODY_TEST_RANK_FAULT=%s, %s now\n", rank, f,
                 s.compare(0, colon, "exit") == 0 ? "exiting" : "hanging");
    if (s.compare(0, colon, "exit") == 0) std::_Exit(3);
    for (;;) pause();
}

class MpiExchange final : public RankExchange {
  public:
    explicit MpiExchange(double timeout_s) : m_timeout(timeout_s) {
        int initialized = 0;
        MPI_Initialized(&initialized);
        if (!initialized) {
            MPI_Init(nullptr, nullptr);
            std::atexit(finalize_at_exit);
        }
        MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    }
    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string name() const override {
        return "mpi (" + std::to_string(m_size) + (m_size == 1 ? " rank)" : " ranks)");
    }

    void all_gather(std::vector<Double4>& data, const std::vector<BodyRange>& ranges) override {
        maybe_inject_fault(m_rank);
        m_counts.resize(ranges.size());
        m_displs.resize(ranges.size());
        for (std::size_t r = 0; r < ranges.size(); ++r) {
            m_counts[r] = static_cast<int>(4 * ranges[r].size());  // doubles; < 2^31 for N < 5e8
            m_displs[r] = static_cast<int>(4 * ranges[r].begin);
        }
        // Host buffers. With a CUDA-aware MPI (UCX with CUDA, MPIX_Query_cuda_support() == 1) a GPU rank
        // could pass its device positions here and skip the copy to the host and back.
        MPI_Request req;
        MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data.data(), m_counts.data(), m_displs.data(),
                        MPI_DOUBLE, MPI_COMM_WORLD, &req);
        wait(req, "all-gather of positions");
    }

    void barrier() override {
        maybe_inject_fault(m_rank);
        MPI_Request req;
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        wait(req, "barrier");
    }

  private:
    // Polls the request; sleeps a little between tests once the wait is no longer short.
    void wait(MPI_Request& req, const char* what) {
        using Clock = std::chrono::steady_clock;
        const auto t0 = Clock::now();
        for (long spins = 0;; ++spins) {
            int done = 0;
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (done) return;
            const double waited = std::chrono::duration<double>(Clock::now() - t0).count();
            if (waited > m_timeout) {
                std::fprintf(stderr,
                             "error: rank %d of %d: the %s got no answer from every rank within %.0f s "
                             "(--rank-timeout); a rank died or hangs. Aborting the job.\n",
                             m_rank, m_size, what, m_timeout);
                std::fflush(stderr);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            if (spins > 1000) std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }

    double m_timeout;
    int m_rank = 0, m_size = 1;
    std::vector<int> m_counts, m_displs;
};

}  // namespace

std::unique_ptr<RankExchange> make_mpi_exchange(double timeout_s) {
    return std::make_unique<MpiExchange>(timeout_s);
}

}  // namespace nbody
