// nbody.Simulation: construction from a scene or arrays, parameters as properties, stepping without the GIL,
// the state and diagnostics as numpy arrays and dicts.
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "arrays.hpp"
#include "params.hpp"
#include "py_simulation.hpp"
#include "scene/scene_names.hpp"

#ifdef NBODY_PYTHON_GL
#include "api/simulation_access.hpp"
#include "gl_backend/gl_backend_factory.hpp"
#endif

namespace nbody::python {

namespace {

using Array = py::array_t<double, py::array::c_style>;

// A path as given when it exists, else a shipped scene by name ("cartwheel" or "cartwheel.toml"); a name that
// matches nothing is a ValueError listing the shipped scenes.
std::string resolve_scene(const std::string& given) {
    if (std::optional<std::string> path = find_scene(given, api::scenes_dir())) return *path;
    throw py::value_error(unknown_scene_message(given, api::scenes_dir()));
}

// backend="gl" (and auto's second choice) through the GL compute row, in a headless EGL context of its own.
api::Simulation with_gl_row(api::Simulation s) {
#ifdef NBODY_PYTHON_GL
    api::SimulationAccess::set_backend_factory(s, [](const SimParams& p, BackendChoice* choice) {
        return make_backend_with_gl(p, choice, {GlContextSource::OwnHeadless, {}});
    });
#endif
    return s;
}

std::unique_ptr<PySimulation> from_arrays(const py::handle& positions, const py::handle& velocities,
                                          const py::handle& masses, const py::kwargs& kwargs) {
    const Array m = as_float64(masses, "masses", 0, 0);
    const auto n = static_cast<std::size_t>(m.shape(0));
    const Array x = as_float64(positions, "positions", n, 3);
    const Array v = as_float64(velocities, "velocities", n, 3);
    const api::Params p = with_kwargs({}, kwargs);
    return std::make_unique<PySimulation>(
        with_gl_row(api::Simulation::from_arrays(n, x.data(), v.data(), m.data(), p)));
}

std::unique_ptr<PySimulation> from_scene(const std::string& scene, std::size_t bodies,
                                         std::optional<std::uint64_t> seed, const py::kwargs& kwargs) {
    auto sim = with_gl_row(api::Simulation::from_scene(resolve_scene(scene), bodies, seed));
    if (kwargs.size() > 0) sim.set_params(with_kwargs(sim.params(), kwargs));
    return std::make_unique<PySimulation>(std::move(sim));
}

std::unique_ptr<PySimulation> construct(const py::object& scene, const py::object& positions,
                                        const py::object& velocities, const py::object& masses,
                                        std::size_t bodies, std::optional<std::uint64_t> seed,
                                        const py::kwargs& kwargs) {
    const int arrays = !positions.is_none() + !velocities.is_none() + !masses.is_none();
    if (!scene.is_none()) {
        if (arrays) throw py::type_error("Simulation: give a scene or arrays, not both");
        return from_scene(py::cast<std::string>(py::str(scene)), bodies, seed, kwargs);
    }
    if (arrays != 3) throw py::type_error("Simulation: give a scene, or positions, velocities and masses");
    if (bodies || seed) throw py::type_error("Simulation: bodies and seed apply to scenes only");
    return from_arrays(positions, velocities, masses, kwargs);
}

// (n, 3) or (n,) filled by get(sim, pointer) without the GIL.
template <typename Get>
Array read_rows(PySimulation& self, std::size_t columns, Get get) {
    const std::size_t n = without_gil(self, [](api::Simulation& s) { return s.size(); });
    Array out = float64_rows(n, columns);
    double* data = out.mutable_data();
    without_gil(self, [&](api::Simulation& s) { get(s, data); });
    return out;
}

Array vector3(const std::array<double, 3>& v) {
    Array out = float64_rows(3, 0);
    for (int i = 0; i < 3; ++i) out.mutable_data()[i] = v[i];
    return out;
}

py::dict diagnostics_dict(const api::Diagnostics& d) {
    py::dict out;
    out["time"] = d.time, out["mass"] = d.mass;
    out["kinetic"] = d.kinetic, out["potential"] = d.potential, out["total"] = d.total;
    out["virial_ratio"] = d.virial_ratio;
    out["momentum"] = vector3(d.momentum), out["angular_momentum"] = vector3(d.angular_momentum);
    out["com_position"] = vector3(d.com_position), out["com_velocity"] = vector3(d.com_velocity);
    out["energy_error"] = d.energy_error, out["momentum_drift"] = d.momentum_drift;
    return out;
}

std::unique_ptr<PySimulation> load(const std::string& path, const py::kwargs& kwargs) {
    auto sim = with_gl_row(api::Simulation::from_snapshot(path));
    if (kwargs.size() > 0) sim.set_params(with_kwargs(sim.params(), kwargs));
    return std::make_unique<PySimulation>(std::move(sim));
}

void bind_snapshots(py::class_<PySimulation>& c) {
    c.def_static(
        "load", [](const py::object& path, const py::kwargs& kwargs) { return load(py::str(path), kwargs); },
        py::arg("path"),
        "A simulation from a snapshot the library wrote (save), by its name: CSV (*.csv) or HDF5 (*.hdf5, "
        "*.h5) with its time, G, eps and dt, or tipsy (*.tipsy, *.std, *.bin, either byte order) with its "
        "time; params as the properties override. An unreadable or malformed file is a RuntimeError naming "
        "the file and the line or byte.");
    c.def(
        "save",
        [](PySimulation& self, const py::object& path) {
            const std::string p = py::str(path);
            without_gil(self, [&p](api::Simulation& s) { s.save(p); });
        },
        py::arg("path"),
        "Writes the state in the format its name asks for: *.csv the sandbox's CSV snapshot (float64 to the "
        "last bit, with time, G, eps and dt), *.hdf5 or *.h5 the same as a GADGET/SWIFT HDF5 snapshot (h5py, "
        "yt), *.tipsy, *.std or *.bin tipsy (float32, big-endian, as pynbody reads); load() and "
        "nbody-sandbox --load-snapshot resume from each. RuntimeError naming the path when it cannot be "
        "written, or naming the formats for another name.");
}

void bind_params(py::class_<PySimulation>& c) {
    for (const ParamField& f : param_fields()) {
        auto get = py::cpp_function([f](PySimulation& self) {
            const api::Params p = PySimulation::Use(self)->params();
            return f.get(p, f.name);
        });
        // Applied at once (between steps) and checked by the engine: out of range is a ValueError naming
        // the field and its range, and the old value stays.
        auto set = py::cpp_function([f](PySimulation& self, const py::object& value) {
            PySimulation::Use sim(self);
            api::Params p = sim->params();
            f.set(p, value, f.name);
            sim->set_params(p);
        });
        c.def_property(f.name, get, set, f.doc);
    }
    c.def_property_readonly(
        "params", [](PySimulation& self) { return params_dict(PySimulation::Use(self)->params()); },
        "Every parameter as a dict (a copy: assign the properties or call set_params to change them).");
    c.def(
        "set_params",
        [](PySimulation& self, const py::kwargs& kwargs) {
            PySimulation::Use sim(self);
            sim->set_params(with_kwargs(sim->params(), kwargs));
        },
        "Sets several parameters at once, all checked together before any is applied (e.g. "
        "integrator='hermite', dt=1e-3). Raises ValueError naming the field out of range and TypeError for "
        "an unknown name; the old parameters stay on error.");
}

const char* const k_init_doc = R"(A direct-summation N-body simulation in N-body units.

From a scene: ``scene`` is a scene file's path or a shipped scene's name ('plummer', 'cartwheel.toml', see
nbody.scenes()); ``bodies`` > 0 rescales its components to that total, ``seed`` replaces its seed. The
scene's dt, eps, G, precision, integrator and eta apply unless given in ``params``.

From arrays: ``positions`` and ``velocities`` of shape (N, 3), ``masses`` of shape (N,), any real dtype
(converted to float64). A wrong shape or dtype is a ValueError naming the array; a NaN or infinite value or
a negative mass is a ValueError naming the array and the index, e.g. 'positions[3]: z is nan; ...'.

``params``: dt, eps, G, eta, backend, precision, integrator, variant, method, gpus, cpu_threads (see the
properties of the same names). Raises ValueError for a parameter out of range or a bad scene file (its
message names file:line:column), RuntimeError when the backend cannot be made.)";

// The state and diagnostics, read without the GIL into new arrays.
void bind_state(py::class_<PySimulation>& c) {
    c.def_property_readonly(
        "time", [](PySimulation& self) { return PySimulation::Use(self)->time(); },
        "Simulated time (N-body units).");
    c.def_property_readonly(
        "steps", [](PySimulation& self) { return PySimulation::Use(self)->steps(); },
        "Steps taken since the start (block steps under hermite-block).");
    c.def(
        "__len__", [](PySimulation& self) { return PySimulation::Use(self)->size(); },
        "The number of bodies.");
    c.def_property_readonly(
        "positions",
        [](PySimulation& self) { return read_rows(self, 3, [](auto& s, double* o) { s.get_positions(o); }); },
        "Positions, a new float64 array of shape (N, 3).");
    c.def_property_readonly(
        "velocities",
        [](PySimulation& self) {
            return read_rows(self, 3, [](auto& s, double* o) { s.get_velocities(o); });
        },
        "Velocities, a new float64 array of shape (N, 3).");
    c.def_property_readonly(
        "masses",
        [](PySimulation& self) { return read_rows(self, 0, [](auto& s, double* o) { s.get_masses(o); }); },
        "Masses, a new float64 array of shape (N,).");
    c.def_property_readonly(
        "groups",
        [](PySimulation& self) {
            const std::size_t n = without_gil(self, [](api::Simulation& s) { return s.size(); });
            py::array_t<std::uint32_t, py::array::c_style> out({static_cast<py::ssize_t>(n)});
            std::uint32_t* data = out.mutable_data();
            without_gil(self, [data](api::Simulation& s) { s.get_groups(data); });
            return out;
        },
        "The scene component (its group number) each body came from, a new uint32 array of shape (N,); 0 for "
        "bodies from arrays.");
    c.def(
        "accelerations",
        [](PySimulation& self) {
            return read_rows(self, 3, [](auto& s, double* o) { s.get_accelerations(o); });
        },
        "Accelerations at the current positions (G included, softened by eps) as the backend computes them, "
        "float64 of shape (N, 3).");
    c.def(
        "potentials",
        [](PySimulation& self) {
            return read_rows(self, 0, [](auto& s, double* o) { s.get_potentials(o); });
        },
        "Each body's specific potential phi_i = -G sum_{j != i} m_j / sqrt(r_ij^2 + eps^2), float64 of shape "
        "(N,), computed in float64 on the CPU (O(N^2)).");
    c.def(
        "diagnostics",
        [](PySimulation& self) {
            return diagnostics_dict(without_gil(self, [](api::Simulation& s) { return s.diagnostics(); }));
        },
        "Conserved quantities in float64 (O(N^2) on the CPU): time, mass, kinetic, potential, total "
        "(energies), virial_ratio (2T/|W|), momentum, angular_momentum, com_position, com_velocity (arrays "
        "of 3), energy_error (|E - E0| / |E0| since the start or the last change of eps or G) and "
        "momentum_drift (|P - P0| / sum m|v| at the start).");
    c.def(
        "energy",
        [](PySimulation& self) {
            return without_gil(self, [](api::Simulation& s) { return s.diagnostics().total; });
        },
        "The total energy E = T + W (softened potential), in float64.");
    c.def(
        "block_levels",
        [](PySimulation& self) -> py::object {
            const auto l = without_gil(self, [](api::Simulation& s) { return s.block_levels(); });
            if (!l) return py::none();
            py::dict out;
            out["dt_max"] = l->dt_max, out["counts"] = py::cast(l->counts);
            out["last_active"] = l->last_active;
            return out;
        },
        "Block-step integrators (leapfrog-block, hermite-block, hermite6-block): a dict of dt_max (the "
        "largest step), counts (a list: counts[k] bodies take the step dt_max / 2^k now) and last_active "
        "(bodies the last block step advanced; 0 before the first since the start or a change of "
        "parameters). None under shared steps. The GPU tree counts the levels on the device; the CUDA Hermite "
        "engine copies every body's step for it.");
}

void bind_backend(py::class_<PySimulation>& c) {
    c.def_property_readonly(
        "backend_name", [](PySimulation& self) { return PySimulation::Use(self)->backend_name(); },
        "The backend in use, e.g. 'cpu (16 threads, avx512f)'; made on first use.");
    c.def_property_readonly(
        "backend_note", [](PySimulation& self) { return PySimulation::Use(self)->backend_note(); },
        "Why this backend was chosen (e.g. the CPU fallback's reason); empty when nothing to say.");
    c.def_property_readonly(
        "kernel", [](PySimulation& self) { return PySimulation::Use(self)->kernel(); },
        "What evaluates the forces, e.g. 'ij-unrolled k 4 u 4 block 256 q 32 (auto), fp32'.");
    c.def("__repr__", [](PySimulation& self) {
        PySimulation::Use sim(self);
        return "<nbody.Simulation of " + std::to_string(sim->size()) +
               " bodies at t = " + std::to_string(sim->time()) + ", " + sim->params().integrator + ", " +
               sim->params().precision + ">";
    });
}

}  // namespace

void bind_simulation(py::module_& m) {
    py::class_<PySimulation> c(m, "Simulation", "A direct-summation N-body simulation (libnbody).");
    c.def(py::init(&construct), py::arg("scene") = py::none(), py::kw_only(),
          py::arg("positions") = py::none(), py::arg("velocities") = py::none(),
          py::arg("masses") = py::none(), py::arg("bodies") = 0, py::arg("seed") = py::none(), k_init_doc);
    bind_params(c);
    bind_snapshots(c);
#ifdef NBODY_PYTHON_RENDER
    bind_render(c);
#endif
    bind_stepping(c);
    bind_state(c);
    bind_backend(c);
}

}  // namespace nbody::python
