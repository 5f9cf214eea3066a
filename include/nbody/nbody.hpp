#pragma once
// libnbody: the engine of nbody-sandbox as a library (direct-summation gravity on CUDA or a vectorised CPU
// backend, leap-frog and 4th-order Hermite integrators, the sandbox's scene files and snapshots).
//
//     #include <nbody/nbody.hpp>
//     auto sim = nbody::api::Simulation::from_scene(nbody::api::scenes_dir() + "/plummer.toml", 4096);
//     sim.evolve(1.0);
//     std::printf("%g\n", sim.diagnostics().energy_error);
//
// Units are N-body units (G = 1 by default) throughout. Arrays cross the boundary as contiguous float64:
// positions, velocities and accelerations N x 3, row-major (x0 y0 z0 x1 ...), masses N, so a numpy array of
// shape (N, 3) and dtype float64 in C order can be passed as it is. Every error is an nbody::Error
// (<nbody/errors.hpp>); a parameter out of range is a ParamError whose message names the field and its range.
// A Simulation is used from one thread at a time. C++17; link with nbody::nbody (CMake) or with the flags
// of `pkg-config --cflags --libs nbody`.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <map>
#include <string>
#include <vector>

#include "nbody/errors.hpp"
#include "nbody/version.hpp"

namespace nbody::api {

// The version of the library loaded at run time, "0.1.0" (NBODY_VERSION_STRING: the headers' own).
std::string version();

// True when the library was built with the CUDA backend (a device may still be missing).
bool cuda_built();
// CUDA devices this library can use: 0 without the CUDA backend, a driver or a device.
int cuda_device_count();

// The scenes shipped with the library (plummer.toml, cartwheel.toml, ...):
// <prefix>/share/nbody-sandbox/scenes beside an installed library, the source tree's scenes/ for a build
// tree. NBODY_SCENE_DIR overrides.
std::string scenes_dir();

// How a simulation runs. Strings are the names the sandbox's command line and scene files use.
struct Params {
    double dt = 0.01;   // time step: from 1e-12 to 1e6; hermite-block: the largest block step
    double eps = 0.01;  // Plummer softening length: 0, or from 1e-9 to 1e4
    double G = 1.0;     // gravitational constant: from 1e-12 to 1e12
    // "auto" (CUDA where a usable device exists, else the CPU), "cpu", "cuda"; "gl" (OpenGL compute) in the
    // Python module and the project's programs, which link the GL backend (libnbody alone refuses it)
    std::string backend = "auto";
    std::string precision = "fp32";       // "fp32", "ds" (double-single, as Sapporo2), "fp64"
    std::string integrator = "leapfrog";  // "leapfrog", "leapfrog-block", "hermite", ...
    double eta = 0.01;                    // block steps: Aarseth's accuracy parameter, 1e-6 to 1
    // The CUDA kernel: "auto" (tuned for N and the GPU) or a variant name (none, i-unrolled, ij-unrolled,
    // tensor, pairs; i, ij, tc); the CPU backend ignores it.
    std::string variant = "auto";
    std::string method = "direct";  // how forces are found: "direct" summation, or "tree" (Barnes-Hut)
    int gpus = 1;                   // GPUs the CUDA backend spreads the bodies over: 1 to 64, 0 = all
    int cpu_threads = 0;            // CPU backend threads: 1 to 1024, 0 = all
    // The force method's own parameters by name (method tree: "theta", "alpha", "leaf", "group"); a name
    // left out keeps its default. parameters() lists every name with its range, unit and help.
    std::map<std::string, double> method_params;
};

// One numeric parameter of a simulation: what Params, scene files (the same key) and the sandbox's command
// line (--name) take.
struct ParameterInfo {
    std::string name;
    bool whole = false;     // a whole number
    double lo = 0, hi = 0;  // allowed range, inclusive
    std::string zero;       // non-empty: 0 is allowed too and means this ("all", "off")
    std::string unit;       // "time units", "bodies", or empty
    std::string applies_to; // "method tree", "integrator hermite-block", or empty for every run
    std::string help;       // one line
    double default_value = 0;
};
std::vector<ParameterInfo> parameters();

// The names a text field of Params takes ("backend", "precision", "integrator", "method", "variant"), in the
// order the sandbox lists them: {"leapfrog", "hermite", ...}. Empty for any other field.
std::vector<std::string> choices(const std::string& field);

// Throws ParamError naming the first field out of range and what it allows, e.g.
// "dt: must be from 1e-12 to 1e6 (got -0.1)" or "backend: must be one of auto, cpu, cuda, gl (got 'gpu')".
void validate(const Params& p);

// Conserved quantities in float64 (O(N^2) on the CPU's threads, whatever the backend).
struct Diagnostics {
    double time = 0;
    double mass = 0;
    double kinetic = 0;       // T = 1/2 sum m v^2
    double potential = 0;     // W = -G/2 sum_{i != j} m_i m_j / sqrt(r_ij^2 + eps^2)
    double total = 0;         // E = T + W
    double virial_ratio = 0;  // 2T / |W| (1 in equilibrium)
    std::array<double, 3> momentum{}, angular_momentum{}, com_position{}, com_velocity{};
    double energy_error = 0;    // |E - E0| / |E0| since the start (absolute where E0 = 0)
    double momentum_drift = 0;  // |P - P0| / (sum m |v| at the start)
};

// Block-step integrators (leapfrog-block, hermite-block, hermite6-block): how many bodies take each step now,
// counts[k] on the step dt_max / 2^k (k = 0 the largest), and how many the last block step advanced (0 before
// the first since the start or a change of parameters).
struct BlockLevels {
    double dt_max = 0;
    std::vector<std::size_t> counts;
    std::size_t last_active = 0;
};

class Simulation {
  public:
    // From a scene file (scenes/*.toml, the sandbox's format): its bodies, and dt, eps, G, precision,
    // integrator and eta where it gives them. bodies > 0 rescales its components to that total; seed replaces
    // the scene's. Throws SceneError (file:line:column) or ParamError.
    static Simulation from_scene(const std::string& path, std::size_t bodies = 0,
                                 std::optional<std::uint64_t> seed = std::nullopt);
    // From arrays of n bodies (positions and velocities n x 3, masses n). Throws ParamError naming the array
    // and the index of a NaN or infinite value or a negative mass ("positions[3]: z is nan; every value must
    // be finite", field "positions[3]"), or the field of `params` out of range.
    static Simulation from_arrays(std::size_t n, const double* positions, const double* velocities,
                                  const double* masses, const Params& params = {});
    // From a snapshot the library wrote (save), by its name as save() chooses: CSV or HDF5, with its time, G,
    // eps and dt, or tipsy (any byte order), with its time. Throws Error naming the file and line or byte.
    static Simulation from_snapshot(const std::string& path);

    Simulation(Simulation&&) noexcept;
    Simulation& operator=(Simulation&&) noexcept;
    ~Simulation();

    // The parameters in effect, and new ones applied now, between steps, keeping the bodies (a new backend
    // takes them over). Throws ParamError and keeps the old parameters; BackendError when backend "cuda" has
    // no device. A change of eps or G restarts the energy baseline, since it changes the energy itself.
    const Params& params() const;
    void set_params(const Params& p);

    // k steps (hermite-block: k block steps). The backend is made at the first call that needs one (step,
    // evolve, accelerations, backend_name), so parameters set before it cost nothing. Throws Error when the
    // state turns NaN or infinite (dt too large for eps), naming the step and the body.
    void step(long long k = 1);
    // Steps until the time reaches t_end: the first step boundary at or after it (block steps: the first
    // block time there); no step when it is already there. Returns the time reached. Throws Error as step().
    double evolve(double t_end);

    std::size_t size() const;
    double time() const;
    long long steps() const;  // steps taken since the start (block steps under hermite-block)

    // The state, copied into caller-owned arrays of the sizes above.
    void get_positions(double* out) const;      // N x 3
    void get_velocities(double* out) const;     // N x 3
    void get_masses(double* out) const;         // N
    void get_accelerations(double* out) const;  // N x 3, G included, at the current positions
    // N: each body's specific potential phi_i = -G sum_{j != i} m_j / sqrt(r_ij^2 + eps^2), in float64 on the
    // CPU's threads (O(N^2), whatever the backend); diagnostics().potential is sum_i m_i phi_i / 2.
    void get_potentials(double* out) const;
    void get_groups(std::uint32_t* out) const;  // N: the scene component each body came from (0 from arrays)

    Diagnostics diagnostics() const;
    // The block-step levels now (BlockLevels); nullopt under shared steps. The GPU tree counts them on the
    // device; the CUDA Hermite engine copies every body's step for it.
    std::optional<BlockLevels> block_levels() const;

    // Writes the state in the format its name asks for: *.csv the sandbox's CSV snapshot (float64 to the last
    // bit, with time, G, eps, dt); *.hdf5 or *.h5 a GADGET/SWIFT HDF5 snapshot (the same, for h5py and yt;
    // where the library is built with HDF5); *.tipsy, *.std or *.bin tipsy (float32, big-endian, as pynbody
    // reads). Throws Error naming the path when it cannot be written, or naming the formats for another name.
    void save(const std::string& path) const;

    // The backend ("cpu (16 threads, avx512f)", "cuda (NVIDIA H200)"), why it was chosen ("no usable CUDA
    // device (...); falling back to the CPU backend") and what evaluates the forces ("ij-unrolled k 4 u 4
    // block 256 q 32 (auto), fp32").
    std::string backend_name() const;
    std::string backend_note() const;
    std::string kernel() const;

  private:
    struct Impl;
    friend struct SimulationAccess;  // the project's own front ends (src/api/simulation_access.hpp)
    explicit Simulation(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m;
};

}  // namespace nbody::api
