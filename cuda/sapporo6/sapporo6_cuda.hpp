#pragma once
// The sixth-order library's force engine on the GPU (plain C++: libnbody_sapporo6 sees only this), in fp64
// or double-single.
// The j-memory is mirrored on the device: records set since the last call are copied (only those) and
// scattered, the j-particles are predicted on the device, and each batch of i-particles is summed against
// them with the j range split over blocks, the partial sums added in a fixed order (results do not depend on
// timing).
#include <cstdint>
#include <memory>
#include <string>

#include "core/physics/sapporo6_records.hpp"

namespace nbody {

class Sapporo6Cuda {
  public:
    // Null with the reason in *why where CUDA device `ordinal` cannot be used. ds: the double-single force
    // kernel (sapporo6_force.cuh), else fp64.
    static std::unique_ptr<Sapporo6Cuda> create(int ordinal, int npipes, bool ds, std::string* why);
    virtual ~Sapporo6Cuda() = default;
    // Queues record r for address `address` (copied at the next predict or forces call); until the next
    // predict it is used as stored.
    virtual void set_j(int address, const sapporo6::JRecord& r) = 0;
    // Predicts addresses 0..nj-1 to time t on the device (t NaN: as stored). Throws BackendError.
    virtual void predict(double t, int nj) = 0;
    // cpu_forces' results for rows [i0, i0 + n) of `in` (n <= npipes) from the predicted j-particles 0..nj-1.
    // Throws BackendError on a CUDA failure.
    virtual void forces(int nj, const sapporo6::IBatch& in, int i0, int n, const sapporo6::IResult& out) = 0;
};

}  // namespace nbody
