#pragma once
// The tree's walked accelerations exchanged between its parts (tree_engine.cuh): each part gathers the
// accelerations of its run (the bodies its share of the groups covered) into key order, copies that run into
// every other part's key-order buffer, peer to peer on its own stream, and, once every part's copies have
// landed, each part scatters the other parts' runs back into input order. Every body outside a part's run
// gets the bits its walker computed; the bodies a block step did not evaluate carry the accelerations every
// part already held. 16 bytes a body to each other part (tree::exchange_bytes).
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "common/device_set.cuh"
#include "tree/tree_engine.cuh"

namespace nbody::kernels {

// The parts' trees were walked (each evaluate_device has returned); n bodies in each.
void exchange_walked(std::vector<std::unique_ptr<TreeReplica>>& parts, DeviceSet& dev, std::size_t n);

// Over MPI ranks, one part each: this rank's run (runs[rank], its tree's walked run) to the host, every run
// gathered between the ranks by `gather` (RangePartition::gather_runs), the other runs back to the device and
// scattered into input order. 16 bytes a body each way across the bus, and the gather's traffic.
void exchange_between_ranks(TreeReplica& r, std::size_t n, const std::vector<IndexRange>& runs, int rank,
                            const std::function<void(Float4*, std::size_t, const std::vector<IndexRange>&)>& gather);

}  // namespace nbody::kernels
