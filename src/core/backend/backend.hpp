#pragma once
// The one interface every simulation backend implements: the CPU backend (the numerical reference and the
// fallback), the CUDA backend (the fast path) and the GL compute backend (src/gl_backend). A backend owns
// the particle state between steps.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/counters.hpp"
#include "core/errors.hpp"
#include "core/float4.hpp"
#include "core/index_range.hpp"
#include "core/backend/integrator_state.hpp"
#include "core/kernels/kernel_tuning.hpp"
#include "core/rows/sim_params.hpp"
#include "core/physics/state.hpp"
#include "core/tree/cell_boxes.hpp"

namespace nbody {

struct BackendCaps {
    bool gpu = false;              // runs on a GPU
    bool kernel_variants = false;  // honours SimParams::variant and shape
    bool gl_positions = false;     // writes positions into the renderer's GL buffer itself (GL compute)
};

// How the last force evaluation was launched, for benchmark rows and the tuner: zeros where the backend has
// no such shape (the CPU backend).
struct LaunchShape {
    int k = 0, u = 0;   // i-bodies a thread, j-bodies unrolled
    int block = 0;      // threads a block
    int q = 0, s = 0;   // threads a body, j-splits over blocks
    int registers = 0;  // per thread, as compiled
    int parts = 0;      // devices (or parts of one) the bodies are spread over; 0: not a device backend
};

// How positions reach the renderer's vertex buffer: written there on the GPU (CUDA-GL interop, or a GL
// compute backend's own buffer write), or copied to the host for the renderer to upload.
enum class PositionPath { HostCopy, Interop, GlCompute };

// The renderer's vertex buffer as one backend writes it (Backend::link_gl_buffer). It refers to that backend:
// drop it before the backend, the buffer or its GL context goes away (link again after every backend change).
class PositionLink {
  public:
    virtual ~PositionLink() = default;
    virtual PositionPath path() const = 0;
    // The buffer holds the backend's current positions and masses (N float4) when this returns, with no host
    // round trip. Call from the thread where the buffer's GL context is current.
    virtual void write() = 0;
};

struct DeviceTiming {
    std::string device;      // "GPU 1"
    double kernel_ms = 0;    // the step kernel on this GPU's share of the bodies
    double exchange_ms = 0;  // its positions copied to every other GPU, after the kernel
};

// A distributed run (multi/distributed_backend): the backend integrates only bodies [begin, end) (kick, drift,
// forces on them against all N) and, every step between the drift and the force evaluation, calls
// gather(pos_mass of all N bodies) with its own range filled in; gather fills in every other range (an
// all-gather over ranks). Bodies outside the range keep stale velocities and accelerations.
//
// A method every rank of which holds every body (the tree: the same tree on each rank, each walking a share of
// its groups) keeps all N bodies and ignores the range; it reads this rank and the rank count, gathers float4
// runs of an N-long array (runs[r] comes from rank r), and gathers one list of numbers from every rank, rank
// after rank (each rank passing as many). All three hooks are collective.
struct RangePartition {
    std::size_t begin = 0, end = 0;
    std::function<void(std::vector<Double4>&)> gather;  // all N bodies (C++17: the CUDA files include this)
    int rank = 0, ranks = 1;
    std::function<void(Float4* all, std::size_t n, const std::vector<IndexRange>& runs)> gather_runs;
    std::function<std::vector<double>(const std::vector<double>& mine)> values_of_ranks;
};

// Block steps: how many bodies sit on each level of the time line now (count[k]: step dt_max / 2^k, k = 0 the
// largest) and how many the last block step advanced. For the panels' histogram and the active fraction.
struct BlockLevels {
    double dt_max = 0;
    std::vector<std::size_t> count;
    std::size_t last_active = 0;
};

// What a backend may tell beyond its bodies, as one view (Backend::read_out): each read-out empty where the
// backend has none. A new read-out is a field here and the engine that fills it; the backends that forward
// to an engine forward this one call. The costly ones (copies from the device, a wait for it) are filled
// only where ReadoutAsk asks for them.
struct ReadoutAsk {
    int cell_depth = -1;          // tree cells down to this depth (root 0; at most kMaxCellDrawDepth); -1: none
    bool block_levels = false;    // the bodies on each level: a copy of every body's step on GPU backends
    bool device_timings = false;  // per GPU, the last step: waits for the devices to finish
    bool launch_shape = false;    // the force kernel's launch shape: a driver query for its registers on CUDA

    static ReadoutAsk cells(int depth) {
        ReadoutAsk a;
        a.cell_depth = depth;
        return a;
    }
    static ReadoutAsk levels() {
        ReadoutAsk a;
        a.block_levels = true;
        return a;
    }
    static ReadoutAsk timings() {
        ReadoutAsk a;
        a.device_timings = true;
        return a;
    }
    static ReadoutAsk launch() {
        ReadoutAsk a;
        a.launch_shape = true;
        return a;
    }
};
struct Readouts {
    // Why the automatic choice (SimParams::kernel_auto) picked the kernel: "measured at N = 7,500 (1.43e12
    // interactions/s); table: built-in (NVIDIA H200, ...)". Empty where nothing was chosen.
    std::string kernel_choice;
    // Method tree: the boxes of the last force evaluation's cells, for drawing (ask: cell_depth). A copy, so
    // ask a few times a second rather than every frame. Empty for direct summation.
    std::vector<TreeCellBox> tree_cells;
    // Block-step integrators (ask: block_levels); nullopt for shared steps.
    std::optional<BlockLevels> block_levels;
    // Where a step's time goes, averaged since the reset, in words ("per block step over 384: keys 0.042,
    // sort 0.365, build 0.097, multipoles 0.265, walk 5.097, kicks, drifts and the rest 0.079; 5.945 ms in
    // all; active 64.6% ..."); empty where the backend does not break its steps down (the tree engine does).
    std::string stage_times;
    // Per GPU, the last step: its force kernel and the copies of its bodies to the other GPUs (ask:
    // device_timings). Empty where there is one device or none.
    std::vector<DeviceTiming> device_timings;
    // The shape the last step's force evaluation was launched with (benchmark rows; ask: launch_shape); zeros
    // where none.
    LaunchShape launch_shape;
    // The device as the kernel tuner files its tables (GPU name, multiprocessors, driver); nullopt where
    // nothing is tuned per device.
    std::optional<TuningKey> tuning_key;
};

// all[rows[0]], all[rows[1]], ...: a sample of per-body values; a row past the end is refused (Error).
template <class T>
std::vector<T> rows_of(const std::vector<T>& all, const std::vector<std::size_t>& rows) {
    std::vector<T> out;
    out.reserve(rows.size());
    for (std::size_t i : rows) {
        if (i >= all.size())
            throw Error("row " + std::to_string(i) + " of " + std::to_string(all.size()) + " bodies");
        out.push_back(all[i]);
    }
    return out;
}

class Backend {
public:
    virtual ~Backend() = default;

    // Short human-readable description: "cpu (2 threads, avx512f)", "cuda (NVIDIA H200)".
    virtual std::string name() const = 0;
    virtual BackendCaps caps() const = 0;

    // Replaces the state and parameters and evaluates the accelerations at the new positions (one force
    // evaluation), so the first step can start with a kick. Throws ParamError or BackendError.
    virtual void reset(const State& s, const SimParams& p) = 0;

    // Empty, or why this backend does not run `p` at all (a precision, integrator, method or kernel family it
    // has no code for), without touching the state: the kernel race leaves such entries out. The default runs
    // everything reset validates; reset and set_params still refuse what this does not foresee.
    virtual std::string refusal(const SimParams& /*p*/) const { return {}; }

    // Applies new parameters at a step boundary, keeping the particles; re-evaluates the accelerations
    // when eps or G changed, since the stored ones would be stale.
    virtual void set_params(const SimParams& p) = 0;
    virtual const SimParams& params() const = 0;

    // Advances k kick-drift-kick steps (one force evaluation per step).
    virtual void step(int k) = 0;

    // Copies the current state out (synchronises with the device).
    virtual void read_state(State& out) = 0;

    // The accelerations at the current positions, G included (x, y, z; w unused), in float64 whatever the
    // precision they were computed in, so the force error of every precision is measured the same way.
    virtual void read_accelerations(std::vector<Double4>& out) = 0;
    // The same for the bodies `rows` only (out[r] is body rows[r]'s), for a sampled check such as the live
    // force error: the default reads all N and picks; the GPU tree reads 16 bytes a row (at 2M bodies 32 MB
    // copied and 64 MB widened less, once a second, on the frame's thread).
    virtual void read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) {
        std::vector<Double4> all;
        read_accelerations(all);
        out = rows_of(all, rows);
    }

    // Positions (w = mass) and velocities of the bodies `rows` only (out[r] is body rows[r]'s): the window's
    // measuring tools follow a few picked bodies every frame. The default reads all N and picks; a backend
    // that can copy single rows does so. A row past the end is refused (Error).
    virtual void read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                                std::vector<Double4>& vel) {
        State all;
        read_state(all);
        pos_mass = rows_of(all.pos_mass, rows);
        vel = rows_of(all.vel, rows);
    }

    // Positions and masses for drawing, N float4 into host memory (the host-copy path: CPU backend, or a
    // GPU backend whose buffer could not be registered with GL).
    virtual void copy_positions_to_host(Float4* dst) = 0;

    // The first body whose position is NaN or infinite, if any. The default looks at a host copy of the
    // positions; a GPU backend looks on the device, so the check costs no copy of N bodies.
    virtual std::optional<std::size_t> first_nonfinite_position();

    // The renderer's vertex buffer `gl_buffer` (a GL buffer name in the current context, at least `bytes`
    // long, for N float4 of position and mass): a link that writes it without a host round trip, or null with
    // the words why not in *why, and the renderer uploads copy_positions_to_host instead. `allow_interop`
    // false refuses a link through another API than GL (CUDA-GL interop). Default: null, the bodies are in
    // main memory.
    virtual std::unique_ptr<PositionLink> link_gl_buffer(unsigned gl_buffer, std::size_t bytes,
                                                         bool allow_interop, std::string* why);

    // The softened potential energy W = -G/2 sum_{i != j} m_i m_j / sqrt(r^2 + eps^2) of the current state,
    // evaluated where the state lives (GPU backends: float32 pair sums per body, float64 total), or nullopt
    // where the backend has no faster way than compute_diagnostics.
    virtual std::optional<double> potential_energy() { return std::nullopt; }

    // What actually evaluates the forces, for the UI, summaries and benchmark rows: "ij-unrolled k 2 u 4 block
    // 512 q 32 (auto), fp32" on CUDA, "cpu avx512f, fp32" on the CPU. Default: name().
    virtual std::string kernel_label() const { return name(); }

    // The optional read-outs (Readouts): the backend fills what it has, where `ask` asks for the costly ones,
    // and leaves the rest as they are (empty). The default has none.
    virtual void read_out(const ReadoutAsk& /*ask*/, Readouts& /*out*/) {}
    Readouts readouts(const ReadoutAsk& ask = {}) {
        Readouts r;
        read_out(ask, r);
        return r;
    }

    // Work since the last reset (counters.hpp). Default: one evaluation of N^2 pairs per step taken.
    virtual WorkCount work() const;

    // Seconds the steps since the last reset took on the device, measured there (the GL compute backend's
    // timer queries), or < 0 where the caller's clock around step() is the measure (the default).
    virtual double device_seconds() const { return -1; }

    // Steps k and returns the milliseconds they took, measured where they run: events on a CUDA stream, GL
    // timer queries, or (the default) the host's steady clock around step(), exact for a synchronous backend.
    // What nbody-bench, the race and the tuner time.
    virtual double timed_steps(int k);

    // Takes effect at the next reset(); an empty gather means the whole range again. Returns false where the
    // backend cannot integrate a sub-range (the default). The CPU and CUDA backends can, for leap-frog: their
    // reset throws ParamError for what a sub-range does not run yet (the CPU takes fp32 only).
    virtual bool set_partition(RangePartition) { return false; }

    // Rewind (core/session/rewind.hpp; Simulation keeps the timeline): `count` slots of saved states. Returns how many
    // fit (fewer where memory is short, with the reason in *note), all empty; 0 frees them. The default keeps
    // them in host memory through read_state / reset (backend_snapshots.cpp); GPU backends keep them on the
    // device. save/restore throw Error for a slot outside [0, reserved) or never saved, keeping the state.
    virtual int reserve_snapshots(int count, std::string* note = nullptr);
    virtual void save_snapshot(int slot);
    virtual void restore_snapshot(int slot);

private:
    // The default rewind storage: one state and its step count per slot (steps < 0: never saved).
    struct HostSnapshot {
        State state;
        long long steps = -1;
    };
    std::vector<HostSnapshot> m_host_snapshots;

public:
    // Checkpoints (io/hdf5_snapshot): the integrator's state exactly as the backend holds it, so a run
    // continues bit for bit. export_state returns false where the backend cannot export it (a checkpoint of
    // such a backend resumes through read_state/reset, exact for leap-frog only). import_state replaces the
    // state, parameters, time and step count; it throws Error naming the missing or mis-sized array, or a
    // state written by another kind of backend, keeping the old state.
    virtual bool export_state(IntegratorState&) { return false; }
    virtual void import_state(const IntegratorState& st, const SimParams&, long long) {
        throw_cannot_import(st);
    }

private:
    [[noreturn]] void throw_cannot_import(const IntegratorState& st) const;

public:
    virtual std::size_t size() const = 0;
    virtual double time() const = 0;
    virtual long long steps_taken() const = 0;
    // reset() counts steps from zero; this puts a run's count back after a reset that carries the same run on
    // (the kernel race restores the state it raced from). Default: the count stays as reset left it.
    virtual void set_steps_taken(long long) {}
};

}  // namespace nbody
