#include "core/enums/backend_kind.hpp"

namespace nbody {

namespace {
const std::array<NamedValue<BackendKind>, 4> kBackends = {{
    {BackendKind::Auto, "auto", "CUDA where a usable device exists, else GL compute on a GPU, else the CPU"},
    {BackendKind::Cpu, "cpu", "every core, vectorised; the numerical reference"},
    {BackendKind::Cuda, "cuda", "the GPU kernels"},
    {BackendKind::Gl, "gl", "OpenGL 4.3 compute shaders: any GPU's GL driver (fp32, leapfrog, direct)"},
}};
}  // namespace

const std::array<NamedValue<BackendKind>, 4>& backend_kind_table() { return kBackends; }

std::optional<BackendKind> parse_backend_kind(std::string_view s) {
    return parse_named(kBackends, s);
}
std::string_view backend_kind_name(BackendKind k) {
    return name_of(kBackends, k);
}

}  // namespace nbody
