#pragma once
// The GRAPE-6 library's force engine on the GPU (plain C++: libnbody_g6 sees only this). The j-memory lives
// on the device: records written by g6_set_j_particle are uploaded (the range changed since the last call) and
// every j-particle is predicted to ti on the device, in the force precision, with GRAPE's factors; the
// i-batch (ni <= npipes) is summed against them by the Hermite engine's force kernel (hermite_kernels.cu), the
// j range split over blocks and the partial sums added in a fixed order.
#include <memory>
#include <string>

#include "core/physics/hermite.hpp"
#include "core/rows/sim_params.hpp"

namespace nbody {

class G6Cuda {
  public:
    // A record: tj, m, x[3], v[3], a2[3], j6[3] (14 doubles).
    static constexpr int kRecord = 14;
    // Null with the reason in *why where there is no usable CUDA device.
    static std::unique_ptr<G6Cuda> create(Precision p, int jmemory, int npipes, std::string* why);
    virtual ~G6Cuda() = default;
    virtual void set_j(int address, const double* record) = 0;
    // Queues the forces (without G) on ni i-particles from j-particles 0..nj-1 predicted to ti (a pair at
    // zero separation adds nothing) and returns; xi and vi are copied before it returns. finish() waits for
    // them and writes ni of them to out. Both throw BackendError on a CUDA failure.
    virtual void start(double ti, int nj, int ni, const double (*xi)[3], const double (*vi)[3], double eps2) = 0;
    virtual void finish(hermite::Force* out) = 0;
};

}  // namespace nbody
