// GRAPE-6 forces on the GPU (g6_cuda.hpp). Kernels: g6_predict (one thread per particle: a j-record
// predicted to ti, or an i-particle copied, stored through the precision policy's store(), as the Hermite
// engine's predictor does), g6_force (a block per (j-slice, 128 i-particles); each thread sums its i over the
// slice with the policy's interact(), flushing float sums into double every 128 j for ds) and g6_reduce (one
// thread per i adds the slices' partial sums in slice order, so a result does not depend on timing). The
// j-particles are predicted once per (ti, j-memory contents), not once per i-batch: a code sweeping all N
// i-particles in batches of npipes predicts N j-particles once, as the hardware did.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/errors.hpp"
#include "cuda_check.cuh"
#include "device_set.cuh"
#include "g6_cuda.hpp"
#include "hermite_force.cuh"

namespace nbody::kernels {

namespace {

constexpr int kThreads = 128;     // i-particles per block
constexpr int kFlushEvery = 128;  // ds: float sums into double after this many j

// j (0..nj-1): the record predicted to ti; i (nj..nj+ni-1): the i-particle as given, mass 0 (it exerts
// nothing, and its own pair is at zero separation).
template <class P>
__global__ void g6_predict(const double* rec, const double* ibatch, double ti, int nj, int k0, int k1,
                           Predicted q) {
    const int k = k0 + int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= k1) return;
    DVec x, v;
    double m = 0;
    if (k < nj) {
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
        const double* b = ibatch + size_t(k - nj) * 6;
        x = {b[0], b[1], b[2]}, v = {b[3], b[4], b[5]};
    }
    P::store(q, k, x, v, m);
}

// Block (slice, ib): i = nj + ib * kThreads + threadIdx.x against j in [slice * per, min(nj, ...)).
template <class P>
__global__ void __launch_bounds__(kThreads) g6_force(Predicted q, int nj, int ni, int per, float soft2f,
                                                     double soft2d, double* partial) {
    const int i = blockIdx.y * kThreads + threadIdx.x;
    if (i >= ni) return;
    const typename P::I me = P::to_i(P::load(q, nj + i));
    typename P::Acc s{};
    const int j0 = blockIdx.x * per, j1 = min(nj, j0 + per);
    for (int j = j0; j < j1; ++j) {
        P::template interact<true>(me, P::load(q, j), soft2f, soft2d, s);
        if ((j - j0) % kFlushEvery == kFlushEvery - 1) P::flush(s);
    }
    const typename P::Total t = P::total(s);
    double* o = partial + (size_t(blockIdx.x) * ni + i) * 7;
    o[0] = double(t.ax), o[1] = double(t.ay), o[2] = double(t.az);
    o[3] = double(t.jx), o[4] = double(t.jy), o[5] = double(t.jz), o[6] = double(t.phi);
}

// out[i * 7 + c] = sum over slices s = 0, 1, ... of partial[(s * ni + i) * 7 + c], in that order.
__global__ void g6_reduce(const double* partial, int slices, int ni, double* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ni) return;
    double t[7] = {};
    for (int sl = 0; sl < slices; ++sl)
        for (int c = 0; c < 7; ++c) t[c] += partial[(size_t(sl) * ni + i) * 7 + c];
    for (int c = 0; c < 7; ++c) out[size_t(i) * 7 + c] = t[c];
}

template <class P>
class G6CudaImpl final : public G6Cuda {
  public:
    G6CudaImpl(int device, int jmemory, int npipes, int sms)
        : m_dev(device), m_jmem(jmemory), m_npipes(npipes), m_slices(std::max(1, 4 * sms)) {
        const std::size_t n = std::size_t(jmemory) + std::size_t(npipes);
        const bool dbl = sizeof(typename P::J) == 2 * sizeof(Dbl4);
        m_rec = DeviceBuffer::alloc(device, std::size_t(jmemory) * kRecord * sizeof(double), "g6 j-memory");
        m_pos = DeviceBuffer::alloc(device, n * (dbl ? sizeof(Dbl4) : sizeof(float4)), "g6 predicted x");
        m_vel = DeviceBuffer::alloc(device, n * (dbl ? sizeof(Dbl4) : sizeof(float4)), "g6 predicted v");
        m_lo = DeviceBuffer::alloc(device, n * sizeof(float4), "g6 predicted x lo");
        m_ibatch = DeviceBuffer::alloc(device, std::size_t(npipes) * 6 * sizeof(double), "g6 i-batch");
        m_partial = DeviceBuffer::alloc(device, std::size_t(m_slices) * npipes * 7 * sizeof(double), "g6 sums");
        m_sums = DeviceBuffer::alloc(device, std::size_t(npipes) * 7 * sizeof(double), "g6 totals");
        m_host.assign(std::size_t(jmemory) * kRecord, 0.0);
        m_batch.resize(std::size_t(npipes) * 6);
        m_out.resize(std::size_t(npipes) * 7);
    }

    void set_j(int address, const double* record) override {
        std::copy(record, record + kRecord, m_host.begin() + std::ptrdiff_t(address) * kRecord);
        m_lo_dirty = std::min(m_lo_dirty, address), m_hi_dirty = std::max(m_hi_dirty, address + 1);
    }

    void forces(double ti, int nj, int ni, const double (*xi)[3], const double (*vi)[3], double eps2,
                hermite::Force* out) override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
        const Predicted q{m_pos.get(), m_vel.get(), m_lo.as<float4>()};
        if (m_hi_dirty > m_lo_dirty) {
            const std::size_t off = std::size_t(m_lo_dirty) * kRecord;
            NBODY_CUDA_CHECK(cudaMemcpy(m_rec.as<double>() + off, m_host.data() + off,
                                        std::size_t(m_hi_dirty - m_lo_dirty) * kRecord * sizeof(double),
                                        cudaMemcpyHostToDevice));
            m_lo_dirty = m_jmem, m_hi_dirty = 0;
            m_predicted_nj = -1;
        }
        if (nj > 0 && (ti != m_predicted_ti || nj != m_predicted_nj)) {  // j: once per ti and j-memory
            g6_predict<P><<<(nj + 255) / 256, 256>>>(m_rec.as<double>(), nullptr, ti, nj, 0, nj, q);
            NBODY_CUDA_CHECK_LAUNCH("g6_predict (j)");
            m_predicted_ti = ti, m_predicted_nj = nj;
        }
        for (int i = 0; i < ni; ++i)
            for (int c = 0; c < 3; ++c) m_batch[std::size_t(i) * 6 + c] = xi[i][c], m_batch[std::size_t(i) * 6 + 3 + c] = vi[i][c];
        NBODY_CUDA_CHECK(cudaMemcpy(m_ibatch.get(), m_batch.data(), std::size_t(ni) * 6 * sizeof(double),
                                    cudaMemcpyHostToDevice));
        g6_predict<P><<<(ni + 255) / 256, 256>>>(nullptr, m_ibatch.as<double>(), ti, nj, nj, nj + ni, q);
        NBODY_CUDA_CHECK_LAUNCH("g6_predict (i)");
        const int slices = std::max(1, std::min(m_slices, nj / 64));
        const int per = (nj + slices - 1) / slices;
        const dim3 grid(unsigned(slices), unsigned((ni + kThreads - 1) / kThreads));
        g6_force<P><<<grid, kThreads>>>(q, nj, ni, per > 0 ? per : 1, float(eps2), eps2, m_partial.as<double>());
        NBODY_CUDA_CHECK_LAUNCH("g6_force");
        g6_reduce<<<(ni + 127) / 128, 128>>>(m_partial.as<const double>(), slices, ni, m_sums.as<double>());
        NBODY_CUDA_CHECK_LAUNCH("g6_reduce");
        NBODY_CUDA_CHECK(cudaMemcpy(m_out.data(), m_sums.get(), std::size_t(ni) * 7 * sizeof(double),
                                    cudaMemcpyDeviceToHost));
        for (int i = 0; i < ni; ++i) {
            const double* t = &m_out[std::size_t(i) * 7];
            out[i] = {{t[0], t[1], t[2]}, {t[3], t[4], t[5]}, t[6]};
        }
    }

  private:
    int m_dev, m_jmem, m_npipes, m_slices;
    DeviceBuffer m_rec, m_pos, m_vel, m_lo, m_ibatch, m_partial, m_sums;
    std::vector<double> m_host, m_batch, m_out;
    double m_predicted_ti = 0;
    int m_predicted_nj = -1;  // the j-particles in m_pos are predicted to m_predicted_ti (-1: not)
    int m_lo_dirty = 1 << 30, m_hi_dirty = 0;
};

}  // namespace

}  // namespace nbody::kernels

namespace nbody {

std::unique_ptr<G6Cuda> G6Cuda::create(Precision p, int jmemory, int npipes, std::string* why) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        if (why) *why = "no CUDA device";
        return nullptr;
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    using namespace kernels;
    switch (p) {
        case Precision::Fp32:
            return std::make_unique<G6CudaImpl<HermiteFp32>>(0, jmemory, npipes, sms);
        case Precision::DS:
            return std::make_unique<G6CudaImpl<HermiteDS>>(0, jmemory, npipes, sms);
        case Precision::Fp64:
            break;
    }
    return std::make_unique<G6CudaImpl<HermiteFp64>>(0, jmemory, npipes, sms);
}

}  // namespace nbody
