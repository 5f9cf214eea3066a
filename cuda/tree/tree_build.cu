// The GPU tree's build: bounding box (a two-pass reduction, spatial/bounding_box.cuh), 63-bit keys, the
// radix sort of (key, body) (spatial/key_sort.cuh), the bodies gathered into key order, then the octree,
// every level at once (tree_build_levels.cu), and the multipoles (tree_multipoles.cu).
#include <chrono>
#include <cmath>

#include "core/tree/morton.hpp"
#include "core/tree/multipoles.hpp"
#include "spatial/bounding_box.cuh"
#include "tree/gpu_tree_impl.cuh"

namespace nbody {

namespace {

using kernels::kBoxThreads;

// The bounding box's first pass (spatial/bounding_box.cuh): partial[2b] = lo and partial[2b + 1] = hi of
// block b's bodies.
__global__ void __launch_bounds__(kBoxThreads) box_partials_kernel(const float4* pos, int n, float4* partial) {
    kernels::block_bounds(
        pos, n,
        [&](const float lo[3], const float hi[3]) {
            partial[2 * blockIdx.x] = make_float4(lo[0], lo[1], lo[2], 0.f);
            partial[2 * blockIdx.x + 1] = make_float4(hi[0], hi[1], hi[2], 0.f);
        },
        int(blockIdx.x) * kBoxThreads, int(gridDim.x) * kBoxThreads);
}

// One block over the first pass's (lo, hi) pairs: min and max of every coordinate (exact in float32), then
// the key cube from them.
__global__ void __launch_bounds__(kBoxThreads) tree_box_kernel(const float4* pos, int n, tree::KeyBox* box) {
    kernels::block_bounds(pos, n, [&](const float lo[3], const float hi[3]) {
        *box = tree::key_box_from_bounds(lo, hi);
    });
}

__global__ void tree_keys_kernel(const float4* pos, int n, const tree::KeyBox* box, uint64_t* keys,
                                 uint32_t* order, uint64_t keep) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 p = pos[i];
    keys[i] = tree::body_key(p.x, p.y, p.z, *box) & keep;
    order[i] = static_cast<uint32_t>(i);
}

__global__ void tree_gather_kernel(const float4* pos, const uint32_t* order, int n, float4* body) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= n) return;
    body[k] = pos[order[k]];
}

}  // namespace

GpuTree::GpuTree(int device) : GpuTree(device, nullptr) {}

GpuTree::GpuTree(int device, void* stream) : m(std::make_unique<Impl>()) {
    m->device = device;
    NBODY_CUDA_CHECK(cudaSetDevice(device));
    m->owns_stream = stream == nullptr;
    if (m->owns_stream)
        NBODY_CUDA_CHECK(cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking));
    else
        m->stream = static_cast<cudaStream_t>(stream);
    m->box = kernels::DeviceBuffer::alloc(device, sizeof(tree::KeyBox), "tree key box");
    m->box_partials =
        kernels::DeviceBuffer::alloc(device, 2 * kernels::kBoxPartials * sizeof(float4), "tree box partials");
    m->host_words = kernels::Pinned<uint32_t>(Impl::kHostWords);
}

GpuTree::~GpuTree() {
    if (m && m->stream && m->owns_stream) cudaStreamDestroy(m->stream);
}

void GpuTree::Impl::reserve_bodies(std::size_t count) {
    if (count <= capacity || count == 0) return;
    input = kernels::DeviceBuffer::alloc(device, count * sizeof(float4), "tree bodies");
    sorted.reserve(device, count, 3 * tree::kKeyBits, "tree keys", "tree order", "tree sort scratch");
    bodies = kernels::DeviceBuffer::alloc(device, count * sizeof(float4), "tree bodies in key order");
    capacity = count;
}

// Grows the cell arrays (keeping the cells built so far; the moments are computed after the build); amortised
// by doubling.
void GpuTree::Impl::reserve_cells(std::size_t count) {
    if (count <= cell_capacity) return;
    const std::size_t want = std::max(count, 2 * cell_capacity);
    kernels::DeviceBuffer grown =
        kernels::DeviceBuffer::alloc(device, want * sizeof(tree::TreeCell), "tree cells");
    if (cells)
        NBODY_CUDA_CHECK(cudaMemcpyAsync(grown.get(), tree_cells.get(), cells * sizeof(tree::TreeCell),
                                         cudaMemcpyDeviceToDevice, stream));
    tree_cells = std::move(grown);
    moments_d = kernels::DeviceBuffer::alloc(device, want * sizeof(tree::MomentsD), "tree moments (double)");
    moments = kernels::DeviceBuffer::alloc(device, want * sizeof(tree::CellMoments), "tree moments");
    cell_parent = kernels::DeviceBuffer::alloc(device, want * sizeof(uint32_t), "tree cell parents");
    cell_arrivals = kernels::DeviceBuffer::alloc(device, want * sizeof(uint32_t), "tree multipole arrivals");
    cell_capacity = want;
}

void GpuTree::Impl::bounding_box() {
    const int ni = static_cast<int>(n);
    const int blocks = kernels::box_blocks(ni);
    box_partials_kernel<<<blocks, kBoxThreads, 0, stream>>>(input.as<const float4>(), ni,
                                                                      box_partials.as<float4>());
    NBODY_CUDA_CHECK_LAUNCH("box_partials_kernel");
    tree_box_kernel<<<1, kBoxThreads, 0, stream>>>(box_partials.as<const float4>(), 2 * blocks,
                                                   box.as<tree::KeyBox>());
    NBODY_CUDA_CHECK_LAUNCH("tree_box_kernel");
}

// Short keys (tree_defs.hpp) keep their top 48 bits.
void GpuTree::Impl::keys(bool short_keys) {
    tree_keys_kernel<<<grid_for(n, 256), 256, 0, stream>>>(input.as<const float4>(), static_cast<int>(n),
                                                           box.as<const tree::KeyBox>(),
                                                           sorted.keys_in(), sorted.index_in(),
                                                           short_keys ? tree::kShortKeyMask : ~uint64_t(0));
    NBODY_CUDA_CHECK_LAUNCH("tree_keys_kernel");
}

// Stable radix sort of (key, body) on the 63 key bits, or short keys' top 48: ties keep input order, as the
// CPU tree's sort.
void GpuTree::Impl::sort(bool short_keys) {
    sorted.enqueue(static_cast<int>(n), 3 * tree::kKeyBits, stream, short_keys ? tree::kShortKeyLowBit : 0);
    tree_gather_kernel<<<grid_for(n, 256), 256, 0, stream>>>(
        input.as<const float4>(), sorted.order(), static_cast<int>(n), bodies.as<float4>());
    NBODY_CUDA_CHECK_LAUNCH("tree_gather_kernel");
}

// Stage times from events recorded between the stages, read after the walk (read_stage_times): besides the
// octree's one synchronisation (build_levels) the build keeps the host waiting nowhere.
void GpuTree::Impl::build_from_input(const TreeParams& p, TreeStats& s) {
    s.bodies = n;
    stage_events.create();
    cudaEvent_t* at = stage_events.at;
    NBODY_CUDA_CHECK(cudaEventRecord(at[0], stream));
    bounding_box();
    // Short keys or full keys, as the rule in tree_defs.hpp settles it; where the first guess was not the
    // rule's tree the keys' time holds the first build and the other stages are the second's.
    tree::build_settled(short_keys, [&](bool short_now) {
        keys(short_now);
        NBODY_CUDA_CHECK(cudaEventRecord(at[1], stream));
        sort(short_now);
        NBODY_CUDA_CHECK(cudaEventRecord(at[2], stream));
        build_levels(p.leaf);  // waits for the level table: the depth is known here
        NBODY_CUDA_CHECK(cudaEventRecord(at[3], stream));
        return static_cast<int>(level_start.size()) - 2;
    });
    compute_moments(p.open_all ? HUGE_VAL : 1.0 / double(p.theta), p.alpha);
    NBODY_CUDA_CHECK(cudaEventRecord(at[4], stream));
    s.cells = cells;
    s.depth = static_cast<int>(level_start.size()) - 2;
}

void GpuTree::Impl::refit(const float4* pos, const TreeParams& p, TreeStats& s) {
    s.bodies = n;
    stage_events.create();
    cudaEvent_t* at = stage_events.at;
    for (int k = 0; k < 4; ++k) NBODY_CUDA_CHECK(cudaEventRecord(at[k], stream));  // no keys, sort or build
    tree_gather_kernel<<<grid_for(n, 256), 256, 0, stream>>>(pos, sorted.order(), static_cast<int>(n),
                                                             bodies.as<float4>());
    NBODY_CUDA_CHECK_LAUNCH("tree_gather_kernel");
    // the multipoles count their children in as the link pass left the counts: at zero
    NBODY_CUDA_CHECK(cudaMemsetAsync(cell_arrivals.get(), 0, cells * sizeof(uint32_t), stream));
    compute_moments(p.open_all ? HUGE_VAL : 1.0 / double(p.theta), p.alpha);
    NBODY_CUDA_CHECK(cudaEventRecord(at[4], stream));
    s.cells = cells;
    s.depth = static_cast<int>(level_start.size()) - 2;
    s.refitted = true;
}

void GpuTree::Impl::read_stage_times(TreeStats& s) {
    const cudaEvent_t* at = stage_events.at;
    NBODY_CUDA_CHECK(cudaEventSynchronize(at[4]));
    double* stage[] = {&s.t_keys, &s.t_sort, &s.t_build, &s.t_multipoles};
    for (int k = 0; k < 4; ++k) {
        float ms = 0;
        NBODY_CUDA_CHECK(cudaEventElapsedTime(&ms, at[k], at[k + 1]));
        *stage[k] = 1e-3 * double(ms);
    }
}

// Forgets the last tree and makes room for n bodies.
void GpuTree::Impl::start(std::size_t count, const TreeParams& p) {
    p.validate();
    NBODY_CUDA_CHECK(cudaSetDevice(device));
    if (count != n) costs_known = false;  // other bodies: the walk's cost estimates are not theirs
    n = count;
    cells = 0;
    groups = 0;
    grouped_leaf = grouped_size = 0;
    level_start.clear();
    reserve_bodies(count);
}

void GpuTree::build(const Float4* pos_mass, std::size_t n, const TreeParams& p, TreeStats* st) {
    m->start(n, p);
    TreeStats s;
    if (n > 0) {
        NBODY_CUDA_CHECK(
            cudaMemcpyAsync(m->input.get(), pos_mass, n * sizeof(float4), cudaMemcpyHostToDevice, m->stream));
        m->build_from_input(p, s);
        m->read_stage_times(s);
    }
    if (st) *st = s;
}

void GpuTree::evaluate_device(const void* d_pos_mass, std::size_t n, const TreeParams& p, double eps,
                              void* d_acc, TreeStats* st, bool acc_holds_last, const uint8_t* d_active,
                              bool may_refit, const WalkShare* share) {
    const bool refit = may_refit && d_active && m->can_refit(n, p);
    if (refit) {
        p.validate();
        NBODY_CUDA_CHECK(cudaSetDevice(m->device));
    } else {
        m->start(n, p);
    }
    TreeStats s;
    if (n > 0) {
        if (refit) {
            m->refit(static_cast<const float4*>(d_pos_mass), p, s);
        } else {
            if (d_pos_mass != m->input.get())
                NBODY_CUDA_CHECK(cudaMemcpyAsync(m->input.get(), d_pos_mass, n * sizeof(float4),
                                                 cudaMemcpyDeviceToDevice, m->stream));
            m->build_from_input(p, s);
        }
        if (!acc_holds_last) m->costs_known = false;  // acc holds no last walk's costs either (walk_cost)
        const float soft2 = tree::softening2(eps);  // as CpuTree::run
        float4* acc = static_cast<float4*>(d_acc);
        const auto t0 = std::chrono::steady_clock::now();  // host clock: the walk ends on the host's wait
        if (!refit) {  // a refit keeps the last tree's groups
            m->make_groups(uint32_t(p.group));
            m->grouped_leaf = p.leaf, m->grouped_size = p.group;
        }
        const bool criterion = p.reads_last_accelerations();
        // the accelerations it needs (a share's own: its groups read only their bodies')
        if (criterion && !acc_holds_last) m->walk(p, soft2, acc, s, false, nullptr, share);
        m->walk(p, soft2, acc, s, criterion, d_active, share);
        s.t_walk = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();  // groups included
        m->read_stage_times(s);  // the walk has waited for the stream: no wait here
    }
    if (st) *st = s;
}

void GpuTree::evaluate(const Float4* pos_mass, std::size_t n, const TreeParams& p, double eps, Float4* acc,
                       TreeStats* st, bool acc_holds_last) {
    if (n == 0) return evaluate_device(nullptr, 0, p, eps, nullptr, st);
    NBODY_CUDA_CHECK(cudaSetDevice(m->device));
    if (m->host_acc.bytes() < n * sizeof(float4))
        m->host_acc = kernels::DeviceBuffer::alloc(m->device, n * sizeof(float4), "tree accelerations");
    m->reserve_bodies(n);
    // The bodies go straight into the tree's input buffer; evaluate_device's copy onto itself is skipped.
    NBODY_CUDA_CHECK(
        cudaMemcpyAsync(m->input.get(), pos_mass, n * sizeof(float4), cudaMemcpyHostToDevice, m->stream));
    if (acc_holds_last)
        NBODY_CUDA_CHECK(
            cudaMemcpyAsync(m->host_acc.get(), acc, n * sizeof(float4), cudaMemcpyHostToDevice, m->stream));
    evaluate_device(m->input.get(), n, p, eps, m->host_acc.get(), st, acc_holds_last);
    NBODY_CUDA_CHECK(cudaMemcpy(acc, m->host_acc.get(), n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n; ++i) acc[i].w = 0;  // the device's w is the walk's cost estimate (walk_cost)
}

namespace {
template <class T>
std::vector<T> download(const void* src, std::size_t count) {
    std::vector<T> out(count);
    if (count) NBODY_CUDA_CHECK(cudaMemcpy(out.data(), src, count * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
}
}  // namespace

KeyRun GpuTree::walked_run() const { return m->run; }
const uint32_t* GpuTree::device_order() const { return m->sorted.order(); }

std::vector<tree::TreeCell> GpuTree::cells() const {
    return download<tree::TreeCell>(m->tree_cells.get(), m->cells);
}
std::vector<tree::TreeCell> GpuTree::cells_to_depth(int depth) const {
    // level_start holds the first cell of each level and then one past the last cell: levels 0 .. depth end
    // where level depth + 1 starts (or at the last cell when the tree is shallower).
    if (depth < 0 || m->level_start.size() < 2) return {};
    const std::size_t levels = m->level_start.size() - 1;
    const std::size_t count = m->level_start[std::min(std::size_t(depth) + 1, levels)];
    return download<tree::TreeCell>(m->tree_cells.get(), count);
}
std::vector<tree::CellMoments> GpuTree::moments() const {
    return download<tree::CellMoments>(m->moments.get(), m->cells);
}
std::vector<uint64_t> GpuTree::keys() const {
    return download<uint64_t>(m->sorted.keys(), m->n);
}
std::vector<uint32_t> GpuTree::order() const {
    return download<uint32_t>(m->sorted.order(), m->n);
}
tree::KeyBox GpuTree::key_box() const {
    return download<tree::KeyBox>(m->box.get(), 1).at(0);
}

double GpuTree::bytes_per_body() const {
    if (m->n == 0) return 0;
    std::size_t bytes = m->input.bytes() + m->box.bytes() + m->box_partials.bytes() + m->sorted.bytes() +
                        m->scan_temp.bytes() + m->group_sort.bytes();
    for (const auto* v : {&m->bodies, &m->tree_cells, &m->cell_parent, &m->cell_arrivals,
                          &m->level_counts, &m->level_offsets, &m->moments_d, &m->moments, &m->stacks,
                          &m->walk_counters, &m->group_counts, &m->host_acc, &m->group_made, &m->group_offsets,
                          &m->group_list, &m->walk_list})
        bytes += v->bytes();
    return double(bytes) / double(m->n);
}

}  // namespace nbody
