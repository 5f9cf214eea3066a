#pragma once
// The CUDA backend, as the host sees it: plain C++, no CUDA types (they live in cuda_backend.cu).
#include <cstddef>
#include <memory>
#include <string>

#include "core/backend.hpp"
#include "core/kernel_config.hpp"

namespace nbody {

struct CudaDeviceInfo {
    std::string name;
    int sm_count = 0;
    int cc_major = 0, cc_minor = 0;
    double clock_ghz = 0;       // boost clock reported by the driver
    std::size_t memory_bytes = 0;
};

struct KernelResources {
    int registers = 0;          // per thread
    int max_block = 0;          // largest block the registers allow
    int local_bytes = 0;        // stack / spill memory per thread (0 when nothing spills)
};

class CudaBackend final : public Backend {
public:
    // Takes device 0. Throws BackendError (no device, driver too old, compute capability without kernels).
    CudaBackend();
    ~CudaBackend() override;

    std::string name() const override;
    BackendCaps caps() const override { return {true, true, true}; }
    void reset(const State& s, const SimParams& p) override;
    void set_params(const SimParams& p) override;
    const SimParams& params() const override;
    void step(int k) override;
    void read_state(State& out) override;
    void read_accelerations(std::vector<Double4>& out) override;
    void copy_positions_to_host(Float4* dst) override;
    void write_positions_to_device(void* device_dst) override;
    std::optional<double> potential_energy() override;
    std::string kernel_label() const override;
    std::size_t size() const override;
    double time() const override;
    long long steps_taken() const override;

    // Runs k steps between two CUDA events on the backend's stream and returns the milliseconds between
    // them (synchronises). What nbody-bench times.
    double timed_steps(int k);
    // Allocates device memory for n bodies ahead of a reset. Throws BackendError when the device does
    // not have it, keeping the current state and buffers.
    void reserve(std::size_t n);
    const CudaDeviceInfo& device() const;
    const LaunchPlan& plan() const;
    KernelResources kernel_resources() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

// The CUDA backend, or null with the reason in *why ("no CUDA-capable device is detected", ...).
std::unique_ptr<CudaBackend> try_make_cuda_backend(std::string* why);

}  // namespace nbody
