// The desktop's CPU backend (src/cpu/cpu_backend.cpp), the numerical reference the GPU backends are tested
// against, on every thread of the module (one in nbody_core.wasm; threads_web.hpp): the page's path where
// WebGPU is missing, and what the page's 100-step check compares the WGSL kernels' positions with.
// Kick-drift-kick leap-frog on direct summation in the precision asked (fp64 for the page), or on the
// desktop's CPU Barnes-Hut tree at its default opening tests (theta 1 and the acceleration criterion; its own
// float32 walk). Any thread count steps the same bodies to the same bits (each body's sum is one thread's).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "core/errors.hpp"
#include "core/rows/force_method.hpp"
#include "core/rows/param_checks.hpp"
#include "core/rows/sim_params.hpp"
#include "cpu/cpu_backend.hpp"
#include "js_arrays.hpp"
#include "threads_web.hpp"

namespace nbody::web {

using emscripten::val;

// Every call returns or reports its problem in words; none throws into JavaScript (where a C++ exception
// arrives as a bare number).
class CpuRun {
  public:
    // Bodies as 4 floats each; precision "fp32", "ds" or "fp64"; method "direct" or "tree".
    CpuRun(const val& pos_mass, const val& vel, const std::string& precision, const std::string& method)
        : m_backend(core_threads()) {
        m_params.backend = BackendKind::Cpu;
        m_params.integrator = Integrator::LeapFrog;
        m_params.cpu_threads = core_threads();
        try {
            m_start = state_from(pos_mass, vel);
            const auto p = parse_precision(precision);
            if (!p) throw ParamError("precision", "must be fp32, ds or fp64 (got '" + precision + "')");
            m_params.precision = *p;
            const auto m = parse_method(method);
            if (!m) throw ParamError("method", "must be direct or tree (got '" + method + "')");
            m_params.method = *m;
            fit_to_method(m_params);
        } catch (const std::exception& e) {
            m_problem = e.what();
        }
    }

    // `steps` steps; a changed dt, eps or G is applied first (the backend keeps the bodies and restarts the
    // integrator on them, as the desktop does). "" or why nothing was stepped (the registry's words).
    std::string step(int steps, double dt, double eps, double G) {
        if (!m_problem.empty()) return m_problem;
        try {
            if (steps < 0) throw ParamError("steps", "must be 0 or more (got " + std::to_string(steps) + ")");
            if (!m_started || dt != m_params.dt || eps != m_params.eps || G != m_params.G) {
                SimParams p = m_params;
                p.dt = dt, p.eps = eps, p.G = G;
                validate(p);
                m_params = p;
                if (m_started) m_backend.set_params(p);
                else m_backend.reset(m_start, p);
                m_started = true;
            }
            m_backend.step(steps);
            m_state_read = false;
            return {};
        } catch (const std::exception& e) {
            return e.what();
        }
    }

    val positions() { return float32_copy(packed(state().pos_mass)); }
    val velocities() { return float32_copy(packed(state().vel)); }
    double time() const { return m_started ? m_backend.time() : 0.0; }
    std::string label() const { return m_backend.kernel_label(); }

  private:
    const State& state() {
        if (!m_started) return m_start;
        if (!m_state_read) m_backend.read_state(m_state), m_state_read = true;
        return m_state;
    }

    CpuBackend m_backend;
    SimParams m_params;
    State m_start, m_state;
    bool m_started = false, m_state_read = false;
    std::string m_problem;  // why this run cannot step (bad bodies or precision), else empty
};

}  // namespace nbody::web

EMSCRIPTEN_BINDINGS(nbody_cpu_backend) {
    using nbody::web::CpuRun;
    emscripten::class_<CpuRun>("CpuRun")
        .constructor<emscripten::val, emscripten::val, std::string, std::string>()
        .function("step", &CpuRun::step)
        .function("positions", &CpuRun::positions)
        .function("velocities", &CpuRun::velocities)
        .function("time", &CpuRun::time)
        .function("label", &CpuRun::label);
}
