#pragma once
// The CUDA backend, as the host sees it: plain C++, no CUDA types (they live in the .cu files). One or
// several GPUs; the integrator and precision in use are an engine inside (cuda/backend/gpu_engine.cuh).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/backend/backend.hpp"
#include "core/enums/force_method_id.hpp"
#include "core/kernels/kernel_config.hpp"
#include "core/kernels/kernel_tuning.hpp"

namespace nbody {

struct CudaDeviceInfo {
    std::string name;
    int sm_count = 0;
    int cc_major = 0, cc_minor = 0;
    double clock_ghz = 0;       // boost clock reported by the driver
    std::size_t memory_bytes = 0;
    int driver_version = 0;     // cudaDriverGetVersion, e.g. 13000
    int device_count = 0;       // CUDA devices on this machine
};

struct KernelResources {
    int registers = 0;          // per thread
    int max_block = 0;          // largest block the registers allow
    int local_bytes = 0;        // stack / spill memory per thread (0 when nothing spills)
};

class CudaBackend final : public Backend {
public:
    // One part per entry of `devices` (CUDA ordinals; {0} by default). An ordinal may repeat: two parts on
    // one GPU run the whole multi-GPU decomposition and exchange there (the tests do). Throws BackendError
    // (no device, driver too old, compute capability without kernels, an ordinal that does not exist).
    explicit CudaBackend(std::vector<int> devices = {0});
    ~CudaBackend() override;

    std::string name() const override;
    BackendCaps caps() const override { return {true, true}; }
    void reset(const State& s, const SimParams& p) override;
    // A method it has no engine for (cuda_runs_method), in words; the engines refuse the rest at reset.
    std::string refusal(const SimParams& p) const override;
    void set_params(const SimParams& p) override;
    const SimParams& params() const override;
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void read_accelerations_of(const std::vector<std::size_t>& rows, std::vector<Double4>& out) override;
    void read_bodies_of(const std::vector<std::size_t>& rows, std::vector<Double4>& pos_mass,
                        std::vector<Double4>& vel) override;
    void copy_positions_to_host(Float4* dst) override;
    std::optional<std::size_t> first_nonfinite_position() override;
    // The renderer's buffer registered with CUDA (gl_interop.hpp): each write maps it, copies the positions
    // on the GPU and unmaps it. Null with the registration's error where GL runs on another GPU or vendor.
    std::unique_ptr<PositionLink> link_gl_buffer(unsigned gl_buffer, std::size_t bytes, bool allow_interop,
                                                 std::string* why) override;
    // The current positions and masses (N float4) into device memory (a mapped interop buffer); synchronised.
    void write_positions_to_device(void* device_dst);
    std::optional<double> potential_energy() override;
    bool set_partition(RangePartition p) override;
    // Rewind: leap-frog keeps its saved states in device memory (cudaMemcpyAsync device to device, checked
    // against cudaMemGetInfo: fewer slots with a note where they do not fit); Hermite uses the host default.
    int reserve_snapshots(int count, std::string* note = nullptr) override;
    void save_snapshot(int slot) override;
    void restore_snapshot(int slot) override;
    // Checkpoints: Hermite exports its block-step state ("cuda"; any CUDA backend may import it, with any
    // number of parts); leap-frog and the tree return false and resume from the snapshot's state.
    bool export_state(IntegratorState& st) override;
    void import_state(const IntegratorState& st, const SimParams& p, long long steps) override;
    std::string kernel_label() const override;
    // The engine's read-outs (the tree's cells, only those copied back; block levels; stage times; the
    // automatic choice; per GPU timings), then the launch shape and this GPU's tuning key.
    void read_out(const ReadoutAsk& ask, Readouts& out) override;
    WorkCount work() const override;
    std::size_t size() const override;
    double time() const override;
    long long steps_taken() const override;
    void set_steps_taken(long long n) override;

    // Runs k steps between two CUDA events and returns the milliseconds between them (synchronises). With
    // several parts the events bracket all of them.
    double timed_steps(int k) override;
    const CudaDeviceInfo& device() const;  // the first part's GPU (the one that renders)
    // Why family v cannot run here (the GPU's generation, or a build without its instructions); empty when it can.
    std::string family_refusal(KernelVariant v) const;
    std::size_t parts() const;
    LaunchPlan plan() const;
    KernelResources kernel_resources() const;
    // The kernel_auto table, loaded once at construction: this GPU's cache file (nbody-bench --tune) when it
    // is valid for this GPU and driver, else the built-in one; its source says which. Readouts::tuning_key:
    // this GPU's (name, SMs, driver), under which --tune files its table.
    const TuningTable& tuning_table() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

// The CUDA backend for p.gpus GPUs, or null with the reason in *why ("no CUDA-capable device is detected",
// ...). *note says when fewer GPUs than asked were taken. parts_per_gpu > 1: each GPU runs as that many parts, the
// several-GPU path (its split, reduction and copies) on fewer GPUs (nbody-bench --parts-per-gpu; the tests).
std::unique_ptr<CudaBackend> try_make_cuda_backend(const SimParams& p, std::string* why, std::string* note = nullptr,
                                                   int parts_per_gpu = 1);

// Whether the CUDA backend has engines for method m (with some integrator): its row reads it, so the factory
// runs a method added without a GPU engine on the CPU under auto and refuses it by name in words.
bool cuda_runs_method(ForceMethod m);

}  // namespace nbody
