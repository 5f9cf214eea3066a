#pragma once
// The GRAPE-6 "board" behind g6lib.h, on the CPU: j-particle memory, prediction to ti, and the Hermite force
// sums of core/physics/hermite.hpp through cpu/force_modes (fp32, ds or fp64) on i-particles given from outside.
// Calls are checked (order, ranges) and fail with a G6_ERR_* code and a message, never a crash.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/rows/sim_params.hpp"
#include "cpu/force_modes.hpp"
#include "g6/neighbour_tree.hpp"

namespace nbody {
class G6Cuda;
}

namespace nbody::g6 {

struct Config {
    Precision precision = Precision::DS;
    std::string device = "auto";  // auto (CUDA where built and present, else cpu), cpu, cuda
    // i-particles a batch may hold. Sapporo2 offers 256; a batch that small leaves the GPU waiting on each
    // call's launches and copies (docs/grape6.md: 47% of the native ds rate at 256 on an H200, 77% at 16,384).
    int npipes = 16384;
    int jmemory = 1 << 20;
};

// From NBODY_G6_PRECISION, NBODY_G6_NPIPES, NBODY_G6_JMEMORY; a bad value is an error naming the variable.
Config config_from_environment(std::string& error);

class Device {
  public:
    // Throws Error where NBODY_G6_DEVICE=cuda and no CUDA device can be used.
    explicit Device(const Config& c);
    ~Device();
    const char* where() const;  // "cpu" or "cuda"

    int npipes() const { return m_cfg.npipes; }
    int set_ti(double ti);
    int set_j_particle(int address, int index, double tj, double mass, const double a2[3], const double j6[3],
                       const double v[3], const double x[3]);
    // firsthalf: checks and computes; the results wait for lasthalf. lasthalf: 0 or the error of either call.
    int firsthalf(int nj, int ni, const int index[], const double (*xi)[3], const double (*vi)[3], double eps2,
                  const double h2[]);
    int lasthalf(int ni, double (*acc)[3], double (*jerk)[3], double pot[], int nnb[]);
    int read_neighbour_list();
    int get_neighbour_list(int ipipe, int maxlength, int* n, int list[]);

    const std::string& error() const { return m_error; }
    int fail(int code, std::string why);

  private:
    void predict(int nj);
    void host_prediction();  // m_px.. for the neighbour searches when the forces ran on the GPU
    const NeighbourTree& tree();  // over this batch's predicted j (made once a batch)
    int nearest(int i);
    Config m_cfg;
    double m_ti = 0;
    // j-memory, one entry per address: time, mass, index, x, v, a/2, j/6
    std::vector<double> m_tj, m_m, m_x, m_v, m_a2, m_j6;
    std::vector<int> m_index;
    int m_high = 0;  // addresses written: 0..m_high-1
    // the pending batch (firsthalf -> lasthalf)
    bool m_pending = false;
    int m_pending_error = 0, m_ni = 0, m_nj = 0;
    std::vector<double> m_px, m_py, m_pz, m_pvx, m_pvy, m_pvz, m_pm;  // predicted j, then the batch's i
    std::vector<hermite::Force> m_force;
    std::vector<double> m_h2;
    std::vector<std::vector<int>> m_neighbours;
    std::unique_ptr<NeighbourTree> m_tree;
    bool m_have_batch = false, m_host_predicted = false;
    std::vector<double> m_ix;  // the batch's i positions and velocities (6 per i)
    double m_batch_ti = 0;
    std::unique_ptr<G6Cuda> m_gpu;
    std::string m_error;
};

}  // namespace nbody::g6
