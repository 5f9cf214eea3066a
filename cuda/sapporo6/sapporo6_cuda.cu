// The sixth-order library's GPU engine in fp64 (sapporo6_cuda.hpp). A force block is 128 i-particles (one a
// thread) against one slice of the j range, staged through shared memory 128 j at a time; the slices'
// partial sums are added per i in slice order by a second kernel, so the result does not depend on timing.
// Per pair: core/hermite6.hpp's add_pair6 (about 60 flops, a double divide and sqrt), the same code the CPU
// reference runs.
#include <algorithm>
#include <vector>

#include "cuda_check.cuh"
#include "device_set.cuh"
#include "sapporo6/sapporo6_cuda.hpp"

namespace nbody::kernels {

namespace {

using hermite6::D3;

constexpr int kS6Block = 128;  // i-particles a block and j-particles a shared-memory tile

// Four doubles, 32-byte aligned (two 128-bit loads); CUDA 13 deprecates double4 for want of the alignment.
struct alignas(32) Quad {
    double x, y, z, w;
};

// A particle as the kernels read it: (x, y, z, mass or eps2), (vx, vy, vz, id), (ax, ay, az, 0).
struct S6Particles {
    Quad* pm;
    Quad* vid;
    Quad* acc;
};

__device__ inline D3 d3(Quad v) {
    return {v.x, v.y, v.z};
}

// Partial sums of i-particle i over j in [j0, j1): part[slice * ni + i] = (acc, pot), (jerk, r2min),
// (snap, id of the nearest). A j with the i's id is skipped; ties of distance keep the lower address.
__global__ void __launch_bounds__(kS6Block)
    s6_force(S6Particles j, int nj, int chunk, S6Particles in, int ni, Quad* pa, Quad* pj, Quad* ps) {
    __shared__ Quad s_pm[kS6Block], s_vid[kS6Block], s_acc[kS6Block];
    const int i = blockIdx.x * kS6Block + threadIdx.x;
    const int j0 = blockIdx.y * chunk, j1 = min(nj, j0 + chunk);
    const Quad xe = i < ni ? in.pm[i] : Quad{0, 0, 0, 1};
    const Quad vid = i < ni ? in.vid[i] : Quad{0, 0, 0, 0};
    const D3 xi = d3(xe), vi = d3(vid), ai = i < ni ? d3(in.acc[i]) : D3{0, 0, 0};
    hermite6::Force6 f = hermite6::zero_force6();
    double r2min = HUGE_VAL, nearest = -1;
    for (int base = j0; base < j1; base += kS6Block) {
        const int load = base + int(threadIdx.x);
        if (load < j1)
            s_pm[threadIdx.x] = j.pm[load], s_vid[threadIdx.x] = j.vid[load],
            s_acc[threadIdx.x] = j.acc[load];
        __syncthreads();
        const int count = min(kS6Block, j1 - base);
        for (int k = 0; k < count; ++k) {
            const Quad pm = s_pm[k], jv = s_vid[k];
            if (jv.w == vid.w) continue;  // the self term, by id
            const D3 dr = d3(pm) - xi;
            hermite6::add_pair6(dr, d3(jv) - vi, d3(s_acc[k]) - ai, pm.w, xe.w, f);
            const double d2 = hermite6::dot(dr, dr);
            if (d2 < r2min) r2min = d2, nearest = jv.w;
        }
        __syncthreads();
    }
    if (i >= ni) return;
    const std::size_t o = std::size_t(blockIdx.y) * ni + i;
    pa[o] = Quad{f.acc.x, f.acc.y, f.acc.z, f.pot};
    pj[o] = Quad{f.jerk.x, f.jerk.y, f.jerk.z, r2min};
    ps[o] = Quad{f.snap.x, f.snap.y, f.snap.z, nearest};
}

// out[i] = acc (3), jerk (3), snap (3), pot, r2min, nearest id: the slices added in order.
__global__ void s6_reduce(const Quad* pa, const Quad* pj, const Quad* ps, int slices, int ni, double* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ni) return;
    double v[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, HUGE_VAL, -1};
    for (int s = 0; s < slices; ++s) {
        const std::size_t o = std::size_t(s) * ni + i;
        const Quad a = pa[o], j = pj[o], n = ps[o];
        v[0] += a.x, v[1] += a.y, v[2] += a.z, v[9] += a.w;
        v[3] += j.x, v[4] += j.y, v[5] += j.z;
        v[6] += n.x, v[7] += n.y, v[8] += n.z;
        if (j.w < v[10]) v[10] = j.w, v[11] = n.w;
    }
    for (int k = 0; k < 12; ++k) out[std::size_t(i) * 12 + k] = v[k];
}

class Sapporo6CudaImpl final : public Sapporo6Cuda {
  public:
    Sapporo6CudaImpl(int device, int npipes) : m_dev(device), m_npipes(npipes) {
        NBODY_CUDA_CHECK(cudaSetDevice(device));
        int sms = 1, resident = 1;
        NBODY_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, s6_force, kS6Block, 0));
        m_wave = std::max(1, sms) * std::max(1, resident);
        const std::size_t ni_pad = std::size_t((npipes + kS6Block - 1) / kS6Block) * kS6Block;
        m_ibuf = DeviceBuffer::alloc(device, ni_pad * 3 * sizeof(Quad), "sapporo6 i-batch");
        // slices x ni <= (wave / iblocks + 1) x iblocks x 128 <= (wave + iblocks) x 128 partial records
        const std::size_t parts = (std::size_t(m_wave) + ni_pad / kS6Block) * kS6Block;
        m_part = DeviceBuffer::alloc(device, parts * 3 * sizeof(Quad), "sapporo6 partial sums");
        m_parts = parts;
        m_out = DeviceBuffer::alloc(device, ni_pad * 12 * sizeof(double), "sapporo6 results");
        m_host_i.resize(ni_pad * 12);
        m_host_out.resize(ni_pad * 12);
    }

    void set_j(const sapporo6::PredictedJ& j, int nj, std::uint64_t version) override {
        if (nj == m_nj && version == m_version) return;
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
        if (std::size_t(nj) > m_jcap) {
            m_jcap = std::max<std::size_t>(std::size_t(nj), 2 * m_jcap);
            m_jbuf = DeviceBuffer::alloc(m_dev, m_jcap * 3 * sizeof(Quad), "sapporo6 j-particles");
        }
        m_host_j.resize(std::size_t(nj) * 12);
        for (std::size_t k = 0; k < std::size_t(nj); ++k) {
            double* p = &m_host_j[k * 4];
            p[0] = j.pos[k].x, p[1] = j.pos[k].y, p[2] = j.pos[k].z, p[3] = j.mass[k];
            double* v = &m_host_j[(std::size_t(nj) + k) * 4];
            v[0] = j.vel[k].x, v[1] = j.vel[k].y, v[2] = j.vel[k].z, v[3] = double(j.id[k]);
            double* a = &m_host_j[(2 * std::size_t(nj) + k) * 4];
            a[0] = j.acc[k].x, a[1] = j.acc[k].y, a[2] = j.acc[k].z, a[3] = 0;
        }
        const S6Particles d = particles(m_jbuf, m_jcap);
        const std::size_t bytes = std::size_t(nj) * sizeof(Quad);
        NBODY_CUDA_CHECK(cudaMemcpy(d.pm, m_host_j.data(), bytes, cudaMemcpyHostToDevice));
        NBODY_CUDA_CHECK(
            cudaMemcpy(d.vid, m_host_j.data() + 4 * std::size_t(nj), bytes, cudaMemcpyHostToDevice));
        NBODY_CUDA_CHECK(
            cudaMemcpy(d.acc, m_host_j.data() + 8 * std::size_t(nj), bytes, cudaMemcpyHostToDevice));
        m_nj = nj, m_version = version;
    }

    void forces(int nj, const sapporo6::IBatch& in, int i0, int n, const sapporo6::IResult& out) override {
        NBODY_CUDA_CHECK(cudaSetDevice(m_dev));
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
        NBODY_CUDA_CHECK(cudaMemcpy(m_ibuf.get(), m_host_i.data(), m_host_i.size() * sizeof(double),
                                    cudaMemcpyHostToDevice));
        const int iblocks = (n + kS6Block - 1) / kS6Block;
        const int tiles = (nj + kS6Block - 1) / kS6Block;
        // Enough j-slices to fill one wave of blocks; each a whole number of tiles.
        int slices = std::clamp((m_wave + iblocks - 1) / iblocks, 1, std::max(1, tiles));
        const int chunk = ((tiles + slices - 1) / slices) * kS6Block;
        slices = std::max(1, (nj + chunk - 1) / chunk);
        Quad* pa = m_part.as<Quad>();
        Quad *pj = pa + m_parts, *ps = pj + m_parts;
        s6_force<<<dim3(unsigned(iblocks), unsigned(slices)), kS6Block>>>(
            particles(m_jbuf, m_jcap), nj, chunk, particles(m_ibuf, ni_pad), n, pa, pj, ps);
        NBODY_CUDA_CHECK_LAUNCH("s6_force");
        s6_reduce<<<unsigned(iblocks), kS6Block>>>(pa, pj, ps, slices, n, m_out.as<double>());
        NBODY_CUDA_CHECK_LAUNCH("s6_reduce");
        NBODY_CUDA_CHECK(cudaMemcpy(m_host_out.data(), m_out.get(), std::size_t(n) * 12 * sizeof(double),
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
    int m_dev, m_npipes, m_wave = 1;
    int m_nj = -1;
    std::uint64_t m_version = 0;
    std::size_t m_jcap = 0, m_parts = 0;
    DeviceBuffer m_jbuf, m_ibuf, m_part, m_out;
    std::vector<double> m_host_j, m_host_i, m_host_out;
};

}  // namespace

}  // namespace nbody::kernels

namespace nbody {

std::unique_ptr<Sapporo6Cuda> Sapporo6Cuda::create(int ordinal, int npipes, std::string* why) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError();
        if (why) *why = "no CUDA device";
        return nullptr;
    }
    if (ordinal < 0 || ordinal >= count) {
        if (why)
            *why = "CUDA device " + std::to_string(ordinal) + " does not exist (" + std::to_string(count) +
                   " present)";
        return nullptr;
    }
    try {
        return std::make_unique<kernels::Sapporo6CudaImpl>(ordinal, npipes);
    } catch (const std::exception& e) {
        if (why) *why = e.what();
        return nullptr;
    }
}

}  // namespace nbody
