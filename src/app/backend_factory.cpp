#include "app/backend_factory.hpp"

#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#ifdef NBODY_HAVE_CUDA
#include "cuda_backend.hpp"
#endif

namespace nbody {

bool cuda_built() {
#ifdef NBODY_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

std::unique_ptr<Backend> make_backend(const SimParams& p, std::string* note) {
    auto say = [&](const std::string& s) {
        if (note) *note = s;
    };
    if (p.backend == BackendKind::Cpu) {
        say("CPU backend (asked for)");
        return std::make_unique<CpuBackend>(p.cpu_threads);
    }
#ifdef NBODY_HAVE_CUDA
    std::string why, fewer;
    if (auto b = try_make_cuda_backend(p, &why, &fewer)) {
        say("CUDA backend: " + b->name() + (fewer.empty() ? "" : " (" + fewer + ")"));
        return std::unique_ptr<Backend>(std::move(b));
    }
    if (p.backend == BackendKind::Cuda) throw BackendError("--backend cuda: " + why);
    say("no usable CUDA device (" + why + "); falling back to the CPU backend");
#else
    if (p.backend == BackendKind::Cuda)
        throw BackendError("--backend cuda: this build has no CUDA backend (configured without nvcc or with NBODY_CUDA=OFF)");
    say("this build has no CUDA backend; using the CPU backend");
#endif
    return std::make_unique<CpuBackend>(p.cpu_threads);
}

}  // namespace nbody
