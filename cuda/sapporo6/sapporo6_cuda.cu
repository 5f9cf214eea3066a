// The sixth-order library's GPU engine (sapporo6_cuda.hpp): the j-memory's records live on the device, those
// set since the last call copied and scattered, the prediction run there (core/physics/hermite6.hpp's predictor,
// through sapporo6::predicted); the force kernels (sapporo6_force.cuh) sum each batch of i-particles over
// slices of the j range, and a second kernel adds the slices in a fixed order.
#include <algorithm>
#include <vector>

#include "sapporo6/sapporo6_cuda.hpp"
#include "common/cuda_check.cuh"
#include "common/device_set.cuh"
#include "common/gpu_query.hpp"
#include "common/pinned.cuh"
#include "sapporo6/sapporo6_force.cuh"

namespace nbody::kernels {

namespace {

__device__ inline void store_predicted(const sapporo6::JRecord& r, double t, S6Particles p, int k) {
    D3 x, v, a;
    sapporo6::predicted(r, t, x, v, a);
    p.pm[k] = Quad{x.x, x.y, x.z, r.mass};
    p.vid[k] = Quad{v.x, v.y, v.z, double(r.id)};
    p.acc[k] = Quad{a.x, a.y, a.z, 0};
}

// The records set since the last call: into the j-memory at their addresses, and predicted "as stored".
__global__ void s6_scatter(const int* address, const sapporo6::JRecord* rec, int n, sapporo6::JRecord* memory,
                           S6Particles pred) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    memory[address[k]] = rec[k];
    store_predicted(rec[k], nan(""), pred, address[k]);
}

// Addresses 0..nj-1 predicted to t (NaN: as stored).
__global__ void s6_predict(const sapporo6::JRecord* memory, int nj, double t, S6Particles pred) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nj) store_predicted(memory[k], t, pred, k);
}

class Sapporo6CudaImpl final : public Sapporo6Cuda {
  public:
    Sapporo6CudaImpl(int device, int npipes, bool ds) : m_dev(device), m_npipes(npipes), m_ds(ds) {
        NBODY_CUDA_CHECK(cudaSetDevice(device));
        int sms = 1, resident = 1;
        NBODY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &resident, ds ? s6_force<DsTile> : s6_force<Fp64Tile>, kS6Block, 0));
        m_wave = std::max(1, sms) * std::max(1, resident);
        const std::size_t ni_pad = std::size_t((npipes + kS6Block - 1) / kS6Block) * kS6Block;
        m_ibuf = DeviceBuffer::alloc(device, ni_pad * 3 * sizeof(Quad), "sapporo6 i-batch");
        // slices x ni <= (wave / iblocks + 1) x iblocks x 128 <= (wave + iblocks) x 128 partial records
        const std::size_t parts = (std::size_t(m_wave) + ni_pad / kS6Block) * kS6Block;
        m_part = DeviceBuffer::alloc(device, parts * 3 * sizeof(Quad), "sapporo6 partial sums");
        m_parts = parts;
        m_out = DeviceBuffer::alloc(device, ni_pad * 12 * sizeof(double), "sapporo6 results");
        m_host_i = Pinned<double>(ni_pad * 12);
        m_host_out = Pinned<double>(ni_pad * 12);
    }

    void set_j(int address, const sapporo6::JRecord& r) override {
        if (std::size_t(address) >= m_slot.size()) m_slot.resize(std::size_t(address) + 1, -1);
        int& slot = m_slot[std::size_t(address)];
        if (slot < 0) {  // a second set of the same address before the copy replaces the first
            slot = int(m_dirty.size());
            m_dirty.push_back(address);
            m_dirty_rec.emplace_back();
        }
        m_dirty_rec[std::size_t(slot)] = r;
    }

    void predict(double t, int nj) override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
        flush();
        if (nj <= 0) return;
        s6_predict<<<unsigned((nj + 255) / 256), 256>>>(m_rec.as<sapporo6::JRecord>(), nj, t,
                                                        particles(m_jbuf, m_jcap));
        NBODY_CUDA_CHECK_LAUNCH("s6_predict");
    }

    void forces(int nj, const sapporo6::IBatch& in, int i0, int n, const sapporo6::IResult& out) override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
        flush();
        const std::size_t ni_pad = m_host_i.size() / 12;
        for (int q = 0; q < n; ++q) {
            const int i = i0 + q;
            double* p = &m_host_i[std::size_t(q) * 4];
            p[0] = in.pos[i][0], p[1] = in.pos[i][1], p[2] = in.pos[i][2], p[3] = in.eps2[i];
            double* v = &m_host_i[(ni_pad + std::size_t(q)) * 4];
            v[0] = in.vel[i][0], v[1] = in.vel[i][1], v[2] = in.vel[i][2], v[3] = double(in.id[i]);
            double* a = &m_host_i[(2 * ni_pad + std::size_t(q)) * 4];
            a[0] = in.acc[i][0], a[1] = in.acc[i][1], a[2] = in.acc[i][2], a[3] = 0;
        }
        for (int part = 0; part < 3; ++part)  // the n rows of each of the three arrays, not the whole batch
            NBODY_CUDA_CHECK(cudaMemcpy(m_ibuf.as<Quad>() + part * ni_pad,
                                        m_host_i.get() + part * ni_pad * 4, std::size_t(n) * sizeof(Quad),
                                        cudaMemcpyHostToDevice));
        const int iblocks = (n + kS6Block - 1) / kS6Block;
        const int tiles = (nj + kS6Block - 1) / kS6Block;
        // As many j-slices as fit one wave of blocks beside the others, never more: at ni = 16,384 (128
        // i-blocks) and a wave of 660 that is 5 slices (640 blocks, 97% of the wave), where 6 would spill 108
        // blocks into a second wave and leave it 84% idle. Each slice a whole number of tiles.
        int slices = std::clamp(m_wave / iblocks, 1, std::max(1, tiles));
        const int chunk = ((tiles + slices - 1) / slices) * kS6Block;
        slices = std::max(1, (nj + chunk - 1) / chunk);
        Quad* pa = m_part.as<Quad>();
        Quad *pj = pa + m_parts, *ps = pj + m_parts;
        const dim3 grid{unsigned(iblocks), unsigned(slices)};
        const S6Particles j = particles(m_jbuf, m_jcap), i = particles(m_ibuf, ni_pad);
        if (m_ds)
            s6_force<DsTile><<<grid, kS6Block>>>(j, nj, chunk, i, n, pa, pj, ps);
        else
            s6_force<Fp64Tile><<<grid, kS6Block>>>(j, nj, chunk, i, n, pa, pj, ps);
        NBODY_CUDA_CHECK_LAUNCH("s6_force");
        s6_reduce<<<unsigned(iblocks), kS6Block>>>(pa, pj, ps, slices, n, m_out.as<double>());
        NBODY_CUDA_CHECK_LAUNCH("s6_reduce");
        NBODY_CUDA_CHECK(cudaMemcpy(m_host_out.get(), m_out.get(), std::size_t(n) * 12 * sizeof(double),
                                    cudaMemcpyDeviceToHost));
        for (int q = 0; q < n; ++q) {
            const double* r = &m_host_out[std::size_t(q) * 12];
            const int i = i0 + q;
            sapporo6::put(out.acc[i], {r[0], r[1], r[2]});
            sapporo6::put(out.jrk[i], {r[3], r[4], r[5]});
            sapporo6::put(out.snp[i], {r[6], r[7], r[8]});
            if (out.crk) sapporo6::put(out.crk[i], {0, 0, 0});
            out.phi[i] = r[9], out.nnb_r2[i] = r[10], out.nnb[i] = int(r[11]);
        }
    }

  private:
    static S6Particles particles(const DeviceBuffer& b, std::size_t stride) {
        Quad* base = b.as<Quad>();
        return {base, base + stride, base + 2 * stride};
    }

    // Room for addresses 0..need-1 on the device (doubling), the old contents kept.
    void reserve(std::size_t need) {
        if (need <= m_jcap) return;
        const std::size_t cap = std::max(need, 2 * m_jcap);
        DeviceBuffer rec = DeviceBuffer::alloc(m_dev, cap * sizeof(sapporo6::JRecord), "sapporo6 j-memory");
        DeviceBuffer pred =
            DeviceBuffer::alloc(m_dev, cap * 3 * sizeof(Quad), "sapporo6 predicted j-particles");
        if (m_jcap > 0) {
            NBODY_CUDA_CHECK(cudaMemcpy(rec.get(), m_rec.get(), m_jcap * sizeof(sapporo6::JRecord),
                                        cudaMemcpyDeviceToDevice));
            for (int part = 0; part < 3; ++part)
                NBODY_CUDA_CHECK(cudaMemcpy(pred.as<Quad>() + part * cap, m_jbuf.as<Quad>() + part * m_jcap,
                                            m_jcap * sizeof(Quad), cudaMemcpyDeviceToDevice));
        }
        m_rec = std::move(rec), m_jbuf = std::move(pred), m_jcap = cap;
    }

    // Copies the records set since the last call (only those) and scatters them on the device.
    void flush() {
        if (m_dirty.empty()) return;
        const std::size_t n = m_dirty.size();
        reserve(std::size_t(*std::max_element(m_dirty.begin(), m_dirty.end())) + 1);
        if (n > m_upcap) {
            m_upcap = std::max(n, 2 * m_upcap);
            m_up_addr = DeviceBuffer::alloc(m_dev, m_upcap * sizeof(int), "sapporo6 addresses set");
            m_up_rec =
                DeviceBuffer::alloc(m_dev, m_upcap * sizeof(sapporo6::JRecord), "sapporo6 records set");
        }
        NBODY_CUDA_CHECK(
            cudaMemcpy(m_up_addr.get(), m_dirty.data(), n * sizeof(int), cudaMemcpyHostToDevice));
        NBODY_CUDA_CHECK(cudaMemcpy(m_up_rec.get(), m_dirty_rec.data(), n * sizeof(sapporo6::JRecord),
                                    cudaMemcpyHostToDevice));
        s6_scatter<<<unsigned((n + 255) / 256), 256>>>(m_up_addr.as<int>(), m_up_rec.as<sapporo6::JRecord>(),
                                                       int(n), m_rec.as<sapporo6::JRecord>(),
                                                       particles(m_jbuf, m_jcap));
        NBODY_CUDA_CHECK_LAUNCH("s6_scatter");
        for (int a : m_dirty) m_slot[std::size_t(a)] = -1;
        m_dirty.clear(), m_dirty_rec.clear();
    }

    int m_dev, m_npipes;
    bool m_ds;
    int m_wave = 1;
    std::size_t m_jcap = 0, m_upcap = 0, m_parts = 0;
    DeviceBuffer m_rec, m_jbuf, m_up_addr, m_up_rec, m_ibuf, m_part, m_out;
    std::vector<int> m_slot, m_dirty;  // per address: its place in m_dirty, or -1
    std::vector<sapporo6::JRecord> m_dirty_rec;
    Pinned<double> m_host_i, m_host_out;  // the i-batch and its results, page-locked: copied at the bus rate
};

}  // namespace

}  // namespace nbody::kernels

namespace nbody {

std::unique_ptr<Sapporo6Cuda> Sapporo6Cuda::create(int ordinal, int npipes, bool ds, std::string* why) {
    std::string refusal;
    const int count = usable_cuda_devices(&refusal);
    if (count > 0 && (ordinal < 0 || ordinal >= count))
        refusal = "CUDA device " + std::to_string(ordinal) + " does not exist (" + std::to_string(count) + " present)";
    if (refusal.empty()) refusal = cuda_device_refusal(ordinal);
    if (!refusal.empty()) {
        if (why) *why = refusal;
        return nullptr;
    }
    try {
        return std::make_unique<kernels::Sapporo6CudaImpl>(ordinal, npipes, ds);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

}  // namespace nbody
