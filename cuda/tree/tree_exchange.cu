// The exchange of walked accelerations (tree_exchange.cuh).
#include <cuda_runtime.h>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "core/errors.hpp"
#include "tree/tree_exchange.cuh"

namespace nbody::kernels {

namespace {

constexpr int kBlock = 256;

// keyed[k] = acc[order[k]] for k in [begin, end): 32 bytes a body moved.
__global__ void gather_run_kernel(const uint32_t* __restrict__ order, const float4* __restrict__ acc,
                                  float4* __restrict__ keyed, uint32_t begin, uint32_t end) {
    const uint32_t k = begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (k < end) keyed[k] = acc[order[k]];
}

// acc[order[k]] = keyed[k] for every k outside [own_begin, own_end) (the other parts' runs) whose body is
// active (block steps: the others kept their accelerations, and a mirrored walk wrote only the active ones;
// null: every body).
__global__ void scatter_others_kernel(const uint32_t* __restrict__ order, const float4* __restrict__ keyed,
                                      float4* __restrict__ acc, uint32_t n, uint32_t own_begin, uint32_t own_end,
                                      const uint8_t* __restrict__ active) {
    const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n || (k >= own_begin && k < own_end)) return;
    const uint32_t i = order[k];
    if (!active || active[i]) acc[i] = keyed[k];
}

unsigned blocks_for(std::size_t count) { return unsigned((count + kBlock - 1) / kBlock); }

}  // namespace

void ensure_keyed(TreeReplica& r, std::size_t n) {
    if (r.keyed.bytes() < n * sizeof(float4))
        r.keyed = DeviceBuffer::alloc(r.part->device, n * sizeof(float4), "tree exchanged accelerations");
}

namespace {

void gather_own_run(TreeReplica& r, KeyRun run) {
    if (run.end > run.begin)
        gather_run_kernel<<<blocks_for(run.end - run.begin), kBlock, 0, r.part->stream>>>(
            r.tree.device_order(), r.acc.as<const float4>(), r.keyed.as<float4>(), uint32_t(run.begin),
            uint32_t(run.end));
    NBODY_CUDA_CHECK_LAUNCH("gather_run_kernel");
}

void scatter_others(TreeReplica& r, std::size_t n, KeyRun own, const uint8_t* active) {
    scatter_others_kernel<<<blocks_for(n), kBlock, 0, r.part->stream>>>(
        r.tree.device_order(), r.keyed.as<const float4>(), r.acc.as<float4>(), uint32_t(n), uint32_t(own.begin),
        uint32_t(own.end), active);
    NBODY_CUDA_CHECK_LAUNCH("scatter_others_kernel");
}

}  // namespace

void exchange_walked(std::vector<std::unique_ptr<TreeReplica>>& parts, DeviceSet& dev, std::size_t n,
                     const std::vector<const uint8_t*>& active, bool mirrored) {
    if (parts.size() < 2 || n == 0) return;
    if (mirrored) return;  // the walks wrote every run into the other parts' accelerations, and have ended
    auto active_of = [&](std::size_t k) { return active.empty() ? nullptr : active[k]; };
    for (auto& r : parts) {
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        ensure_keyed(*r, n);
        gather_own_run(*r, r->tree.walked_run());
    }
    for (auto& r : parts) {
        NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
        const KeyRun run = r->tree.walked_run();
        const std::size_t bytes = (run.end - run.begin) * sizeof(float4);
        for (auto& to : parts)
            if (to != r && bytes > 0)
                NBODY_CUDA_CHECK(cudaMemcpyPeerAsync(to->keyed.as<float4>() + run.begin, to->part->device,
                                                     r->keyed.as<const float4>() + run.begin, r->part->device,
                                                     bytes, r->part->stream));
        NBODY_CUDA_CHECK(cudaEventRecord(r->part->done, r->part->stream));
    }
    dev.wait_for_peers();
    for (std::size_t k = 0; k < parts.size(); ++k) {
        NBODY_CUDA_CHECK(cudaSetDevice(parts[k]->part->device));
        scatter_others(*parts[k], n, parts[k]->tree.walked_run(), active_of(k));
    }
}

namespace {

// A rank's address card: its host (a hash of the host name), its process, its buffer's address in that
// process and the buffer's IPC handle, as doubles for RangePartition::values_of_ranks (bit patterns copied
// whole: the gathers copy bytes).
constexpr std::size_t kHandleWords = sizeof(cudaIpcMemHandle_t) / sizeof(double);
static_assert(sizeof(cudaIpcMemHandle_t) % sizeof(double) == 0, "an IPC handle is whole doubles");
constexpr std::size_t kCardWords = 3 + kHandleWords;

double bits_as_double(uint64_t v) {
    double d;
    std::memcpy(&d, &v, sizeof d);
    return d;
}
uint64_t double_as_bits(double d) {
    uint64_t v;
    std::memcpy(&v, &d, sizeof v);
    return v;
}

uint64_t host_hash() {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    return std::hash<std::string>{}(name);
}

}  // namespace

void RankLinks::unlink() {
    for (void* p : m_opened) cudaIpcCloseMemHandle(p);
    m_opened.clear();
    m_peer.clear();
}

void RankLinks::link(TreeReplica& r, std::size_t n, const RangePartition& ranks) {
    unlink();
    const char* how = std::getenv("NBODY_TREE_RANK_EXCHANGE");
    const bool allowed = !(how && std::strcmp(how, "host") == 0);
    cudaIpcMemHandle_t handle{};
    if (allowed && n > 0) NBODY_CUDA_CHECK(cudaIpcGetMemHandle(&handle, r.acc.get()));
    std::vector<double> card = {bits_as_double(allowed ? host_hash() : uint64_t(ranks.rank) + 1),
                                bits_as_double(uint64_t(getpid())),
                                bits_as_double(reinterpret_cast<uint64_t>(r.acc.get()))};
    card.resize(kCardWords);
    std::memcpy(card.data() + 3, &handle, sizeof handle);
    const std::vector<double> all = ranks.values_of_ranks(card);  // collective: every rank gets here
    const std::size_t count = all.size() / kCardWords;
    bool one_host = n > 0;
    for (std::size_t k = 0; k < count; ++k) one_host = one_host && all[k * kCardWords] == all[0];
    // Every rank reads the same cards, so every rank decides alike.
    if (!one_host || count > std::size_t(WalkShare::kMaxMirrors) + 1) return;
    m_peer.assign(count, nullptr);
    for (std::size_t k = 0; k < count; ++k) {
        if (int(k) == ranks.rank) continue;
        const double* c = all.data() + k * kCardWords;
        if (double_as_bits(c[1]) == uint64_t(getpid())) {  // a thread of this process: its address is ours
            m_peer[k] = reinterpret_cast<float4*>(double_as_bits(c[2]));
            continue;
        }
        cudaIpcMemHandle_t h;
        std::memcpy(&h, c + 3, sizeof h);
        void* p = nullptr;
        NBODY_CUDA_CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
        m_opened.push_back(p);
        m_peer[k] = static_cast<float4*>(p);
    }
}

void RankLinks::set_mirrors(WalkShare& share, int rank) const {
    share.mirror_count = 0;
    for (std::size_t k = 0; k < m_peer.size(); ++k)
        if (int(k) != rank) share.mirrors[share.mirror_count++] = m_peer[k];  // link() kept them few enough
}

void exchange_between_ranks(TreeReplica& r, std::size_t n, const std::vector<IndexRange>& runs, int rank,
                            const std::function<void(Float4*, std::size_t, const std::vector<IndexRange>&)>& gather,
                            const uint8_t* active, bool linked) {
    const KeyRun own = r.tree.walked_run();
    const IndexRange said = runs.at(std::size_t(rank));
    if (said.begin != own.begin || said.end != own.end)
        throw BackendError("tree over ranks: rank " + std::to_string(rank) + " walked bodies " +
                           std::to_string(own.begin) + ".." + std::to_string(own.end) + " of the key order, the " +
                           "ranks' bounds say " + std::to_string(said.begin) + ".." + std::to_string(said.end) +
                           " (their trees differ)");
    // Linked: the walks wrote every rank's run into the others' accelerations, and every rank's walk has ended
    // (the caller's gather of the walks' numbers came after them).
    if (linked) return;
    NBODY_CUDA_CHECK(cudaSetDevice(r.part->device));
    ensure_keyed(r, n);
    const cudaStream_t s = r.part->stream;
    gather_own_run(r, own);
    if (r.host_keyed.size() < n) r.host_keyed = Pinned<float4>(n);
    NBODY_CUDA_CHECK(cudaMemcpyAsync(r.host_keyed.get() + own.begin, r.keyed.as<float4>() + own.begin,
                                     (own.end - own.begin) * sizeof(float4), cudaMemcpyDeviceToHost, s));
    NBODY_CUDA_CHECK(cudaStreamSynchronize(s));
    gather(reinterpret_cast<Float4*>(r.host_keyed.get()), n, runs);
    const KeyRun others[2] = {{0, own.begin}, {own.end, n}};
    for (const KeyRun& o : others)
        if (o.end > o.begin)
            NBODY_CUDA_CHECK(cudaMemcpyAsync(r.keyed.as<float4>() + o.begin, r.host_keyed.get() + o.begin,
                                             (o.end - o.begin) * sizeof(float4), cudaMemcpyHostToDevice, s));
    scatter_others(r, n, own, active);
}

}  // namespace nbody::kernels
