// The tree's leap-frog engine (tree_engine.cuh). The half kicks use the accelerations without G (the tree
// returns them so) times G dt / 2. Each step synchronises once per tree level (the build reads each level's
// child count back to size the next), so the engine steps synchronously rather than in CUDA graphs.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "core/errors.hpp"
#include "core/physics/hermite.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/integrator.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "core/tree/sub_step_rule.hpp"
#include "core/tree/tree_defs.hpp"
#include "tree/tree_engine.cuh"
#include "tree/tree_exchange.cuh"

namespace nbody::kernels {

namespace {

constexpr int kBlock = 256;

int blocks_for(std::size_t n) { return static_cast<int>((n + kBlock - 1) / kBlock); }

// v += kick a; x += dt v. 12 flops a body.
__global__ void tree_kick_drift_kernel(float4* __restrict__ pos, float4* __restrict__ vel,
                                       const float4* __restrict__ acc, int n, float kick, float dt) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = vel[i], x = pos[i];
    tree_kick(v, acc[i], kick);
    tree_drift(x, v, dt);
    vel[i] = v;
    pos[i] = x;
}

// v += kick a. 6 flops a body.
__global__ void tree_kick_kernel(float4* __restrict__ vel, const float4* __restrict__ acc, int n, float kick) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = vel[i];
    tree_kick(v, acc[i], kick);
    vel[i] = v;
}

// validate() (core/rows/param_checks.cpp) has checked the integrator, precision and tree parameters.
void check_runs(const SimParams& p) {
    validate(p);
    check_reach({"the tree engine", bit(Scheme::KickDriftKick) | bit(Scheme::KickDriftKickBlock),
                 bit(ForceMethod::Tree), bit(Precision::Fp32)},
                p);
}

// A block step shares out its walk when at least this fraction of the bodies is due: below it the walk is
// short against the build every part makes anyway, and walking every due group on every part needs no exchange.
constexpr std::size_t kSharedWalkFraction = 16;

}  // namespace

TreeEngine::TreeEngine(DeviceSet& devices)
    : m_dev(devices), m_workers(devices.size()), m_links(std::make_unique<RankLinks>()) {
    for (const DevicePart& part : devices.parts()) m_parts.push_back(std::make_unique<TreeReplica>(part));
}

TreeEngine::~TreeEngine() = default;

template <class Fn>
void TreeEngine::on_every_part(Fn&& fn) {
    const std::function<void(std::size_t)> each = [&](std::size_t k) {
        NBODY_CUDA_CHECK(cudaSetDevice(m_parts[k]->part->device));
        fn(*m_parts[k], k);
    };
    try {
        m_workers.run(each);
    } catch (...) {
        NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
        throw;
    }
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
}

void TreeEngine::reset(const State& s, const SimParams& p) {
    check_runs(p);
    m_n = s.size();
    m_params = p;
    m_group = s.group;
    m_time = s.time;
    m_steps = 0;
    m_work = {};
    m_shares = tree::WalkShares::even(m_n, sharers());
    const std::size_t bytes = std::max<std::size_t>(1, m_n) * sizeof(float4);
    std::vector<Float4> pos(m_n), vel(m_n);
    for (std::size_t i = 0; i < m_n; ++i) pos[i] = to_float4(s.pos_mass[i]), vel[i] = to_float4(s.vel[i]);
    for (auto& r : m_parts) {
        const DevicePart& part = *r->part;
        NBODY_CUDA_CHECK(cudaSetDevice(part.device));
        r->pos = DeviceBuffer::alloc(part.device, bytes, "tree positions");
        r->vel = DeviceBuffer::alloc(part.device, bytes, "tree velocities");
        r->acc = DeviceBuffer::alloc(part.device, bytes, "tree accelerations");
        // On the part's stream and waited for: a plain cudaMemcpy from pageable memory may return before its DMA
        // lands, and the non-blocking streams the tree works on do not wait for the legacy stream it runs on.
        NBODY_CUDA_CHECK(cudaMemcpyAsync(r->pos.get(), pos.data(), m_n * sizeof(float4), cudaMemcpyHostToDevice,
                                         part.stream));
        NBODY_CUDA_CHECK(cudaMemcpyAsync(r->vel.get(), vel.data(), m_n * sizeof(float4), cudaMemcpyHostToDevice,
                                         part.stream));
    }
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
    if (m_ranks.ranks > 1) m_links->link(front(), m_n, m_ranks);  // collective, as the reset is
    m_mirrored = decide_mirrors();
    m_acc_current = false;  // a new buffer: no last accelerations yet
    evaluate();
    m_refittable = true, m_refits = 0, m_direct_steps = 0;
    m_block = integrator_info(p.integrator).block_steps;
    m_sums = {};
    if (m_block)
        for (auto& r : m_parts) {
            NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
            r->clock.allocate(r->part->device, m_n);
            r->clock.start(r->bodies(m_n), rule(), r->part->stream);
        }
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
}

BlockRule TreeEngine::rule() const {
    return {m_params.G, m_params.eta, m_params.eps, hermite::floor_pow2(m_params.dt)};
}

void TreeEngine::set_params(const SimParams& p) {
    check_runs(p);
    if (integrator_info(p.integrator).block_steps != m_block)
        throw ParamError("integrator", "switching between shared and block steps restarts the run (a reset)");
    m_params = p;
    // eps or the tree's parameters may have changed; G and dt enter only the kicks (block steps: every body's
    // acceleration anew; the steps under way keep their lengths, the next ones follow the new eta and dt)
    evaluate();
}

bool TreeEngine::shares_walk(std::size_t active) const {
    return sharers() > 1 && active * kSharedWalkFraction >= m_n;
}

// The walks write their accelerations straight into the other parts' acceleration buffers where every part can
// reach every other's memory (peer access, or ranks linked on one host) and there are few enough of them.
// Decided at the reset, after the links. NBODY_TREE_EXCHANGE_COPY=1 keeps the parts' copy after the walk (an
// A/B of the two); ranks that are not linked go through the host.
bool TreeEngine::decide_mirrors() const {
    if (m_ranks.ranks > 1) return m_links->linked();
    if (std::getenv("NBODY_TREE_EXCHANGE_COPY")) return false;
    return m_dev.peer_access() && int(m_parts.size()) - 1 <= WalkShare::kMaxMirrors;
}

void TreeEngine::set_mirrors(WalkShare& share, std::size_t k) const {
    if (m_ranks.ranks > 1) return m_links->set_mirrors(share, m_ranks.rank);
    for (std::size_t o = 0; o < m_parts.size(); ++o)
        if (o != k) share.mirrors[share.mirror_count++] = m_parts[o]->acc.get();
}

bool TreeEngine::set_partition(const RangePartition& p) {
    if (m_parts.size() != 1 || !p.gather_runs || !p.values_of_ranks) return false;
    m_ranks = p;
    return true;
}

void TreeEngine::evaluate(bool block, bool may_refit) {
    if (m_n == 0) return;
    const std::size_t active = block ? m_last_active : m_n;
    const bool share = shares_walk(active);
    const bool mirrored = share && m_mirrored;
    if (mirrored && m_ranks.ranks == 1) {
        // Each part's walk writes into the others' accelerations: not before their kicks, which read them, have
        // ended (each stream waits for the others' work so far, and the tree's build and walk follow on it).
        for (auto& r : m_parts) {
            NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
            NBODY_CUDA_CHECK(cudaEventRecord(r->part->done, r->part->stream));
        }
        m_dev.wait_for_peers();
    }
    on_every_part([&](TreeReplica& r, std::size_t k) { walk_part(r, k, block, may_refit, share, mirrored); });
    after_walks(block, share, mirrored);
}

void TreeEngine::walk_part(TreeReplica& r, std::size_t k, bool block, bool may_refit, bool share, bool mirrored) {
    // The tree works on the part's stream, after its kicks and drift (and, mirrored on one host, the other
    // parts' kicks: evaluate). Over ranks the walk writes into the other ranks' accelerations: every rank's
    // kicks have ended first, which the host sees before the barrier.
    if (mirrored && m_ranks.ranks > 1) {
        NBODY_CUDA_CHECK(cudaStreamSynchronize(r.part->stream));
        m_ranks.values_of_ranks({0.0});
    }
    const std::size_t at = m_ranks.ranks > 1 ? std::size_t(m_ranks.rank) : k;
    WalkShare mine{m_shares.bounds[at], m_shares.bounds[at + 1]};
    if (mirrored) set_mirrors(mine, k);
    r.tree.evaluate_device(r.pos.get(), m_n, m_params.tree, m_params.eps, r.acc.get(), &r.stats, m_acc_current,
                           block ? r.clock.active() : nullptr, may_refit, share ? &mine : nullptr);
}

void TreeEngine::after_walks(bool block, bool share, bool mirrored) {
    m_stats = front().stats;
    m_exchange_seconds = 0;
    if (share) {
        const auto t0 = std::chrono::steady_clock::now();
        if (m_ranks.ranks > 1) {
            exchange_over_ranks(block, mirrored);
        } else {
            std::vector<const uint8_t*> flags;
            if (block)
                for (auto& r : m_parts) flags.push_back(r->clock.active());
            exchange_walked(m_parts, m_dev, m_n, flags, mirrored);
            std::vector<ShareReport> reports;
            for (auto& r : m_parts) reports.push_back(report_of(*r));
            combine_shares(reports);
        }
        // Also the order the next walks need: none writes into a buffer whose scatter is still running (a
        // mirrored walk's next writes wait in evaluate()). Mirrored walks have ended on the host already.
        if (!mirrored) m_dev.synchronize();
        m_exchange_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ++m_sums.shared;
        m_sums.exchanged_bytes += tree::exchange_bytes(m_n, sharers());
    }
    m_acc_current = true;
}

TreeEngine::ShareReport TreeEngine::report_of(const TreeReplica& r) {
    return {r.tree.walked_run().end, r.stats.t_walk, r.stats.body_body, r.stats.body_cell, r.stats.walked_bodies};
}

// The walk's counts are every share's, its time the slowest share's; the shares move toward equal times.
void TreeEngine::combine_shares(const std::vector<ShareReport>& reports) {
    std::vector<std::size_t> runs{0};
    std::vector<double> seconds;
    m_stats.body_body = m_stats.body_cell = m_stats.walked_bodies = 0;
    for (const ShareReport& s : reports) {
        runs.push_back(s.run_end);
        seconds.push_back(s.seconds);
        m_stats.t_walk = std::max(m_stats.t_walk, s.seconds);
        m_stats.body_body += s.body_body, m_stats.body_cell += s.body_cell, m_stats.walked_bodies += s.walked;
    }
    m_shares.rebalance(runs, seconds);
    m_sums.add_share_walks(seconds);
}

// Every rank's report (one collective), then the runs exchanged; every rank moves the shares alike from the
// same numbers.
void TreeEngine::exchange_over_ranks(bool block, bool mirrored) {
    const ShareReport mine = report_of(front());
    const std::vector<double> all = m_ranks.values_of_ranks(
        {double(mine.run_end), mine.seconds, double(mine.body_body), double(mine.body_cell), double(mine.walked)});
    constexpr std::size_t kEach = 5;
    std::vector<ShareReport> reports;
    std::vector<IndexRange> runs;
    for (std::size_t k = 0; k + kEach <= all.size(); k += kEach) {
        reports.push_back({std::size_t(all[k]), all[k + 1], uint64_t(all[k + 2]), uint64_t(all[k + 3]),
                           uint64_t(all[k + 4])});
        runs.push_back({runs.empty() ? 0 : runs.back().end, reports.back().run_end});
    }
    exchange_between_ranks(front(), m_n, runs, m_ranks.rank, m_ranks.gather_runs,
                           block ? front().clock.active() : nullptr, mirrored);
    combine_shares(reports);
}

void TreeEngine::step(int k) {
    if (m_n == 0) return;
    if (m_block) return block_steps(k);
    const float half = static_cast<float>(0.5 * m_params.dt * m_params.G), dt = static_cast<float>(m_params.dt);
    const int n = static_cast<int>(m_n);
    for (int s = 0; s < k; ++s) {
        const auto t0 = std::chrono::steady_clock::now();
        for (auto& r : m_parts) {
            NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
            tree_kick_drift_kernel<<<blocks_for(m_n), kBlock, 0, r->part->stream>>>(
                r->pos.as<float4>(), r->vel.as<float4>(), r->acc.as<const float4>(), n, half, dt);
            NBODY_CUDA_CHECK_LAUNCH("tree_kick_drift_kernel");
        }
        evaluate();
        // The step's work is what the walk evaluated (the priming evaluation of reset is not a step's, as on
        // the CPU backend).
        m_work.evaluations += 1;
        m_work.add({double(m_stats.body_body), double(m_stats.body_cell), double(m_n) * double(m_n)}, 1.0);
        for (auto& r : m_parts) {
            NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
            tree_kick_kernel<<<blocks_for(m_n), kBlock, 0, r->part->stream>>>(r->vel.as<float4>(),
                                                                              r->acc.as<const float4>(), n, half);
            NBODY_CUDA_CHECK_LAUNCH("tree_kick_kernel");
        }
        NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
        m_time += m_params.dt;
        ++m_steps;
        add_stages(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), m_n);
    }
}

void TreeEngine::add_stages(double step_seconds, std::size_t active) {
    m_sums.keys += m_stats.t_keys, m_sums.sort += m_stats.t_sort, m_sums.build += m_stats.t_build;
    m_sums.multipoles += m_stats.t_multipoles, m_sums.walk += m_stats.t_walk, m_sums.total += step_seconds;
    m_sums.exchange += m_exchange_seconds;
    m_sums.active += double(active), m_sums.walked += double(m_stats.walked_bodies);
    if (active * 64 < m_n) ++m_sums.small, m_sums.small_total += step_seconds;
    ++m_sums.steps;
}

void TreeEngine::read_out(const ReadoutAsk& ask, Readouts& out) {
    if (ask.cell_depth >= 0) out.tree_cells = tree_cells(ask.cell_depth);
    if (ask.block_levels) out.block_levels = block_levels();
    out.stage_times = stage_times();
}

std::string TreeEngine::stage_times() const {
    if (m_sums.steps == 0) return {};
    const StageSums& s = m_sums;
    const double ms = 1e3 / double(s.steps);
    const double rest = s.total - (s.keys + s.sort + s.build + s.multipoles + s.walk + s.exchange);
    char buf[400];
    std::snprintf(buf, sizeof buf,
                  "per %s over %lld: keys %.3f, sort %.3f, build %.3f, multipoles %.3f, walk %.3f, kicks, drifts "
                  "and the rest %.3f; %.3f ms in all",
                  m_block ? "block step" : "step", s.steps, s.keys * ms, s.sort * ms, s.build * ms,
                  s.multipoles * ms, s.walk * ms, rest * ms, s.total * ms);
    std::string out = buf;
    if (sharers() > 1) {
        // The build is every part's; the walk the slowest part's share, the exchange after it.
        const bool ranks = m_ranks.ranks > 1;
        const char* how = ranks ? (m_mirrored ? "device to device, written by the walks" : "through the host")
                                : (m_mirrored ? "peer to peer, written by the walks" : "peer to peer copies");
        std::snprintf(buf, sizeof buf,
                      "; on %zu %s: %lld of the evaluations shared out the walk, exchange (%s) %.3f ms and %.1f MB "
                      "a step; each one's walk",
                      sharers(), m_ranks.ranks > 1 ? "ranks" : "parts", s.shared, how, s.exchange * ms,
                      s.exchanged_bytes * 1e-6 / double(s.steps));
        out += buf;
        for (std::size_t k = 0; k < s.share_walks.size(); ++k) {
            std::snprintf(buf, sizeof buf, "%s%.3f", k ? " / " : " ", s.share_walks[k] * ms);
            out += buf;
        }
    }
    if (m_block && m_n > 0) {
        const double per = 100.0 / (double(s.steps) * double(m_n));
        std::snprintf(buf, sizeof buf,
                      "; active %.1f%% of the bodies a block step, the groups walked for them %.1f%%; %lld steps "
                      "with under 1/64 active, %.3f ms each; %lld refitted the last tree, %lld summed the due "
                      "bodies directly",
                      s.active * per, s.walked * per, s.small, s.small ? 1e3 * s.small_total / double(s.small) : 0.0,
                      m_refits, m_direct_steps);
        out += buf;
    }
    return out;
}

// Block steps (tree_block_steps.cuh): every body drifts to the next block time, the tree is built on the
// drifted positions and walked for the active bodies' groups only, and the active bodies close their steps.
// Work: the walked lists of the active bodies. Every part keeps the same clock over the same bodies.
// Hand-offs to the parts' threads: a small block step took 1.144 ms on two GPUs against one GPU's 0.834, with
// three hand-offs a step (open, walk, close). Now each part closes a step and opens the next in one, and a step
// whose walk is not shared out walks in that one too: one hand-off a step where nothing is shared, two where
// the walk is (the exchange runs between). A step's time counts from its opening.
void TreeEngine::block_steps(int k) {
    if (k <= 0) return;
    std::vector<std::size_t> due(m_parts.size());
    auto t0 = std::chrono::steady_clock::now();
    on_every_part([&](TreeReplica& r, std::size_t p) {
        due[p] = r.clock.begin_step(r.bodies(m_n), m_params.G, r.part->stream);
    });
    for (int s = 0; s < k; ++s) {
        const std::size_t active = due.front();
        for (std::size_t d : due)
            if (d != active)
                throw BackendError("tree block step: the GPU parts disagree on the bodies due (" +
                                   std::to_string(active) + " against " + std::to_string(d) + ")");
        m_last_active = active;
        const bool next = s + 1 < k;
        // Each part's closing kicks end on a wait for its GPU (the refused steps' count): all at once, and the
        // next step's opening with them, behind the same wait.
        auto close_and_open = [&](TreeReplica& r, std::size_t p) {
            if (next)
                due[p] = r.clock.end_and_begin_step(r.bodies(m_n), rule(), r.part->stream);
            else
                r.clock.end_step(r.bodies(m_n), rule(), r.part->stream);
        };
        const bool direct = tree::sums_directly(active, m_n);
        const bool walk_alone = !direct && !shares_walk(active);
        if (direct) {  // the tree stays as it was, refittable as it was
            for (auto& r : m_parts) {
                NBODY_CUDA_CHECK(cudaSetDevice(r->part->device));
                r->direct.evaluate(r->pos.as<const float4>(), r->clock.active(), active, m_n,
                                   tree::softening2(m_params.eps), r->acc.as<float4>(), r->part->stream);
            }
            m_stats = {};
            m_stats.bodies = m_n, m_stats.body_body = uint64_t(active) * uint64_t(m_n), m_stats.walked_bodies = active;
            m_exchange_seconds = 0;
            ++m_direct_steps;
        } else if (walk_alone) {  // every part walks every due group: nothing to wait for between walk and close
            const bool may_refit = m_refittable && tree::refits(active, m_n);
            on_every_part([&](TreeReplica& r, std::size_t p) {
                walk_part(r, p, true, may_refit, false, false);
                close_and_open(r, p);
            });
            after_walks(true, false, false);
        } else {
            evaluate(true, m_refittable && tree::refits(active, m_n));
        }
        if (!direct) {
            m_refittable = true;
            m_refits += m_stats.refitted;
        }
        m_work.evaluations += 1;
        m_work.add({double(m_stats.body_body), double(m_stats.body_cell), double(active) * double(m_n)}, 1.0);
        if (!walk_alone) on_every_part(close_and_open);
        ++m_steps;
        const auto t1 = std::chrono::steady_clock::now();
        add_stages(std::chrono::duration<double>(t1 - t0).count(), active);
        t0 = t1;
    }
}

void TreeEngine::read_state(State& out) {
    m_dev.synchronize();
    std::vector<Float4> pos(m_n), vel(m_n);
    NBODY_CUDA_CHECK(cudaMemcpy(pos.data(), front().pos.get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
    NBODY_CUDA_CHECK(cudaMemcpy(vel.data(), front().vel.get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
    out.resize(m_n);
    for (std::size_t i = 0; i < m_n; ++i) out.pos_mass[i] = to_double4(pos[i]), out.vel[i] = to_double4(vel[i]);
    out.group = m_group;
    out.time = time();
    if (m_block) synchronise_velocities(out);
}

// Block steps: a body inside its step holds the velocity of its opening half kick; at the clock it has
// v - G a dt/2 + G a (clock - t) (LeapfrogBlockCpu::synchronised), exact for the bodies that just closed.
void TreeEngine::synchronise_velocities(State& out) {
    std::vector<double> t, dt;
    front().clock.read(t, dt);
    std::vector<Float4> acc(m_n);
    if (m_n) NBODY_CUDA_CHECK(cudaMemcpy(acc.data(), front().acc.get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < m_n; ++i) out.vel[i] = synchronised(out.vel[i], acc[i], t[i], dt[i]);
}

Double4 TreeEngine::synchronised(Double4 v, const Float4& a, double t, double dt) const {
    if (t == front().clock.clock()) return v;
    const double g = m_params.G * ((front().clock.clock() - t) - 0.5 * dt);
    v.x += a.x * g, v.y += a.y * g, v.z += a.z * g;
    return v;
}

// The window's picked bodies, two 16-byte copies a row (with block steps two 8-byte ones more and the
// acceleration) where that beats the whole read: with one pick held at 2,097,152 bodies the window made 5.8
// frames/s reading every body each frame, against 45 with none (H200).
bool TreeEngine::read_bodies_alone(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                                   std::vector<Double4>& vel) {
    if (!reads_rows_alone(rows.size())) return false;
    m_dev.synchronize();
    pos_mass.clear(), vel.clear();
    for (std::size_t i : rows) {
        pos_mass.push_back(to_double4(row_of(front().pos, i, "position")));
        vel.push_back(to_double4(row_of(front().vel, i, "velocity")));
        if (m_block) {
            double t = 0, dt = 0;
            front().clock.read_row(i, t, dt);
            vel.back() = synchronised(vel.back(), row_of(front().acc, i, "acceleration"), t, dt);
        }
    }
    return true;
}

std::optional<BlockLevels> TreeEngine::block_levels() {
    if (!m_block) return std::nullopt;
    m_dev.synchronize();
    BlockLevels out;
    out.dt_max = rule().dt_max;
    out.last_active = m_last_active;
    out.count = front().clock.level_counts(out.dt_max, front().part->stream);
    return out;
}

void TreeEngine::read_accelerations(std::vector<Double4>& out) {
    m_dev.synchronize();
    std::vector<Float4> acc(m_n);
    NBODY_CUDA_CHECK(cudaMemcpy(acc.data(), front().acc.get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
    out.resize(m_n);
    for (std::size_t i = 0; i < m_n; ++i)
        out[i] = {m_params.G * acc[i].x, m_params.G * acc[i].y, m_params.G * acc[i].z, 0.0};
}

// A sample of rows, one 16-byte copy each (about 10 us) where that beats the whole read (about 5 ns a body,
// copied and widened): the live force error's hundred rows at 2M bodies; its 1,024 at 131,072 read all.
bool TreeEngine::reads_rows_alone(std::size_t rows) const { return rows * 2000 < m_n; }

Float4 TreeEngine::row_of(const DeviceBuffer& b, std::size_t i, const char* what) const {
    if (i >= m_n) throw Error(std::string("tree engine: ") + what + " of body " + std::to_string(i) + " of " +
                              std::to_string(m_n));
    Float4 v{};
    NBODY_CUDA_CHECK(cudaMemcpy(&v, b.as<const float4>() + i, sizeof(float4), cudaMemcpyDeviceToHost));
    return v;
}

bool TreeEngine::read_rows_alone(const std::vector<std::size_t>& rows, std::vector<Double4>& out) {
    if (!reads_rows_alone(rows.size())) return false;
    m_dev.synchronize();
    out.clear();
    out.reserve(rows.size());
    for (std::size_t i : rows) {
        const Float4 a = row_of(front().acc, i, "acceleration");
        out.push_back({m_params.G * a.x, m_params.G * a.y, m_params.G * a.z, 0.0});
    }
    return true;
}

void TreeEngine::positions_to_device(void* dst) {
    const DevicePart& part = *front().part;
    NBODY_CUDA_CHECK(cudaSetDevice(part.device));
    NBODY_CUDA_CHECK(
        cudaMemcpyAsync(dst, front().pos.get(), m_n * sizeof(float4), cudaMemcpyDeviceToDevice, part.stream));
    m_dev.synchronize();
}

void TreeEngine::positions_to_host(Float4* dst) {
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaMemcpy(dst, front().pos.get(), m_n * sizeof(float4), cudaMemcpyDeviceToHost));
}

// The diagnostic energy stays exact: direct summation of the potential (N^2, on the GPU), not the tree's.
// At large N that sum costs many tree steps (N = 1M: about 0.35 s on an H200 against a 10 ms step; 10M: about
// 35 s): the window's sampler does not ask above kSampledTreePotentialMaxN (core/session/diagnostics_sampler.hpp); a
// scripted run does, at any N.
std::optional<double> TreeEngine::potential_energy() {
    if (m_n == 0) return 0.0;
    m_dev.synchronize();
    const DevicePart& part = *front().part;
    PotentialSum sum;
    const int n = static_cast<int>(m_n);
    sum.launch(front().pos.get(), false, n, 0, n, m_params.eps * m_params.eps, part.device, part.stream);
    return -0.5 * m_params.G * sum.sum();
}

EngineMark TreeEngine::save_snapshot(const std::vector<char*>& dst) {
    if (dst.size() != m_parts.size())
        throw BackendError("tree snapshot: one buffer a device part expected (" + std::to_string(m_parts.size()) +
                           "), got " + std::to_string(dst.size()));
    m_refittable = false;
    const std::size_t bytes = m_n * sizeof(float4);
    for (std::size_t k = 0; k < m_parts.size(); ++k) {
        TreeReplica& r = *m_parts[k];
        NBODY_CUDA_CHECK(cudaSetDevice(r.part->device));
        std::size_t off = 0;
        for (const DeviceBuffer* b : {&r.pos, &r.vel, &r.acc}) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(dst[k] + off, b->get(), bytes, cudaMemcpyDeviceToDevice, r.part->stream));
            off += bytes;
        }
        if (m_block) r.clock.save(dst[k] + off, r.part->stream);
    }
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
    return {0, time(), m_steps, m_params.dt, m_params.eps, m_params.G};
}

void TreeEngine::restore_snapshot(const std::vector<char*>& src, const EngineMark& mark) {
    if (src.size() != m_parts.size())
        throw BackendError("tree snapshot: one buffer a device part expected (" + std::to_string(m_parts.size()) +
                           "), got " + std::to_string(src.size()));
    m_refittable = false;
    const std::size_t bytes = m_n * sizeof(float4);
    const double since_reset = mark.time - m_time;
    for (std::size_t k = 0; k < m_parts.size(); ++k) {
        TreeReplica& r = *m_parts[k];
        NBODY_CUDA_CHECK(cudaSetDevice(r.part->device));
        std::size_t off = 0;
        for (DeviceBuffer* b : {&r.pos, &r.vel, &r.acc}) {
            NBODY_CUDA_CHECK(cudaMemcpyAsync(b->get(), src[k] + off, bytes, cudaMemcpyDeviceToDevice, r.part->stream));
            off += bytes;
        }
        if (m_block) r.clock.restore(src[k] + off, since_reset, r.part->stream);
    }
    m_dev.synchronize();
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
    if (!m_block) m_time = mark.time;
    m_steps = mark.steps;
    m_acc_current = true;  // the saved accelerations came back with the bodies they belong to
    // Saved under another softening: the saved accelerations are not this run's; the tree makes them again
    // (the tree and its theta are deterministic, so a restore under the same parameters goes on bit for bit).
    if (mark.eps != m_params.eps) evaluate();
}

std::vector<TreeCellBox> TreeEngine::tree_cells(int depth) {
    if (m_n == 0) return {};
    NBODY_CUDA_CHECK(cudaSetDevice(front().part->device));
    const std::vector<tree::TreeCell> cells = front().tree.cells_to_depth(std::clamp(depth, 0, kMaxCellDrawDepth));
    return cell_boxes(cells.data(), cells.size(), front().tree.key_box(), depth);
}

std::string TreeEngine::kernel_label() const {
    return tree_label(m_params.tree) + (m_block ? " (GPU build and walk, block steps)" : " (GPU build and walk)");
}

}  // namespace nbody::kernels
