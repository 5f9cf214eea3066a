#pragma once
// The Python Simulation: a libnbody Simulation and a busy flag. step() and evolve() run without the GIL, so
// another Python thread may call into the same object meanwhile; libnbody's Simulation is used from one
// thread at a time, so such a call is refused with a RuntimeError instead of racing.
#include <pybind11/pybind11.h>

#include <nbody/nbody.hpp>

#include <atomic>
#include <stdexcept>
#include <utility>

namespace nbody::python {

namespace py = pybind11;

class PySimulation {
  public:
    explicit PySimulation(api::Simulation s) : m_sim(std::move(s)) {}

    // Holds the simulation for one call; a second holder at the same time throws std::runtime_error
    // (RuntimeError in Python).
    class Use {
      public:
        explicit Use(PySimulation& s) : m_s(s) {
            if (m_s.m_busy.exchange(true))
                throw std::runtime_error(
                    "Simulation is busy in another thread (step or evolve in progress); wait for it to "
                    "return");
        }
        ~Use() { m_s.m_busy = false; }
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        api::Simulation* operator->() { return &m_s.m_sim; }
        api::Simulation& operator*() { return m_s.m_sim; }

      private:
        PySimulation& m_s;
    };

  private:
    api::Simulation m_sim;
    std::atomic<bool> m_busy{false};
};

// Runs f(simulation) while holding the simulation and without the GIL (f must not touch Python objects).
template <typename F>
auto without_gil(PySimulation& self, F&& f) {
    PySimulation::Use sim(self);
    py::gil_scoped_release release;
    return f(*sim);
}

void bind_simulation(py::module_& m);
// nbody.bench (bench_binding.cpp): nbody-bench's rows as dicts.
void bind_bench(py::module_& m);
// step and evolve (stepping.cpp).
void bind_stepping(py::class_<PySimulation>& c);
// Simulation.render (render_binding.cpp), where the module is built with the renderer.
void bind_render(py::class_<PySimulation>& c);

}  // namespace nbody::python
