// LeapfrogEngine, stepping: buffers, the state's upload and priming, one step on every part with the exchange
// between parts, and the CUDA graph of kGraphSteps steps on one GPU.
#include <algorithm>
#include <cstring>

#include "common/graph_capture.cuh"
#include "core/errors.hpp"
#include "cpu/force_f32.hpp"
#include "leapfrog/leapfrog_engine.cuh"

namespace nbody::kernels {

using namespace leapfrog;

void LeapfrogEngine::drop_graph() {
    if (m_graph) cudaGraphExecDestroy(m_graph);
    m_graph = nullptr;
}

void LeapfrogEngine::allocate(std::size_t n, Precision prec) {
    const std::size_t bb = wide(prec) ? sizeof(Dbl4) : sizeof(float4);
    m_buf.resize(m_dev.size());
    for (std::size_t k = 0; k < m_dev.size(); ++k) {
        const int d = m_dev.parts()[k].device;
        PartBuffers& b = m_buf[k];
        for (int c = 0; c < 2; ++c) {
            // kPairsMaxStrip zeroed (massless) bodies past the last one: the pairs kernel reads whole strips.
            b.pos[c] = DeviceBuffer::alloc(d, (n + kPairsMaxStrip) * bb, "positions");
            NBODY_CUDA_CHECK(cudaSetDevice(d));
            // On the part's stream, the one the upload that follows uses: a plain cudaMemset runs on the legacy
            // stream, which the non-blocking part streams do not wait for, and could land after the upload (it did
            // when another process kept the GPU busy: zeroed positions, wrong forces).
            NBODY_CUDA_CHECK(cudaMemsetAsync(b.pos[c].get(), 0, b.pos[c].bytes(), m_dev.parts()[k].stream));
            if (prec == Precision::DS) {
                b.hi[c] = DeviceBuffer::alloc(d, n * sizeof(float4), "double-single positions");
                b.lo[c] = DeviceBuffer::alloc(d, n * sizeof(float4), "double-single positions");
            }
        }
        b.vel = DeviceBuffer::alloc(d, n * bb, "velocities");
        b.acc = DeviceBuffer::alloc(d, n * bb, "accelerations");
    }
}

StepArgs LeapfrogEngine::args(std::size_t k, bool prime) const {
    const PartBuffers& b = m_buf[k];
    const LaunchPlan& pl = m_plans[k];
    // prime: forces at x_n = pos[cur], predicted x_{n+1} into pos[1 - cur].
    // step:  forces at x_{n+1} = pos[1 - cur], x_{n+2} into pos[cur].
    const int in = prime ? m_cur : 1 - m_cur, out = 1 - in;
    StepArgs a{};
    a.in = {b.pos[in].get(), b.hi[in].as<float4>(), b.lo[in].as<float4>()};
    a.pos_out = b.pos[out].get();
    a.hi_out = b.hi[out].as<float4>();
    a.lo_out = b.lo[out].as<float4>();
    a.vel = b.vel.get();
    a.acc = b.acc.get();
    a.partial = b.partial.get();
    a.counters = b.counters.as<unsigned>();
    a.n = static_cast<int>(m_n);
    a.i_begin = static_cast<int>(m_ranges[k].begin);
    a.i_end = static_cast<int>(m_ranges[k].end);
    a.q = pl.q;
    a.splits = pl.splits;
    a.chunk = static_cast<int>(pl.chunk);
    a.tile = pl.tile;
    a.band = pl.band;
    a.band_begin = 0, a.band_end = pl.chunk;
    a.groups = static_cast<int>(pairs_group_count());
    for (std::size_t g = 0; g < m_group_ends.size(); ++g) a.group_ends[g] = static_cast<int>(m_group_ends[g]);
    a.group_first = 0, a.group_last = a.groups;
    if (pairs_over_parts()) {
        pairs_part_groups(static_cast<int>(k), static_cast<int>(m_dev.size()), a.groups, a.group_first, a.group_last);
        a.group_out = b.groups.as<float4>();
    }
    a.soft2 = static_cast<float>(m_params.eps * m_params.eps) + kSelfInteractionFloor;
    a.soft2_d = m_params.eps * m_params.eps + static_cast<double>(kSelfInteractionFloor);
    a.G = m_params.G;
    a.half_dt = 0.5 * m_params.dt;
    a.dt = m_params.dt;
    a.prime = prime;
    return a;
}

// Part `from` copies the bodies it just updated into every other part's buffers, on its own stream after
// its kernel; each other part waits for that (DeviceSet::wait_for_peers) before it reads them.
void LeapfrogEngine::exchange(std::size_t from, bool prime) {
    const int out = prime ? 1 - m_cur : m_cur;
    const DevicePart& src = m_dev.parts()[from];
    const std::size_t first = m_ranges[from].begin, count = m_ranges[from].size();
    for (std::size_t to = 0; to < m_dev.size(); ++to) {
        if (to == from || count == 0) continue;
        const DevicePart& dst = m_dev.parts()[to];
        auto copy = [&](const DeviceBuffer& s, const DeviceBuffer& d, std::size_t bytes) {
            NBODY_CUDA_CHECK(cudaMemcpyPeerAsync(static_cast<char*>(d.get()) + offset(first, bytes), dst.device,
                                                 static_cast<const char*>(s.get()) + offset(first, bytes), src.device,
                                                 count * bytes, src.stream));
        };
        copy(m_buf[from].pos[out], m_buf[to].pos[out], body_bytes());
        if (m_prec == Precision::DS) {
            copy(m_buf[from].hi[out], m_buf[to].hi[out], sizeof(float4));
            copy(m_buf[from].lo[out], m_buf[to].lo[out], sizeof(float4));
        }
    }
}

// After part k's forces and update: its new positions to the other parts, timed where there are several (one
// GPU: the steps run in a graph, timed as a whole).
void LeapfrogEngine::send_positions(std::size_t k, bool prime) {
    const DevicePart& part = m_dev.parts()[k];
    const bool timed = m_dev.size() > 1;
    if (timed) NBODY_CUDA_CHECK(cudaEventRecord(part.t_kernel, part.stream));
    exchange(k, prime);
    if (timed) {
        NBODY_CUDA_CHECK(cudaEventRecord(part.t_copied, part.stream));
        NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
    }
}

// Pairs on several parts, after part `from`'s groups: their sums on each other part's bodies go to that part
// ([group][own bodies] after its own groups' sums in PartBuffers::groups).
void LeapfrogEngine::send_group_sums(std::size_t from) {
    int first = 0, last = 0;
    pairs_part_groups(static_cast<int>(from), static_cast<int>(m_dev.size()), static_cast<int>(pairs_group_count()), first,
                      last);
    const DevicePart& src = m_dev.parts()[from];
    const std::size_t all = static_cast<std::size_t>(m_plans[from].chunk) * static_cast<std::size_t>(m_plans[from].tile);
    for (std::size_t to = 0; to < m_dev.size(); ++to) {
        const std::size_t own = m_ranges[to].size();
        if (to == from || own == 0) continue;
        const DevicePart& dst = m_dev.parts()[to];
        for (int g = first; g < last; ++g) {
            const float4* s = m_buf[from].groups.as<float4>() + static_cast<std::size_t>(g - first) * all + m_ranges[to].begin;
            float4* d = pairs_received(to) + static_cast<std::size_t>(g) * own;
            NBODY_CUDA_CHECK(cudaMemcpyPeerAsync(d, dst.device, s, src.device, own * sizeof(float4), src.stream));
        }
    }
}

float4* LeapfrogEngine::pairs_received(std::size_t k) const {
    const std::size_t out = pairs_out_groups(pairs_group_count(), m_dev.size()) *
                            static_cast<std::size_t>(m_plans[k].chunk) * static_cast<std::size_t>(m_plans[k].tile);
    return m_buf[k].groups.as<float4>() + out;  // after the part's own groups' sums
}

void LeapfrogEngine::launch(bool prime) {
    if (m_n == 0) return;
    m_dev.wait_for_peers();
    const bool reduce = pairs_over_parts();
    for_each_part(m_dev, [&](DevicePart& part, std::size_t k) {
        const LaunchPlan& pl = m_plans[k];
        if (m_dev.size() > 1) NBODY_CUDA_CHECK(cudaEventRecord(part.t_start, part.stream));  // as send_positions
        if (pl.blocks > 0) {
            const dim3 grid(static_cast<unsigned>(pl.blocks), static_cast<unsigned>(pl.splits));
            const dim3 block(static_cast<unsigned>(pl.block));
            // Tiled or not; pairs: the tiles, then each body's sums and the update (on several parts: this part's
            // groups' sums, below); tensor: the sort, then its step.
            m_kernel->launcher_for(pl)(grid, block, static_cast<size_t>(pl.shared_bytes), part.stream, args(k, prime),
                                       m_scratch.empty() ? nullptr : m_scratch[k].get());
            NBODY_CUDA_CHECK_LAUNCH(prime ? "step_kernel (prime)" : "step_kernel");
        }
        if (reduce) {
            send_group_sums(k);
            NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
        } else {
            send_positions(k, prime);
        }
    });
    if (reduce) {
        // Every part's group sums have landed (each part waits for the others' copies): each adds its bodies'
        // groups in order, updates them, and sends the new positions out.
        m_dev.wait_for_peers();
        for_each_part(m_dev, [&](DevicePart& part, std::size_t k) {
            launch_pairs_combine(args(k, prime), pairs_received(k), part.stream);
            send_positions(k, prime);
        });
    }
    if (!prime) m_cur = 1 - m_cur;
}

void LeapfrogEngine::build_graph() {
    m_graph = capture_graph(m_dev.parts().front().stream, [&] {
        for (int k = 0; k < kGraphSteps; ++k) launch(false);
    });
}

void LeapfrogEngine::reset(const State& s, const SimParams& p) {
    m_n = s.size();
    m_params = p;
    m_prec = p.precision;
    // This rank's bodies (all N without ranks) over its GPUs; the other ranks' arrive through gather_over_ranks.
    const IndexRange own = m_partition.gather ? checked_range(m_partition.begin, m_partition.end, m_n) : IndexRange{0, m_n};
    m_ranges = split_ranges(own.size(), static_cast<int>(m_dev.size()));
    for (IndexRange& r : m_ranges) r.begin += own.begin, r.end += own.begin;
    Config c = configure(p);  // may throw: this engine is then dropped, the running one kept
    allocate(m_n, m_prec);
    commit(std::move(c));
    m_cur = 0;
    const std::size_t n = m_n;
    // The float32 kernels take the float64 host state rounded; ds and fp64 keep it whole (Double4 and Dbl4
    // share their layout).
    std::vector<Float4> pos32, vel32;
    std::vector<Float4> hi, lo;
    if (!wide(m_prec)) {
        pos32.resize(n), vel32.resize(n);
        for (std::size_t i = 0; i < n; ++i) pos32[i] = to_float4(s.pos_mass[i]), vel32[i] = to_float4(s.vel[i]);
    } else if (m_prec == Precision::DS) {
        hi.resize(n), lo.resize(n);
        for (std::size_t i = 0; i < n; ++i) split_ds(s.pos_mass[i], hi[i], lo[i]);
    }
    const void* pos_src = wide(m_prec) ? static_cast<const void*>(s.pos_mass.data()) : pos32.data();
    const void* vel_src = wide(m_prec) ? static_cast<const void*>(s.vel.data()) : vel32.data();
    for_each_part(m_dev, [&](const DevicePart& part, std::size_t k) {
        PartBuffers& b = m_buf[k];
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.pos[0].get(), pos_src, n * body_bytes(), cudaMemcpyHostToDevice, part.stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(b.vel.get(), vel_src, n * body_bytes(), cudaMemcpyHostToDevice, part.stream));
        if (m_prec == Precision::DS) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b.hi[0].get(), hi.data(), n * sizeof(float4), cudaMemcpyHostToDevice, part.stream));
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b.lo[0].get(), lo.data(), n * sizeof(float4), cudaMemcpyHostToDevice, part.stream));
        }
        NBODY_CUDA_CHECK(cudaEventRecord(part.done, part.stream));
    });
    m_group = s.group;
    m_time = s.time;
    m_steps = 0;
    launch(true);
    if (m_partition.gather) gather_over_ranks();  // every rank's predicted positions, before the first step
    m_dev.synchronize();  // the host arrays above go out of scope
}

void LeapfrogEngine::set_params(const SimParams& p) {
    const SimParams old = m_params;
    if (p.kernel_auto != old.kernel_auto || p.variant != old.variant || p.shape != old.shape)
        commit(configure(p));  // all or nothing
    m_params = p;
    // The predicted positions depend on dt and the stored accelerations on eps and G: re-prime.
    if (p.dt != old.dt || p.eps != old.eps || p.G != old.G) {
        drop_graph();
        launch(true);
        if (m_partition.gather) gather_over_ranks();  // every rank re-primes: DistributedBackend forwards to all
    }
}

void LeapfrogEngine::step(int k) {
    const bool graphs = m_dev.size() == 1 && !m_partition.gather;
    while (k > 0) {
        if (graphs && m_cur == 0 && k >= kGraphSteps) {
            if (!m_graph) build_graph();  // capture records launches without running them; m_cur is back at 0
            NBODY_CUDA_CHECK(cudaSetDevice(m_dev.parts().front().device));
            NBODY_CUDA_CHECK(cudaGraphLaunch(m_graph, m_dev.parts().front().stream));
            k -= kGraphSteps;
            m_steps += kGraphSteps;
            for (int i = 0; i < kGraphSteps; ++i) m_time += m_params.dt;  // as the single steps add it
        } else {
            launch(false);
            if (m_partition.gather) gather_over_ranks();
            --k;
            ++m_steps;
            m_time += m_params.dt;
        }
    }
}

}  // namespace nbody::kernels
