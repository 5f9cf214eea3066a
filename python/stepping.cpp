// step(k) and evolve(t) without the GIL, in chunks of about 0.2 to 0.8 s between which Ctrl-C (or any
// signal handler that raises) is answered (each engine call ends by reading the state back to check it is
// finite: at 10^6 bodies on a GPU ~10 ms, a few percent of a chunk): a long run in a notebook stops with
// KeyboardInterrupt after the chunk in flight, and the simulation stays consistent (whole steps, its time and
// step count agreeing).
#include <algorithm>
#include <chrono>
#include <cmath>

#include "py_simulation.hpp"

namespace nbody::python {

namespace {

// Takes k steps in chunks; a full chunk doubles while it takes under 0.2 s and halves above 0.8 s, so fast
// steps cost few GIL round trips.
void step(PySimulation& self, long long k) {
    if (k < 0) without_gil(self, [k](api::Simulation& s) { s.step(k); });  // the engine's ValueError
    using Clock = std::chrono::steady_clock;
    long long chunk = 1;
    for (long long left = k; left > 0;) {
        const long long n = std::min(chunk, left);
        left -= n;
        const auto t0 = Clock::now();
        without_gil(self, [n](api::Simulation& s) { s.step(n); });
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        const double took = std::chrono::duration<double>(Clock::now() - t0).count();
        if (took < 0.2 && n == chunk && chunk < (1LL << 40))
            chunk *= 2;
        else if (took > 0.8 && chunk > 1)
            chunk /= 2;
    }
}

// The engine's evolve to intermediate times t_i < t, then to t: each stops at the first step (or block)
// boundary at or after t_i, never past the first one at or after t, so the run is the one evolve(t) makes.
// The span of simulated time per chunk doubles while a chunk takes under 0.2 s and halves above 0.8 s.
double evolve(PySimulation& self, double t) {
    if (!std::isfinite(t)) return without_gil(self, [t](api::Simulation& s) { return s.evolve(t); });
    using Clock = std::chrono::steady_clock;
    double span = PySimulation::Use(self)->params().dt;
    for (;;) {
        const double target = std::min(t, PySimulation::Use(self)->time() + span);
        const auto t0 = Clock::now();
        const double reached = without_gil(self, [target](api::Simulation& s) { return s.evolve(target); });
        if (target >= t) return reached;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        const double took = std::chrono::duration<double>(Clock::now() - t0).count();
        if (took < 0.2)
            span *= 2;
        else if (took > 0.8)
            span = std::max(span / 2, PySimulation::Use(self)->params().dt);
    }
}

}  // namespace

void bind_stepping(py::class_<PySimulation>& c) {
    c.def("step", &step, py::arg("k") = 1,
          "Takes k steps (hermite-block: k block steps) without holding the GIL, answering Ctrl-C "
          "(KeyboardInterrupt) between chunks of under a second. Raises ValueError for k < 0 and "
          "RuntimeError when the state turns NaN or infinite (naming the step and body).");
    c.def("evolve", &evolve, py::arg("t"),
          "Steps until the time reaches t (the first step boundary at or after it; no step when already "
          "there) without holding the GIL, answering Ctrl-C (KeyboardInterrupt) between chunks of under a "
          "second, and returns the time reached.");
}

}  // namespace nbody::python
