// nbody.bench: nbody-bench's table (src/bench/bench_table.hpp) from Python, each row a dict with the fields
// of nbody-bench's JSON rows (bench_row_fields, which the JSON writer uses too).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "bench/bench_table.hpp"
#include "core/errors.hpp"
#include "py_simulation.hpp"
#ifdef NBODY_PYTHON_GL
#include "gl_backend/gl_backend_factory.hpp"
#endif

namespace nbody::python {

namespace {

py::list bench(const std::vector<long long>& sizes, const std::vector<std::string>& variants,
               const std::vector<std::string>& methods, double seconds, const std::vector<double>& thetas,
               const std::vector<std::string>& precisions, int repeats, bool accuracy, const std::string& backend,
               const std::string& scene, double eps, const std::vector<double>& alphas) {
    BenchTable t;
    t.sizes = sizes, t.variants = variants, t.methods = methods, t.thetas = thetas, t.alphas = alphas;
    t.precisions = precisions;
    t.accuracy = accuracy, t.scene = scene, t.eps = eps;
    if (!(seconds > 0 && seconds <= 60)) throw ParamError("seconds", "must be in (0, 60] (per timed repeat)");
    if (repeats < 1 || repeats > 1000) throw ParamError("repeats", "must be from 1 to 1000");
    t.timing.seconds_per_repeat = seconds;
    t.timing.repeats = repeats;
    BenchTableHooks h;
    std::unique_ptr<Backend> gl;
    if (backend == "cpu") {
        t.cpu = true, t.gpu = false;
    } else if (backend == "both") {
        t.cpu = true, t.gpu = true;
    } else if (backend == "gl") {
#ifdef NBODY_PYTHON_GL
        std::string why;
        gl = try_make_backend(backend_rows_with_gl({GlContextSource::OwnHeadless, {}}), BackendKind::Gl, {},
                              &why);
        if (!gl) throw BackendError("backend 'gl': " + why);
        h.gl = gl.get();
        t.gpu = false, t.gl = true;
#else
        throw ParamError("backend",
                         "'gl': this module was built without the GL compute backend (NBODY_PYTHON_GL)");
#endif
    } else if (backend != "auto") {
        throw ParamError(
            "backend",
            "must be 'auto' (the GPU where usable, else the CPU), 'cpu', 'both' or 'gl' (OpenGL compute)");
    }
    std::vector<BenchRow> rows;
    {
        py::gil_scoped_release release;  // seconds of timing: other Python threads run meanwhile
        rows = run_bench_table(t, h);
    }
    py::list out;
    for (const BenchRow& r : rows) {
        py::dict d;
        for (const auto& [name, value] : bench_row_fields(r))
            std::visit([&d, &name](const auto& v) { d[py::str(name)] = v; }, value);
        out.append(d);
    }
    return out;
}

}  // namespace

void bind_bench(py::module_& m) {
    m.def("bench", &bench, py::arg("sizes") = std::vector<long long>{512},
          py::arg("variants") = std::vector<std::string>{"auto"},
          py::arg("methods") = std::vector<std::string>{"direct"}, py::arg("seconds") = 0.25,
          py::arg("thetas") = std::vector<double>{TreeParams{}.theta},
          py::arg("precisions") = std::vector<std::string>{"fp32"}, py::arg("repeats") = 5,
          py::arg("accuracy") = true, py::arg("backend") = "auto", py::arg("scene") = "",
          py::arg("eps") = 0.01, py::arg("alphas") = std::vector<double>{TreeParams{}.alpha},
          R"(Measures what nbody-bench measures and returns its rows, one dict per configuration.

Every size x method x precision x theta x alpha (method tree; alpha 0 is Barnes's theta alone) x kernel
variant (CUDA, direct) is reset to
a Plummer sphere of that size (or `scene`, a scene file rescaled to it), warmed up, then timed `repeats`
times for about `seconds` each; the median is reported. The dicts have the keys of nbody-bench's JSON rows:
n, backend, variant, kernel, method, precision, integrator, gpus, interactions_per_s (evaluated, body-body
plus body-cell), body_body_per_s, body_cell_per_s, equivalent_direct_per_s, gflops_20, gflops_38,
gflops_integrator, flops_per_interaction_integrator, steps_per_s, ms_per_step, repeat_spread,
steps_per_repeat, repeats, k, u, block, q, s, registers, and with `accuracy` max_rel_force_error,
p99_rel_force_error and median_rel_force_error (against float64 direct summation, on every body up to
131,072 and on an evenly spaced sample above: force_error_bodies says how many); a GPU tree's rows add stages
(where a step's time went).

backend: 'auto' (the CUDA backend where a device is usable, else the CPU), 'cpu', 'both' or 'gl' (the GL
compute backend through a headless EGL context, timed by GL timer queries). A configuration
the backend does not run is left out. Raises ValueError for an unknown name or a bad number.

    rows = nbody.bench(sizes=[512], backend="cpu", seconds=0.05)
    print(rows[0]["interactions_per_s"]))");
}

}  // namespace nbody::python
