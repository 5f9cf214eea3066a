#pragma once
// The sixth-order library's force engine on the GPU (plain C++: libnbody_sapporo6 sees only this), in fp64.
// The host keeps the j-memory and predicts it; the predicted j-particles are copied to the device when they
// changed, and each batch of i-particles is summed against them with the j range split over blocks, the
// partial sums added in a fixed order (results do not depend on timing).
#include <cstdint>
#include <memory>
#include <string>

#include "sapporo6/sapporo6_cpu.hpp"

namespace nbody {

class Sapporo6Cuda {
  public:
    // Null with the reason in *why where CUDA device `ordinal` cannot be used.
    static std::unique_ptr<Sapporo6Cuda> create(int ordinal, int npipes, std::string* why);
    virtual ~Sapporo6Cuda() = default;
    // Copies predicted j-particles 0..nj-1 to the device unless the same nj of the same version (the board's
    // count of changes) are there already. Throws BackendError on a CUDA failure.
    virtual void set_j(const sapporo6::PredictedJ& j, int nj, std::uint64_t version) = 0;
    // cpu_forces' results for rows [i0, i0 + n) of `in` (n <= npipes) from the j-particles last set (nj of
    // them). Throws BackendError on a CUDA failure.
    virtual void forces(int nj, const sapporo6::IBatch& in, int i0, int n, const sapporo6::IResult& out) = 0;
};

}  // namespace nbody
