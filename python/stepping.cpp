// step(k) and evolve(t) without the GIL, in chunks of about 0.05 to 0.2 s between which Ctrl-C (or any
// signal handler that raises) is answered: a long run in a notebook stops with KeyboardInterrupt after the
// chunk in flight, and the simulation stays consistent (whole steps, its time and step count agreeing).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include "py_simulation.hpp"

namespace nbody::python {

namespace {

// Takes steps in chunks until remaining() (asked between chunks, with the GIL) is 0; a full chunk doubles
// while it takes under 0.05 s and halves above 0.2 s, so fast steps cost few GIL round trips.
void step_in_chunks(PySimulation& self, const std::function<long long()>& remaining) {
    using Clock = std::chrono::steady_clock;
    long long chunk = 1;
    for (long long left = remaining(); left > 0; left = remaining()) {
        const long long n = std::min(chunk, left);
        const auto t0 = Clock::now();
        without_gil(self, [n](api::Simulation& s) { s.step(n); });
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        const double took = std::chrono::duration<double>(Clock::now() - t0).count();
        if (took < 0.05 && n == chunk && chunk < (1LL << 40))
            chunk *= 2;
        else if (took > 0.2 && chunk > 1)
            chunk /= 2;
    }
}

void step(PySimulation& self, long long k) {
    if (k < 0) without_gil(self, [k](api::Simulation& s) { s.step(k); });  // the engine's ValueError
    const long long start = PySimulation::Use(self)->steps();
    step_in_chunks(self, [&] { return k - (PySimulation::Use(self)->steps() - start); });
}

// Whole steps first, as many as surely end before t (a step, or a block step, advances the time by at
// most dt), then the engine's evolve for the last ones, so the result is the engine's to the bit.
double evolve(PySimulation& self, double t) {
    if (std::isfinite(t)) {
        step_in_chunks(self, [&] {
            PySimulation::Use sim(self);
            const double whole = std::floor((t - sim->time()) / sim->params().dt) - 1;
            return whole >= 1 ? static_cast<long long>(std::min(whole, 1e15)) : 0LL;
        });
    }
    return without_gil(self, [t](api::Simulation& s) { return s.evolve(t); });
}

}  // namespace

void bind_stepping(py::class_<PySimulation>& c) {
    c.def(
        "step", &step, py::arg("k") = 1,
        "step(k=1)\n\nTakes k steps (hermite-block: k block steps) without holding the GIL, answering Ctrl-C "
        "(KeyboardInterrupt) between chunks of about 0.1 s. Raises ValueError for k < 0 and RuntimeError "
        "when the state turns NaN or infinite (naming the step and body).");
    c.def("evolve", &evolve, py::arg("t"),
          "evolve(t) -> float\n\nSteps until the time reaches t (the first step boundary at or after it; no "
          "step when already there) without holding the GIL, answering Ctrl-C (KeyboardInterrupt) between "
          "chunks of about 0.1 s, and returns the time reached.");
}

}  // namespace nbody::python
