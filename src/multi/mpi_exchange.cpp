#include "multi/mpi_exchange.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/errors.hpp"
#include "core/parallel.hpp"

#if NBODY_HAVE_MPI
#include <mpi.h>
#endif

namespace nbody {

namespace {
int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}
}  // namespace

int launched_ranks() {
    return env_int("OMPI_COMM_WORLD_SIZE", env_int("PMI_SIZE", 1));
}
int local_rank() {
    return env_int("OMPI_COMM_WORLD_LOCAL_RANK", env_int("MPI_LOCALRANKID", 0));
}

int threads_per_rank(int requested) {
    if (requested > 0) return requested;
    return std::max(1, resolve_threads(0) / std::max(1, env_int("OMPI_COMM_WORLD_LOCAL_SIZE", 1)));
}

#if NBODY_HAVE_MPI
namespace {
class MpiExchange final : public Exchange {
public:
    MpiExchange() {
        int provided = 0;
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
        MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &m_size);
        MPI_Type_contiguous(4, MPI_DOUBLE,
                            &m_double4);  // counts in bodies: no int overflow below 2^31 bodies
        MPI_Type_commit(&m_double4);
        MPI_Type_contiguous(4, MPI_FLOAT, &m_float4);
        MPI_Type_commit(&m_float4);
    }
    ~MpiExchange() override {
        if (m_failed) MPI_Abort(MPI_COMM_WORLD, 3);  // a pending collective cannot be finalised
        MPI_Type_free(&m_double4);
        MPI_Type_free(&m_float4);
        MPI_Finalize();
    }
    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string name() const override { return "mpi (" + std::to_string(m_size) + " ranks)"; }

    void all_gather(std::span<Double4> all, const std::vector<IndexRange>& ranges) override {
        gather_in_place(all.data(), ranges, m_double4, "the position all-gather");
    }
    void all_gather_runs(std::span<Float4> all, const std::vector<IndexRange>& runs) override {
        gather_in_place(all.data(), runs, m_float4, "the tree's acceleration all-gather");
    }
    void barrier() override {
        MPI_Request req;
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        wait(req, "a barrier");
    }

private:
    void gather_in_place(void* all, const std::vector<IndexRange>& ranges, MPI_Datatype type, const char* what) {
        std::vector<int> counts, displs;  // in elements of `type`: no int overflow below 2^31 bodies
        for (const IndexRange& r : ranges) {
            counts.push_back(static_cast<int>(r.size()));
            displs.push_back(static_cast<int>(r.begin));
        }
        MPI_Request req;
        MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts.data(), displs.data(), type,
                        MPI_COMM_WORLD, &req);
        wait(req, what);
    }

    // MPI_Wait would block forever on a dead rank; poll with a deadline instead.
    void wait(MPI_Request& req, const char* what) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        int done = 0;
        for (;;) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (done) return;
            if (std::chrono::steady_clock::now() > deadline) break;
            std::this_thread::sleep_for(std::chrono::microseconds(20));
        }
        m_failed = true;
        const std::string msg = "rank " + std::to_string(m_rank) + " of " + std::to_string(m_size) + ": " +
                                what + " did not complete within " + std::to_string(timeout.count()) +
                                " ms (a rank died or hangs); aborting the job";
        std::fprintf(stderr, "nbody: %s\n", msg.c_str());
        throw BackendError(msg);
    }

    int m_rank = 0, m_size = 1;
    bool m_failed = false;
    MPI_Datatype m_double4{}, m_float4{};
};
}  // namespace

std::unique_ptr<Exchange> exchange_from_environment() {
    if (launched_ranks() <= 1) return std::make_unique<SingleExchange>();
    return std::make_unique<MpiExchange>();
}
#else
std::unique_ptr<Exchange> exchange_from_environment() {
    if (launched_ranks() <= 1) return std::make_unique<SingleExchange>();
    throw BackendError("started by mpirun with " + std::to_string(launched_ranks()) +
                       " ranks, but this build has no MPI (configure with NBODY_WITH_MPI=ON and Open MPI "
                       "installed: apt-get install libopenmpi-dev openmpi-bin)");
}
#endif

void pin_local_gpu() {
    if (!std::getenv("CUDA_VISIBLE_DEVICES")) setenv("CUDA_VISIBLE_DEVICES", std::to_string(local_rank()).c_str(), 1);
}

}  // namespace nbody
