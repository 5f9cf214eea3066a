#pragma once
// What an integrator is on the GPU: the CUDA backend (cuda_backend.cu) holds the devices and one engine for
// the integrator in use (leapfrog_engine.cu; the Hermite engine beside it), and switches engines at a step
// boundary by carrying the state across. An engine runs over every part of the DeviceSet.
#include <optional>
#include <string>
#include <vector>

#include "common/device_set.cuh"
#include "core/backend/backend.hpp"
#include "core/errors.hpp"
#include "core/kernels/kernel_config.hpp"
#include "cuda_backend.hpp"

namespace nbody::kernels {

// What a device snapshot (rewind) keeps beside the buffers: the engine's scalars, and the parameters its
// predicted positions and accelerations were made with (a restore under another dt, eps or G re-primes).
struct EngineMark {
    int cur = 0;  // which of the double-buffered positions is current
    double time = 0;
    long long steps = 0;
    double dt = 0, eps = 0, G = 0;
};

class GpuEngine {
public:
    virtual ~GpuEngine() = default;

    // Takes the state (uploaded to every part) and evaluates the first forces. Throws ParamError for a
    // combination the engine does not run and BackendError (out of memory), keeping its previous state.
    virtual void reset(const State& s, const SimParams& p) = 0;
    // Same integrator, new parameters, at a step boundary; re-evaluates the forces when eps or G changed.
    virtual void set_params(const SimParams& p) = 0;
    // Queues k steps (leap-frog, shared Hermite) or block steps (hermite-block) on the parts' streams.
    virtual void step(int k) = 0;

    virtual void read_state(State& out) = 0;
    virtual void read_accelerations(std::vector<Double4>& out) = 0;
    // Backend::read_accelerations_of where the engine reads a sample of rows cheaper than all N: true where it
    // did; false (the default) leaves it to the backend's default, all N read and the rows picked.
    virtual bool read_rows_alone(const std::vector<std::size_t>&, std::vector<Double4>&) { return false; }
    // Backend::read_bodies_of the same way: true where the engine read the rows' positions and velocities alone.
    virtual bool read_bodies_alone(const std::vector<std::size_t>&, std::vector<Double4>&, std::vector<Double4>&) {
        return false;
    }
    // Positions and masses as float4, from the first part: into device memory on its GPU (the GL buffer)
    // or into host memory.
    virtual void positions_to_device(void* dst) = 0;
    virtual void positions_to_host(Float4* dst) = 0;
    // W = -G/2 sum_{i != j} m_i m_j / sqrt(r^2 + eps^2), evaluated on the first part's GPU; nullopt where
    // that O(N^2) sum would stall the engine's own steps for too long (the tree at large N).
    virtual std::optional<double> potential_energy() = 0;

    virtual std::string kernel_label() const = 0;
    virtual WorkCount work() const = 0;
    virtual double time() const = 0;
    virtual long long steps() const = 0;
    // Backend::read_out's engine part, what this engine has: why kernel_auto chose the kernel, the tree's
    // cells, block levels, stage times, per part timings (the devices synchronised where asked for).
    virtual void read_out(const ReadoutAsk&, Readouts&) {}
    // The launch plan and kernel resources of the force kernel in use (nbody-bench's columns).
    virtual LaunchPlan plan() const = 0;
    virtual KernelResources resources() const = 0;
    // A distributed run over MPI ranks (core/backend/backend.hpp's RangePartition), applied by the next reset;
    // false where the engine cannot integrate a sub-range.
    virtual bool set_partition(const RangePartition&) { return false; }

    // Rewind on the device: the bytes one saved state takes on each part (all of the engine's per-body
    // state), 0 where the engine keeps none there (the backend then saves through the host: Hermite, whose
    // block steps would need every body's own time and step level saved as well).
    virtual std::size_t snapshot_bytes() const { return 0; }
    // Copies the state to (from) dst[part] (src[part]), snapshot_bytes() each, device to device on each
    // part's stream; both return with the copies done.
    virtual EngineMark save_snapshot(const std::vector<char*>&) { return {}; }
    virtual void restore_snapshot(const std::vector<char*>&, const EngineMark&) {}

    // Checkpoints (Backend::export_state): the integrator's state exactly as the engine holds it. false where
    // the reset from read_state's state already continues bit for bit (direct leap-frog: its accelerations are
    // a function of the positions). import_state runs on a fresh engine (the backend swaps it in only when it
    // succeeds) and throws Error naming a missing or wrong array.
    virtual bool export_state(IntegratorState&) { return false; }
    virtual void import_state(const IntegratorState&, const SimParams&) {
        throw Error("this engine keeps no integrator state beyond the positions and velocities");
    }
};

}  // namespace nbody::kernels
