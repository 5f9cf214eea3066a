#pragma once
// The sixth-order "board" behind sapporo6thlib.h: the j-memory (each particle at its own time), the predicted
// j-particles the forces are summed from, and the force engine (CUDA where one works, else the CPU
// reference). Every call is checked first; a call that fails changes nothing and returns its message.
#include <memory>
#include <string>
#include <vector>

#include "core/physics/hermite6.hpp"
#include "sapporo6/sapporo6_cpu.hpp"

namespace nbody {
class Sapporo6Cuda;
}

namespace nbody::sapporo6 {

struct Config {
    std::string device = "auto";  // auto (CUDA where built and a device works, else cpu), cpu, cuda
    std::vector<int> gpus{0};     // CUDA ordinals (initialize_special's list; an ordinal may repeat)
    bool ds = false;              // the GPU's double-single kernel (the CPU computes in float64 always)
    int npipes = 16384;           // i-particles a batch (Sapporo2's NPIPES)
    int jmemory = 1 << 20;        // addresses 0..jmemory-1
};

// From NBODY_SAPPORO6_DEVICE, NBODY_SAPPORO6_PRECISION, NBODY_SAPPORO6_NPIPES, NBODY_SAPPORO6_JMEMORY; a bad
// value is an error naming the variable and the allowed values.
Config config_from_environment(std::string& error);

// One j-particle as set_j_particle gives it.
struct JParticle {
    const double *pos, *vel, *acc, *jrk, *snp, *crk;
    double mass, time, eps2;
    int id;
};

class Board {
  public:
    // Throws Error where NBODY_SAPPORO6_DEVICE=cuda and no CUDA device can be used.
    explicit Board(const Config& c);
    ~Board();
    const char* where() const;  // "cuda" or "cpu"

    // Each returns "" or the error message (the call's name, the argument, what was wrong).
    std::string set_j_particle(int address, const JParticle& p);
    std::string predict(const char* call, double time, int nj, bool predict);
    std::string pick_up(int address, int& id, double& mass, double& eps2, double pos[3], double vel[3],
                        double acc[3]) const;
    std::string calc(int nj, const IBatch& in, const IResult& out);

  private:
    std::string check_nj(const char* call, int nj) const;
    std::string check_i(const IBatch& in) const;
    void refresh_predicted();
    // The rows of `in` split evenly over the GPUs, each GPU's share in batches of npipes, the GPUs at once
    // (one host thread each; the shares write disjoint rows of `out`). Throws the first GPU's BackendError.
    void gpu_forces(int nj, const IBatch& in, const IResult& out);
    Config m_cfg;
    // The j-memory, one record per address set so far (0..size-1), and the time each address is predicted to
    // (NaN: as stored, since it was set after the last prediction or by no_predict_all).
    std::vector<JRecord> m_rec;
    std::vector<double> m_pt;
    std::vector<char> m_set;
    int m_unset = 0;  // addresses below size never set
    // The CPU engine's copy of every address predicted (made when a force call needs it after a change).
    PredictedJ m_pred;
    bool m_pred_stale = true;
    std::vector<std::unique_ptr<Sapporo6Cuda>> m_gpus;  // one engine a listed device; none: the CPU
};

}  // namespace nbody::sapporo6
