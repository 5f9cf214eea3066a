#pragma once
// The tree engine's block time line on the device (leapfrog-block, the CPU's LeapfrogBlockCpu in the tree
// engine's fp32 bodies): each body's step start t and step dt (doubles, powers of two on the block time line
// of core/physics/hermite.hpp's block_step), t + dt, and the active flags. A block step:
//   begin_step: the opening half kicks of the steps that start at the clock, the next block time (the least
//               t + dt, a CUB reduction), every body drifted to it, the bodies due then flagged active;
//   (the tree walks the active bodies' groups: GpuTree::evaluate_device with active());
//   end_step:   the active bodies' closing half kicks with the new accelerations, and their next steps from
//               dt_i = eta sqrt(eps / |a_i|) (core/physics/leapfrog.hpp's block_leapfrog_step).
// With every body on one level that is the shared engine's step operation for operation (the same float kick
// factor and drift), so it runs bit for bit as the plain leap-frog does.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/device_set.cuh"
#include "common/pinned.cuh"

namespace nbody::kernels {

// The kick v += h a and the drift x += h v (3 flops a component each) of every tree kernel, shared and block
// steps alike, so that one level of block steps reproduces the shared steps bit for bit.
__device__ inline void tree_kick(float4& v, const float4& a, float h) {
    v.x += h * a.x, v.y += h * a.y, v.z += h * a.z;
}
__device__ inline void tree_drift(float4& x, const float4& v, float h) {
    x.x += h * v.x, x.y += h * v.y, x.z += h * v.z;
}

// The engine's bodies (input order): float4 positions (w = mass), velocities, accelerations without G.
struct TreeBodies {
    float4* pos;
    float4* vel;
    float4* acc;
    int n;
};

// The device scalars a block step reads back at once.
struct BlockScalars {
    double t_next;    // the block time being reached
    unsigned active;  // bodies due then
    int bad;          // the first body refused a step (INT_MAX: none)
    double bad_want;  // the step it wanted
};

// What the next step of a body depends on: G (the accelerations come without it), eta and eps of the
// criterion, and the largest step (a power of two).
struct BlockRule {
    double G, eta, eps, dt_max;
};

class TreeBlockSteps {
  public:
    void allocate(int device, std::size_t n);

    // Each body's first step from its acceleration, the clock at 0. Throws BackendError ("block step
    // underflow") naming the first body whose step would be below the floor.
    void start(const TreeBodies& b, const BlockRule& r, cudaStream_t s);
    // Opening kicks, the next block time, the drift, the active flags (above). Returns the active count.
    std::size_t begin_step(const TreeBodies& b, double G, cudaStream_t s);
    // Closing kicks and next steps of the active bodies; the clock moves to the block time. A body whose step
    // would underflow keeps its old one and the first such is refused (BackendError) once the step is done.
    void end_step(const TreeBodies& b, const BlockRule& r, cudaStream_t s);
    // end_step then begin_step with one wait for the GPU, not two (each block step waited twice, and a small
    // one is mostly waits). A refused body leaves the run at the closed step, unopened, as end_step does.
    std::size_t end_and_begin_step(const TreeBodies& b, const BlockRule& r, cudaStream_t s);

    const uint8_t* active() const { return m_active.as<const uint8_t>(); }
    double clock() const { return m_clock; }
    double next_time() const { return m_t_next; }

    // Each body's step start and step, copied back (read_state, checkpoints).
    void read(std::vector<double>& t, std::vector<double>& dt) const;
    // Body i's alone (the window's picked bodies).
    void read_row(std::size_t i, double& t, double& dt) const;
    // The bodies on each level dt_max / 2^k (core/backend/block_levels.hpp's rule), counted on the device (the panels
    // ask a few times a second: 512 bytes back, not 8 a body): levels 0..deepest.
    std::vector<std::size_t> level_counts(double dt_max, cudaStream_t s);
    // Checkpoints: puts each body's time line back (validated by the caller) and the clock.
    void write(const std::vector<double>& t, const std::vector<double>& dt, double clock, cudaStream_t s);

    // Rewind: t and dt of every body (16 bytes a body), device to device.
    std::size_t snapshot_bytes() const { return m_n * 2 * sizeof(double); }
    void save(char* dst, cudaStream_t s) const;
    void restore(const char* src, double clock, cudaStream_t s);

  private:
    // The kernels of begin_step (the next block time, the opening kicks, the drift, the flags) and end_step
    // (the closing kicks and next steps), enqueued without waiting.
    void enqueue_begin(const TreeBodies& b, double G, cudaStream_t s);
    void enqueue_close(const TreeBodies& b, const BlockRule& r, cudaStream_t s);
    // t_end = t + dt for every body (after a restore or write).
    void refresh_ends(cudaStream_t s);
    // The device scalars (next block time, active count, first refused body) back to the host.
    void read_scalars(cudaStream_t s);

    int m_device = 0;
    std::size_t m_n = 0;
    DeviceBuffer m_t, m_dt, m_t_end, m_active, m_scalars, m_scratch, m_level_bins;
    Pinned<BlockScalars> m_host_scalars;  // page-locked: read back and waited for every block step
    std::size_t m_scratch_bytes = 0;
    double m_clock = 0, m_t_next = 0;
    std::size_t m_active_count = 0;
    int m_bad = -1;
    double m_bad_want = 0;
};

}  // namespace nbody::kernels
