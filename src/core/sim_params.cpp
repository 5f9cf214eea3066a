#include "core/sim_params.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"

namespace nbody {

namespace {
std::string got(double v) {
    std::ostringstream os;
    os.precision(17);
    os << " (got " << v << ")";
    return os.str();
}
}  // namespace

std::optional<BackendKind> parse_backend_kind(std::string_view s) {
    if (s == "auto") return BackendKind::Auto;
    if (s == "cpu") return BackendKind::Cpu;
    if (s == "cuda") return BackendKind::Cuda;
    return std::nullopt;
}

std::string_view backend_kind_name(BackendKind k) {
    switch (k) {
        case BackendKind::Cpu: return "cpu";
        case BackendKind::Cuda: return "cuda";
        default: return "auto";
    }
}

void validate(const SimParams& p) {
    if (!(p.dt > 0) || !std::isfinite(p.dt)) throw ParamError("dt", "must be > 0 and finite" + got(p.dt));
    if (!(p.eps >= 0) || !std::isfinite(p.eps)) throw ParamError("eps", "must be >= 0 and finite" + got(p.eps));
    if (!(p.G > 0) || !std::isfinite(p.G)) throw ParamError("G", "must be > 0 and finite" + got(p.G));
    if (p.steps_per_frame < 1 || p.steps_per_frame > 10000)
        throw ParamError("steps_per_frame", "must be from 1 to 10000" + got(p.steps_per_frame));
    if (p.cpu_threads < 0 || p.cpu_threads > 1024)
        throw ParamError("cpu_threads", "must be 0 (all) or 1 to 1024" + got(p.cpu_threads));
    validate_shape(p.variant, p.shape);
}

}  // namespace nbody
