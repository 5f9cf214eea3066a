// LeapfrogEngine, a distributed run: this rank's new positions out, every other rank's in, after each step.
#include "leapfrog/leapfrog_engine.cuh"

namespace nbody::kernels {

using namespace leapfrog;

// After a step (or the priming evaluation) of a distributed run: each part's new positions (its share of this rank's range) to the host
// as float64, the all-gather over ranks, and every other rank's bodies uploaded to every part. 16 or 32 bytes
// per body each way over PCIe; a CUDA-aware MPI could gather device buffers instead.
void LeapfrogEngine::gather_over_ranks() {
    // The copies below queue on each part's stream after its kernel; one wait after them. The positions the last launch wrote (a step's x_{n+2}, the prime's predicted x_{n+1}): pos[1 - cur], the
    // next step's input (args()).
    const int fresh = 1 - m_cur;
    const std::size_t n = m_n, bb = body_bytes(), pb = m_partition.begin, pe = m_partition.end;
    m_staging.resize(n * bb);
    m_all.resize(n);
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        const IndexRange r = m_ranges[k];
        NBODY_CUDA_CHECK(cudaMemcpyAsync(m_staging.data() + r.begin * bb,
                                         static_cast<const char*>(m_buf[k].pos[fresh].get()) + r.begin * bb,
                                         r.size() * bb, cudaMemcpyDeviceToHost, part.stream));
    });
    m_dev.synchronize();
    for (std::size_t i = pb; i < pe; ++i)
        m_all[i] = wide(m_prec) ? reinterpret_cast<const Double4*>(m_staging.data())[i]
                                : to_double4(reinterpret_cast<const Float4*>(m_staging.data())[i]);
    m_partition.gather(m_all);
    std::vector<Float4>& hi = m_staging_hi;
    std::vector<Float4>& lo = m_staging_lo;
    if (m_prec == Precision::DS) hi.resize(n), lo.resize(n);
    auto convert = [&](std::size_t i) {
        const Double4 d = m_all[i];
        if (wide(m_prec)) reinterpret_cast<Double4*>(m_staging.data())[i] = d;
        else reinterpret_cast<Float4*>(m_staging.data())[i] = to_float4(d);
        if (m_prec == Precision::DS) split_ds(d, hi[i], lo[i]);
    };
    for (std::size_t i = 0; i < pb; ++i) convert(i);
    for (std::size_t i = pe; i < n; ++i) convert(i);
    // On each part's own stream (created non-blocking: a plain cudaMemcpy on the default stream would not be
    // ordered before the next step's kernel), then waited for: the host buffers are reused.
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        PartBuffers& b = m_buf[k];
        auto upload = [&](const DeviceBuffer& d, const void* src, std::size_t first, std::size_t count, std::size_t w) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(static_cast<char*>(d.get()) + first * w,
                                             static_cast<const char*>(src) + first * w, count * w,
                                             cudaMemcpyHostToDevice, part.stream));
        };
        for (const IndexRange r : {IndexRange{0, pb}, IndexRange{pe, n}}) {
            if (r.size() == 0) continue;
            upload(b.pos[fresh], m_staging.data(), r.begin, r.size(), bb);
            if (m_prec != Precision::DS) continue;
            upload(b.hi[fresh], hi.data(), r.begin, r.size(), sizeof(float4));
            upload(b.lo[fresh], lo.data(), r.begin, r.size(), sizeof(float4));
        }
    });
    m_dev.synchronize();
}

}  // namespace nbody::kernels
