#include "engine/backend_factory.hpp"

#include "core/errors.hpp"
#include "core/gpu_words.hpp"
#include "engine/backend_rows.hpp"
#include "multi/distributed_backend.hpp"
#include "multi/mpi_exchange.hpp"
#ifdef NBODY_HAVE_CUDA
#include "backend/device_count.hpp"
#include "hermite/hermite_forces.hpp"
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

double block_step_evaluation_ms(const State& s, int active_count, const SimParams& p, int repeats) {
#ifdef NBODY_HAVE_CUDA
    return cuda_hermite_force_ms(s, active_count, p, repeats);
#else
    (void)s, (void)active_count, (void)p, (void)repeats;
    throw BackendError("this build has no CUDA backend");
#endif
}

namespace {
// The CPU where the build has no CUDA backend and the user did not say which.
BackendChoice no_cuda_choice(BackendKind asked) {
    return {asked, BackendKind::Cpu, kNoCudaWords, "this build has no CUDA backend; using the CPU backend", ""};
}

std::unique_ptr<Backend> make_row(BackendKind k, const SimParams& p, std::string* why,
                                  std::string* note = nullptr) {
    return try_make_backend(backend_rows(), k, p, why, note);
}
}  // namespace

std::unique_ptr<Backend> make_backend(const SimParams& p, BackendChoice* choice) {
    BackendChoice c;
    c.asked = p.backend;
    std::string why;
    if (p.backend == BackendKind::Gl)
        throw BackendError(
            "--backend gl: the GL compute backend needs a front end with GL (nbody-sandbox, "
            "nbody-bench, the Python module: gl_backend/gl_backend_factory.hpp); libnbody alone has none");
    std::unique_ptr<Backend> b;
    if (p.backend == BackendKind::Cpu) {
        b = make_row(BackendKind::Cpu, p, &why);
        c.running = BackendKind::Cpu, c.note = "CPU backend (asked for)";
    } else if (std::string fewer; (b = make_row(BackendKind::Cuda, p, &why, &fewer))) {
        c.running = BackendKind::Cuda;
        c.note = "CUDA backend: " + b->name() + (fewer.empty() ? "" : " (" + fewer + ")");
    } else if (p.backend == BackendKind::Cuda) {
        throw BackendError("--backend cuda: " + why);
    } else {
        c = cuda_built() ? cpu_fallback_choice(p.backend, why) : no_cuda_choice(p.backend);
        b = make_row(BackendKind::Cpu, p, &why);
    }
    if (choice) *choice = c;
    return b;
}

std::unique_ptr<Backend> make_backend_or_cpu(const SimParams& p, BackendChoice* choice) {
    try {
        return make_backend(p, choice);
    } catch (const BackendError& e) {
        if (p.backend != BackendKind::Cuda) throw;
        if (choice)
            *choice = cuda_built() ? cpu_fallback_choice(p.backend, e.what()) : no_cuda_choice(p.backend);
        std::string why;
        return make_row(BackendKind::Cpu, p, &why);
    }
}

void reset_or_cpu(std::unique_ptr<Backend>& b, const State& s, const SimParams& p, BackendChoice* choice) {
    try {
        b->reset(s, p);
    } catch (const BackendError& e) {
        if (!b->caps().gpu) throw;
        std::string why;
        auto cpu = make_row(BackendKind::Cpu, p, &why);
        cpu->reset(s, p);
        b = std::move(cpu);
        if (choice) *choice = cpu_fallback_choice(p.backend, e.what());
    }
}

std::unique_ptr<Backend> make_rank_backend(const SimParams& p, BackendChoice* choice, int* rank) {
    *rank = 0;
    if (launched_ranks() <= 1) return nullptr;
    auto exchange = exchange_from_environment();
    *rank = exchange->rank();
    pin_local_gpu();
    SimParams one = p;
    one.gpus = 1;
    one.cpu_threads = threads_per_rank(p.cpu_threads);
    BackendChoice inner_choice;
    auto inner = make_backend(one, &inner_choice);
    auto d = std::make_unique<DistributedBackend>(std::move(inner), std::move(exchange));
    inner_choice.note += "; " + d->exchange().name() + ", this rank integrates its share";
    if (choice) *choice = inner_choice;
    return d;
}

}  // namespace nbody
