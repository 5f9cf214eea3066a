// GRAPE-6 forces on the GPU (g6_cuda.hpp), with the native Hermite engine's force kernel (hermite_kernels.cu:
// i-bodies in registers, j-tiles in shared memory, k i-bodies a thread, the j range split over blocks to fill one
// wave) and the potential on. Kernels of this file: g6_predict (one thread per particle: a j-record predicted to
// ti, or an i-particle copied, stored through the precision policy's store(), as the Hermite engine's
// predictor does) and g6_reduce (one warp per i: its lanes add every 32nd split's partial sums, then shuffle,
// in a fixed order, so a result does not depend on timing). The j-particles are predicted once per (ti,
// j-memory contents), not once per i-batch: a code sweeping all N i-particles in batches of npipes predicts N
// j-particles once, as the hardware did. The i-batch goes up and the sums come back through pinned buffers on
// the engine's own stream: start() (g6calc_firsthalf) only queues, finish() (g6calc_lasthalf) waits, so a
// code's host work between the two overlaps the GPU's.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "g6/g6_cuda.hpp"
#include "common/cuda_check.cuh"
#include "common/device_set.cuh"
#include "common/gpu_query.hpp"
#include "common/pinned.cuh"
#include "core/errors.hpp"
#include "hermite/hermite_force.cuh"
#include "hermite/hermite_kernel.cuh"

namespace nbody::kernels {

namespace {

// rec != nullptr: k (0..count-1) is j-record k predicted to ti, stored at k. Else k is i-particle k of the batch
// as given, stored at base + k with mass 0 (it exerts nothing, and a pair at zero separation adds nothing).
template <class P>
__global__ void g6_predict(const double* rec, const double* ibatch, double ti, int base, int count, Predicted q) {
    const int k = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= count) return;
    DVec x, v;
    double m = 0;
    if (rec) {
        const double* r = rec + size_t(k) * G6Cuda::kRecord;
        const double dt = ti - r[0];
        m = r[1];
        double p[3], u[3];
        for (int c = 0; c < 3; ++c) {
            const double x0 = r[2 + c], v0 = r[5 + c], a2 = r[8 + c], j6 = r[11 + c];
            p[c] = x0 + dt * (v0 + dt * (a2 + dt * j6));
            u[c] = v0 + dt * (2 * a2 + dt * 3 * j6);
        }
        x = {p[0], p[1], p[2]}, v = {u[0], u[1], u[2]};
    } else {
        const double* b = ibatch + size_t(k) * 6;
        x = {b[0], b[1], b[2]}, v = {b[3], b[4], b[5]};
    }
    P::store(q, base + k, x, v, m);
}

__global__ void g6_iota(int* out, int base, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = base + i;
}

// out[i] = a (3), phi, jerk (3) of i-particle i: the force kernel's records added over the splits by one warp
// (sum_split_records, the corrector's fixed order).
template <class Rec>
__global__ void g6_reduce(const Rec* partial, int splits, int ni, double* out) {
    const int lane = threadIdx.x & 31;
    const int i = int((blockIdx.x * blockDim.x + threadIdx.x) / 32);
    if (i >= ni) return;  // the whole warp: i is the warp's
    double v[7];
    sum_split_records(partial, splits, ni, i, v);
    if (lane < 7) out[size_t(i) * 7 + lane] = v[lane];
}

constexpr int kBlock = 256;  // predictor and reduction threads per block

template <class P>
class G6CudaImpl final : public G6Cuda {
  public:
    G6CudaImpl(Precision prec, int device, int jmemory, int npipes, int sms)
        : m_prec(prec), m_dev(device), m_jmem(jmemory), m_npipes(npipes), m_batch(std::size_t(npipes) * 6),
          m_out(std::size_t(npipes) * 7), m_ni_host(1) {
        NBODY_CUDA_CHECK(cudaSetDevice(device));
        // One wave of the force kernel with the potential (its registers, so its occupancy, are its own).
        int resident = 1;
        NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &resident, hermite_force_function(prec, true), kForceBlock,
            std::size_t(kForceBlock) * hermite_force_smem_per_thread(prec)));
        m_grid = std::max(1, resident) * std::max(1, sms);
        m_k = hermite_force_max_k(prec);
        const std::size_t n = std::size_t(jmemory) + std::size_t(npipes);
        const bool dbl = sizeof(typename P::J) == 2 * sizeof(Dbl4);
        m_rec = DeviceBuffer::alloc(device, std::size_t(jmemory) * kRecord * sizeof(double), "g6 j-memory");
        m_pos = DeviceBuffer::alloc(device, n * (dbl ? sizeof(Dbl4) : sizeof(float4)), "g6 predicted x");
        m_vel = DeviceBuffer::alloc(device, n * (dbl ? sizeof(Dbl4) : sizeof(float4)), "g6 predicted v");
        m_lo = DeviceBuffer::alloc(device, n * sizeof(float4), "g6 predicted x lo");
        m_ibatch = DeviceBuffer::alloc(device, std::size_t(npipes) * 6 * sizeof(double), "g6 i-batch");
        m_active = DeviceBuffer::alloc(device, std::size_t(npipes) * sizeof(int), "g6 i-list");
        m_count = DeviceBuffer::alloc(device, sizeof(int), "g6 i-count");
        // Splits x ni records of two, ni <= npipes (force_partial_records' bound for ni up to npipes).
        m_partial = DeviceBuffer::alloc(
            device, std::size_t(force_partial_records(npipes, kForceBlock, m_grid, m_k)) * 2 * sizeof(typename P::Rec),
            "g6 partial sums");
        m_sums = DeviceBuffer::alloc(device, std::size_t(npipes) * 7 * sizeof(double), "g6 totals");
        m_host.assign(std::size_t(jmemory) * kRecord, 0.0);
        NBODY_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
        // The i-particles sit after the j-memory, at jmemory + k: the force kernel's active list is fixed.
        g6_iota<<<(npipes + kBlock - 1) / kBlock, kBlock, 0, m_stream>>>(m_active.as<int>(), jmemory, npipes);
        NBODY_CUDA_CHECK_LAUNCH("g6_iota");
    }
    ~G6CudaImpl() override {
        cudaStreamSynchronize(m_stream);
        cudaStreamDestroy(m_stream);
    }

    void set_j(int address, const double* record) override {
        std::copy(record, record + kRecord, m_host.begin() + std::ptrdiff_t(address) * kRecord);
        m_lo_dirty = std::min(m_lo_dirty, address), m_hi_dirty = std::max(m_hi_dirty, address + 1);
    }

    void start(double ti, int nj, int ni, const double (*xi)[3], const double (*vi)[3], double eps2) override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
        NBODY_CUDA_CHECK(cudaStreamSynchronize(m_stream));  // a batch never collected: its buffers are free now
        m_ni = ni, m_nj = nj;
        const Predicted q{m_pos.get(), m_vel.get(), m_lo.as<float4>()};
        if (m_hi_dirty > m_lo_dirty) {
            const std::size_t off = std::size_t(m_lo_dirty) * kRecord;
            NBODY_CUDA_CHECK(cudaMemcpyAsync(m_rec.as<double>() + off, m_host.data() + off,
                                             std::size_t(m_hi_dirty - m_lo_dirty) * kRecord * sizeof(double),
                                             cudaMemcpyHostToDevice, m_stream));
            m_lo_dirty = m_jmem, m_hi_dirty = 0;
            m_predicted_nj = -1;
        }
        if (nj > 0 && (ti != m_predicted_ti || nj != m_predicted_nj)) {  // j: once per ti and j-memory
            g6_predict<P><<<(nj + kBlock - 1) / kBlock, kBlock, 0, m_stream>>>(m_rec.as<double>(), nullptr, ti, 0,
                                                                                nj, q);
            NBODY_CUDA_CHECK_LAUNCH("g6_predict (j)");
            m_predicted_ti = ti, m_predicted_nj = nj;
        }
        if (nj == 0) return;  // no j-particle: every sum is zero (finish)
        for (int i = 0; i < ni; ++i)
            for (int c = 0; c < 3; ++c) m_batch[std::size_t(i) * 6 + c] = xi[i][c], m_batch[std::size_t(i) * 6 + 3 + c] = vi[i][c];
        m_ni_host[0] = ni;
        NBODY_CUDA_CHECK(cudaMemcpyAsync(m_ibatch.get(), m_batch.get(), std::size_t(ni) * 6 * sizeof(double),
                                         cudaMemcpyHostToDevice, m_stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(m_count.get(), m_ni_host.get(), sizeof(int), cudaMemcpyHostToDevice, m_stream));
        g6_predict<P><<<(ni + kBlock - 1) / kBlock, kBlock, 0, m_stream>>>(nullptr, m_ibatch.as<double>(), ti, m_jmem,
                                                                            ni, q);
        NBODY_CUDA_CHECK_LAUNCH("g6_predict (i)");
        HermiteArgs a{};
        a.parts = 1, a.part = 0;
        a.pred = q;
        a.active = m_active.as<int>();
        a.n_active = m_count.as<int>();
        a.partial = m_partial.get();
        a.n = nj;
        a.force_block = kForceBlock, a.force_grid = m_grid, a.force_k = m_k, a.force_min_groups = kG6MinGroupsForK;
        a.soft2 = float(eps2), a.soft2_d = eps2;
        a.potential = true;
        launch_hermite_force(m_prec, a, m_stream);
        // The split the kernel planned on the device from the same numbers.
        const ForcePlan pl = force_plan(ni, nj, kForceBlock, m_grid, m_k, kG6MinGroupsForK);
        const int warps_per_block = kBlock / 32;
        g6_reduce<<<(ni + warps_per_block - 1) / warps_per_block, kBlock, 0, m_stream>>>(
            m_partial.as<const typename P::Rec>(), pl.splits, ni, m_sums.as<double>());
        NBODY_CUDA_CHECK_LAUNCH("g6_reduce");
        NBODY_CUDA_CHECK(cudaMemcpyAsync(m_out.get(), m_sums.get(), std::size_t(ni) * 7 * sizeof(double),
                                         cudaMemcpyDeviceToHost, m_stream));
    }

    void finish(hermite::Force* out) override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
        NBODY_CUDA_CHECK(cudaStreamSynchronize(m_stream));
        for (int i = 0; i < m_ni; ++i) {
            if (m_nj == 0) {
                out[i] = {};
                continue;
            }
            const double* t = &m_out[std::size_t(i) * 7];
            out[i] = {{t[0], t[1], t[2]}, {t[4], t[5], t[6]}, t[3]};
        }
    }

  private:
    Precision m_prec;
    int m_dev, m_jmem, m_npipes, m_grid = 1, m_k = 1;
    DeviceBuffer m_rec, m_pos, m_vel, m_lo, m_ibatch, m_active, m_count, m_partial, m_sums;
    std::vector<double> m_host;
    Pinned<double> m_batch, m_out;
    Pinned<int> m_ni_host;
    cudaStream_t m_stream = nullptr;
    double m_predicted_ti = 0;
    int m_predicted_nj = -1;  // the j-particles in m_pos are predicted to m_predicted_ti (-1: not)
    int m_lo_dirty = 1 << 30, m_hi_dirty = 0;
    int m_ni = 0, m_nj = 0;  // the batch start() queued
};

}  // namespace

}  // namespace nbody::kernels

namespace nbody {

std::unique_ptr<G6Cuda> G6Cuda::create(Precision p, int jmemory, int npipes, std::string* why) {
    std::string refusal;
    if (usable_cuda_devices(&refusal) == 0 || !(refusal = cuda_device_refusal(0)).empty()) {
        if (why) *why = refusal;
        return nullptr;
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    using namespace kernels;
    switch (p) {
        case Precision::Fp32:
            return std::make_unique<G6CudaImpl<HermiteFp32>>(p, 0, jmemory, npipes, sms);
        case Precision::DS:
            return std::make_unique<G6CudaImpl<HermiteDS>>(p, 0, jmemory, npipes, sms);
        case Precision::Fp64:
            break;
    }
    return std::make_unique<G6CudaImpl<HermiteFp64>>(p, 0, jmemory, npipes, sms);
}

}  // namespace nbody
