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
#include "core/integrator_state.hpp"
#include "core/sim_params.hpp"
#include "core/state.hpp"
#include "core/tree/cell_boxes.hpp"

namespace nbody {

struct BackendCaps {
    bool gpu = false;              // runs on a GPU
    bool kernel_variants = false;  // honours SimParams::variant and shape
    bool external_positions = false;  // can write positions into a caller's device buffer (GL interop)
    bool gl_positions = false;        // writes positions into the renderer's GL buffer itself (GL compute)
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
struct RangePartition {
    std::size_t begin = 0, end = 0;
    std::function<void(std::vector<Double4>&)> gather;  // all N bodies (C++17: the CUDA files include this)
};

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

    // Positions and masses for drawing, N float4 into host memory (the host-copy path: CPU backend, or a
    // GPU backend whose buffer could not be registered with GL).
    virtual void copy_positions_to_host(Float4* dst) = 0;

    // The first body whose position is NaN or infinite, if any. The default looks at a host copy of the
    // positions; a GPU backend looks on the device, so the check costs no copy of N bodies.
    virtual std::optional<std::size_t> first_nonfinite_position();

    // GPU backends with caps().external_positions: writes the current positions and masses (N float4) into
    // a device pointer, such as a mapped CUDA-GL interop buffer, without a host round trip. Others throw.
    virtual void write_positions_to_device(void* device_dst);

    // Backends with caps().gl_positions: makes the renderer's vertex buffer (a GL buffer name in the current
    // context, N float4 of position and mass) hold the current positions without leaving the GPU, and keeps
    // the name so later steps write it as they go. Others throw.
    virtual void write_positions_to_gl_buffer(unsigned gl_buffer);

    // The softened potential energy W = -G/2 sum_{i != j} m_i m_j / sqrt(r^2 + eps^2) of the current state,
    // evaluated where the state lives (GPU backends: float32 pair sums per body, float64 total), or nullopt
    // where the backend has no faster way than compute_diagnostics.
    virtual std::optional<double> potential_energy() { return std::nullopt; }

    // What actually evaluates the forces, for the UI, summaries and benchmark rows: "ij-unrolled k 2 u 4 block
    // 512 q 32 (auto), fp32" on CUDA, "cpu avx512f, fp32" on the CPU. Default: name().
    virtual std::string kernel_label() const { return name(); }

    // Why the automatic choice (SimParams::kernel_auto) picked that kernel: "measured at N = 7,500
    // (1.43e12 interactions/s); table: built-in (NVIDIA H200, ...)". Empty where nothing was chosen.
    virtual std::string kernel_choice() const { return {}; }

    // Method tree: the boxes of the last force evaluation's tree cells down to `depth` (root 0; at most
    // kMaxCellDrawDepth), for drawing. A copy, so call it a few times a second rather than every frame. Empty
    // for direct summation and for backends without a tree (the default).
    virtual std::vector<TreeCellBox> tree_cells(int /*depth*/) { return {}; }

    // Work since the last reset (counters.hpp). Default: one evaluation of N^2 pairs per step taken.
    virtual WorkCount work() const;

    // Seconds the steps since the last reset took on the device, measured there (the GL compute backend's
    // timer queries), or < 0 where the caller's clock around step() is the measure (the default).
    virtual double device_seconds() const { return -1; }

    // Per GPU, the last step: its force kernel and the copies of its bodies to the other GPUs (the Performance
    // panel shows them). Empty where there is one device or none.
    virtual std::vector<DeviceTiming> device_timings() { return {}; }

    // Takes effect at the next reset(); an empty gather means the whole range again. Returns false where the
    // backend cannot integrate a sub-range (the default). The CPU and CUDA backends can, for leap-frog: their
    // reset throws ParamError for what a sub-range does not run yet (the CPU takes fp32 only).
    virtual bool set_partition(RangePartition) { return false; }

    // Rewind (core/rewind.hpp; Simulation keeps the timeline): `count` slots of saved states. Returns how many
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
