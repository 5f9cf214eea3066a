#include "engine/backend_factory.hpp"

#include "core/errors.hpp"
#include "core/backend/gpu_words.hpp"
#include "engine/backend_chooser.hpp"
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

std::unique_ptr<Backend> make_backend(const SimParams& p, BackendChoice* choice) {
    return choose_backend(backend_rows(), p, choice, WhenAskedFails::Throw);
}

std::unique_ptr<Backend> make_backend_or_cpu(const SimParams& p, BackendChoice* choice) {
    return choose_backend(backend_rows(), p, choice, WhenAskedFails::FallBack);
}

void reset_or_cpu(std::unique_ptr<Backend>& b, const State& s, const SimParams& p, BackendChoice* choice) {
    try {
        b->reset(s, p);
    } catch (const BackendError& e) {
        const std::optional<BackendKind> stand_in = choice ? choice->stand_in : BackendKind::Cpu;
        if (!b->caps().gpu || !stand_in) throw;
        std::string why;
        auto instead = try_make_backend(backend_rows(), *stand_in, p, &why);
        if (!instead) throw BackendError(std::string(e.what()) + "; and its stand-in cannot start: " + why);
        instead->reset(s, p);
        b = std::move(instead);
        if (choice) {
            *choice = cpu_fallback_choice(p.backend, e.what());
            choice->running = *stand_in;
        }
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
