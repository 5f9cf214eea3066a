// Block-time selection on the device: the next block time (a min-reduction of t_end) and the active list (a
// stream compaction of the bodies due then), with CUB, so a block step needs nothing from the host.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include "common/cuda_check.cuh"
#include "hermite/hermite_kernel.cuh"

namespace nbody::kernels {

namespace {

// Selects body i when it is due at the block time (read from device memory, written by the reduction).
struct DueAt {
    const Tick* t_end;
    const Tick* t_next;
    __device__ bool operator()(int i) const { return t_end[i] == *t_next; }
};

__global__ void count_block_step(HermiteStats* stats, const Tick* t_next, const int* n_active, bool prime) {
    stats->t_now = *t_next;
    if (prime) return;
    stats->block_steps += 1;
    stats->active += static_cast<unsigned long long>(*n_active);
}

}  // namespace

std::size_t HermiteSelect::scratch_bytes(int n) {
    std::size_t reduce = 0, select = 0;
    NBODY_CUDA_CHECK(cub::DeviceReduce::Min(nullptr, reduce, static_cast<const Tick*>(nullptr),
                                            static_cast<Tick*>(nullptr), n));
    NBODY_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select, static_cast<const int*>(nullptr),
                                           static_cast<int*>(nullptr), static_cast<int*>(nullptr), n,
                                           DueAt{nullptr, nullptr}));
    return reduce > select ? reduce : select;
}

void HermiteSelect::run(const Tick* t_end, const int* iota, int n, Tick* t_next, int* active, int* n_active,
                        void* scratch, std::size_t bytes, HermiteStats* stats, bool count_stats, bool prime,
                        cudaStream_t s) {
    std::size_t b = bytes;
    NBODY_CUDA_CHECK(cub::DeviceReduce::Min(scratch, b, t_end, t_next, n, s));
    b = bytes;
    NBODY_CUDA_CHECK(cub::DeviceSelect::If(scratch, b, iota, active, n_active, n, DueAt{t_end, t_next}, s));
    if (count_stats) {
        count_block_step<<<1, 1, 0, s>>>(stats, t_next, n_active, prime);
        NBODY_CUDA_CHECK_LAUNCH("count_block_step");
    }
}

}  // namespace nbody::kernels
