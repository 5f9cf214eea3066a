"""step() and evolve() release the GIL: a second Python thread makes progress while they run (it never
stands still for most of the call, as it would behind a held GIL), and a call into the same Simulation from
that thread meanwhile is refused instead of racing. Ctrl-C stops a long step or evolve between chunks."""
import _thread
import threading
import time

import pytest

import nbody


def big_sim():
    # 8,192 bodies on one CPU thread: about 10-40 ms a step on this project's machines.
    return nbody.Simulation("plummer", bodies=8192, backend="cpu", cpu_threads=1, seed=5)


def longest_stall(work):
    """Runs work() while a second thread counts; returns work's duration and the longest time the counter
    stood still inside it."""
    stop = threading.Event()
    pauses = []  # (from, to) of every stall longer than 1 ms

    def counter():
        last = time.perf_counter()
        while not stop.is_set():
            now = time.perf_counter()
            if now - last > 1e-3:
                pauses.append((last, now))
            last = now

    t = threading.Thread(target=counter)
    t.start()
    time.sleep(0.02)  # the counter is running
    begin = time.perf_counter()
    work()
    end = time.perf_counter()
    stop.set()
    t.join()
    inside = [min(b, end) - max(a, begin) for a, b in pauses if b > begin and a < end]
    return end - begin, max(inside, default=0.0)


@pytest.mark.parametrize("call", ["step", "evolve"])
def test_a_second_thread_makes_progress(call):
    sim = big_sim()
    sim.step(1)  # the backend is made before timing
    work = (lambda: sim.step(10)) if call == "step" else (lambda: sim.evolve(sim.time + 0.1))
    took, stall = longest_stall(work)
    assert took > 0.05, f"{call} too short to judge ({took:.3f} s)"
    # Holding the GIL, the counter would stand still for all but one switch interval (5 ms) of the call;
    # released, it stops only when the OS runs something else on its core.
    assert stall < 0.5 * took, f"the counter stood still {stall:.3f} s of {took:.3f} s"


def test_a_call_during_a_step_is_refused():
    sim = big_sim()
    sim.step(1)
    errors = []
    stepping = threading.Event()

    def stepper():
        stepping.set()
        while True:  # this thread too may find the simulation busy with the reads below
            try:
                return sim.step(20)
            except RuntimeError as e:
                if "busy" not in str(e):
                    raise

    t = threading.Thread(target=stepper)
    t.start()
    stepping.wait()
    deadline = time.perf_counter() + 5
    while t.is_alive() and time.perf_counter() < deadline and not errors:
        try:
            sim.positions
        except RuntimeError as e:
            errors.append(str(e))
    t.join()
    assert errors and "busy in another thread" in errors[0]
    assert sim.steps == 21  # the step finished undisturbed


@pytest.mark.parametrize("call", ["step", "evolve"])
def test_ctrl_c_stops_a_long_run_between_chunks(call):
    sim = big_sim()
    sim.step(1)
    dt = sim.dt
    # About 30 ms a step: 300 steps would take seconds; Ctrl-C (interrupt_main) arrives after 0.3 s.
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sim.step(300) if call == "step" else sim.evolve(300 * dt)
    finally:
        timer.cancel()
    took = time.perf_counter() - start
    assert took < 0.3 + 2.0, f"answered Ctrl-C after {took:.2f} s"
    # Stopped at a chunk boundary, whole steps: time and step count agree, and it steps on from there.
    assert 1 < sim.steps < 301
    assert sim.time == pytest.approx(sim.steps * dt, rel=1e-9)
    sim.step(2)
    assert sim.time == pytest.approx(sim.steps * dt, rel=1e-9)
