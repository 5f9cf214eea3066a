#pragma once
// The tree's walked accelerations exchanged between its parts (tree_engine.cuh). Where every part can write
// every other's memory the walk itself stores each acceleration into the other parts' acceleration buffers, at
// its body's index (WalkShare::mirrors: over NVLink while the walk runs, so nothing is left after it: at 10M
// bodies on two H200s the copy after the walk took 1.0 ms of a 20 ms step, and a scatter of key-order
// buffers written by the walks 0.56 ms). Else each part gathers the accelerations of its run (the bodies its
// share of the groups covered) into key order and copies that run into every other part's key-order buffer,
// peer to peer on its own stream; then each part scatters the other parts' runs back into input order. Every
// body outside a part's run gets the bits its walker computed; the bodies a block step did not evaluate carry
// the accelerations every part already held. 16 bytes a body to each other part (tree::exchange_bytes).
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "common/device_set.cuh"
#include "tree/tree_engine.cuh"

namespace nbody::kernels {

// r.keyed holds at least n bodies.
void ensure_keyed(TreeReplica& r, std::size_t n);

// The parts' trees were walked (each evaluate_device has returned); n bodies in each. active: each part's
// block-step flags (empty: every body). mirrored: the walks wrote each run into the other parts' buffers
// (WalkShare::mirrors), so only the scatter is left.
void exchange_walked(std::vector<std::unique_ptr<TreeReplica>>& parts, DeviceSet& dev, std::size_t n,
                     const std::vector<const uint8_t*>& active, bool mirrored);

// Over MPI ranks on one host: every rank's accelerations (TreeReplica::acc) reachable from the others, by its
// pointer where the ranks are threads of one process (the tests) and by a CUDA IPC handle where they are
// processes, so each rank's walk writes its accelerations into the others' (WalkShare::mirrors, NVLink where
// the GPUs have it). Ranks on several hosts, more ranks than WalkShare::kMaxMirrors + 1, or
// NBODY_TREE_RANK_EXCHANGE=host leave it unlinked: the runs then travel through the host.
class RankLinks {
  public:
    RankLinks() = default;
    RankLinks(const RankLinks&) = delete;
    RankLinks& operator=(const RankLinks&) = delete;
    ~RankLinks() { unlink(); }

    // Collective (every rank, after its accelerations hold n bodies): links every rank's, or none.
    void link(TreeReplica& r, std::size_t n, const RangePartition& ranks);
    bool linked() const { return !m_peer.empty(); }
    void unlink();
    // The other ranks' buffers as this rank's walk writes them.
    void set_mirrors(WalkShare& share, int rank) const;

  private:
    std::vector<float4*> m_peer;  // each rank's accelerations as this rank sees them (its own: null)
    std::vector<void*> m_opened;  // the IPC mappings to close
};

// Over MPI ranks, one part each: where `linked`, the other ranks' walks have written their runs into this
// rank's accelerations, and nothing is left to do (the caller keeps a rank's walk from writing while another
// rank's kicks read); else this rank's run (runs[rank], its tree's walked run) is gathered into key order, every
// run travels through the host by `gather` (RangePartition::gather_runs), and the other ranks' runs are
// scattered into input order (block steps: the `active` bodies).
void exchange_between_ranks(TreeReplica& r, std::size_t n, const std::vector<IndexRange>& runs, int rank,
                            const std::function<void(Float4*, std::size_t, const std::vector<IndexRange>&)>& gather,
                            const uint8_t* active, bool linked);

}  // namespace nbody::kernels
