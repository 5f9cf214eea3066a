#pragma once
// One simulation over several processes (MPI ranks): what a rank needs from its peers. Every rank keeps the
// whole state; each owns a contiguous range of bodies (split_body_ranges) and, once per step, shares the new
// positions and masses of its range with every other rank (an all-gather). The MPI implementation lives in
// mpi_exchange.cpp (built when NBODY_WITH_MPI); LocalExchange is the single-rank case for tests and for a
// build without MPI.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/float4.hpp"

namespace nbody {

struct BodyRange {
    std::size_t begin = 0, end = 0;
    std::size_t size() const { return end - begin; }
};

// n bodies in `parts` contiguous ranges whose sizes differ by at most one, in rank order (the same split as
// the CUDA backend's per-GPU split_ranges). parts >= 1.
std::vector<BodyRange> split_body_ranges(std::size_t n, std::size_t parts);

class RankExchange {
  public:
    virtual ~RankExchange() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // On entry data[ranges[rank()]] holds this rank's values; on return every range holds its owner's.
    // Collective: every rank calls it with the same ranges. 32 bytes per body (float64 x, y, z, m).
    // Throws (or aborts the job, MPI) when a peer does not answer within the deadline.
    virtual void all_gather(std::vector<Double4>& data, const std::vector<BodyRange>& ranges) = 0;
    // Waits for every rank, within the deadline.
    virtual void barrier() = 0;
    // "mpi (2 ranks)", "local (1 rank)".
    virtual std::string name() const = 0;
};

// One rank, no peers: all_gather and barrier have nothing to do.
class LocalExchange final : public RankExchange {
  public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    void all_gather(std::vector<Double4>&, const std::vector<BodyRange>&) override {}
    void barrier() override {}
    std::string name() const override { return "local (1 rank)"; }
};

// True when this build has MPI (NBODY_WITH_MPI).
bool mpi_built();

// The number of ranks the launcher started, from its environment (OMPI_COMM_WORLD_SIZE, PMI_SIZE), 1 when
// none: lets a program decide to run distributed before initialising MPI.
int launcher_world_size();

// Initialises MPI (once per process; finalised at exit) and returns the world communicator's exchange.
// timeout_s bounds every collective: a peer silent that long (dead, hung) gets a message naming the
// operation and the ranks, then MPI_Abort, so no rank waits forever. Throws BackendError when this build
// has no MPI.
std::unique_ptr<RankExchange> make_mpi_exchange(double timeout_s);

}  // namespace nbody
