#pragma once
// The tree's walked accelerations exchanged between its parts (tree_engine.cuh): each part gathers the
// accelerations of its run (the bodies its share of the groups covered) into key order, copies that run into
// every other part's key-order buffer, peer to peer on its own stream, and, once every part's copies have
// landed, each part scatters the other parts' runs back into input order. Every body outside a part's run
// gets the bits its walker computed; the bodies a block step did not evaluate carry the accelerations every
// part already held. 16 bytes a body to each other part (tree::exchange_bytes).
#include <cstddef>
#include <memory>
#include <vector>

#include "common/device_set.cuh"
#include "tree/tree_engine.cuh"

namespace nbody::kernels {

// The parts' trees were walked (each evaluate_device has returned); n bodies in each.
void exchange_walked(std::vector<std::unique_ptr<TreeReplica>>& parts, DeviceSet& dev, std::size_t n);

}  // namespace nbody::kernels
