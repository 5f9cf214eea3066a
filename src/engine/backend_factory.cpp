#include "engine/backend_factory.hpp"

#include "core/errors.hpp"
#include "core/gpu_words.hpp"
#include "cpu/cpu_backend.hpp"
#include "multi/distributed_backend.hpp"
#include "multi/mpi_exchange.hpp"
#ifdef NBODY_HAVE_CUDA
#include "backend/device_count.hpp"
#include "cuda_backend.hpp"
#endif

#include <cstdlib>

namespace nbody {

bool cuda_built() {
#ifdef NBODY_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

int cuda_device_count() {
#ifdef NBODY_HAVE_CUDA
    return count_cuda_devices();
#else
    return 0;
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
    if (p.backend == BackendKind::Gl)
        throw BackendError(
            "--backend gl: the GL compute backend needs a front end with GL (nbody-sandbox, "
            "nbody-bench, the Python module: gl_backend/gl_backend_factory.hpp); libnbody alone has none");
#ifdef NBODY_HAVE_CUDA
    std::string why, fewer;
    if (auto b = try_make_cuda_backend(p, &why, &fewer)) {
        say("CUDA backend: " + b->name() + (fewer.empty() ? "" : " (" + fewer + ")"));
        return std::unique_ptr<Backend>(std::move(b));
    }
    if (p.backend == BackendKind::Cuda) throw BackendError("--backend cuda: " + why);
    say(cpu_fallback_note(why));
#else
    if (p.backend == BackendKind::Cuda)
        throw BackendError("--backend cuda: this build has no CUDA backend (configured without nvcc or with NBODY_CUDA=OFF)");
    say("this build has no CUDA backend; using the CPU backend");
#endif
    return std::make_unique<CpuBackend>(p.cpu_threads);
}


std::unique_ptr<Backend> make_backend_or_cpu(const SimParams& p, std::string* note) {
    try {
        return make_backend(p, note);
    } catch (const BackendError& e) {
        if (p.backend != BackendKind::Cuda) throw;
        if (note)
            *note = cuda_built() ? cpu_fallback_note(e.what()) : std::string("this build has no CUDA backend; using the CPU backend");
        return std::make_unique<CpuBackend>(p.cpu_threads);
    }
}

void reset_or_cpu(std::unique_ptr<Backend>& b, const State& s, const SimParams& p, std::string* note) {
    try {
        b->reset(s, p);
    } catch (const BackendError& e) {
        if (!b->caps().gpu) throw;
        auto cpu = std::make_unique<CpuBackend>(p.cpu_threads);
        cpu->reset(s, p);
        b = std::move(cpu);
        if (note) *note = cpu_fallback_note(e.what());
    }
}

std::unique_ptr<Backend> make_rank_backend(const SimParams& p, std::string* note, int* rank) {
    *rank = 0;
    if (launched_ranks() <= 1) return nullptr;
    auto exchange = exchange_from_environment();
    *rank = exchange->rank();
    pin_local_gpu();
    SimParams one = p;
    one.gpus = 1;
    one.cpu_threads = threads_per_rank(p.cpu_threads);
    std::string inner_note;
    auto inner = make_backend(one, &inner_note);
    auto d = std::make_unique<DistributedBackend>(std::move(inner), std::move(exchange));
    if (note) *note = inner_note + "; " + d->exchange().name() + ", this rank integrates its share";
    return d;
}

}  // namespace nbody
