"""backend='gl': the GL compute backend through a headless EGL context (Mesa's llvmpipe here, NVIDIA's GL on
the GPU machine) steps like the CPU backend. Skipped only where no EGL context with compute can be made."""
import numpy as np
import pytest

import nbody


def gl_or_skip(sim):
    try:
        sim.step(1)
    except RuntimeError as e:
        if "--backend gl" in str(e):
            pytest.skip(str(e))
        raise


def test_gl_follows_the_cpu_backend_and_switches_back():
    gl = nbody.Simulation("plummer", bodies=512, seed=3, backend="gl", eps=0.05, dt=1e-3)
    cpu = nbody.Simulation("plummer", bodies=512, seed=3, backend="cpu", eps=0.05, dt=1e-3)
    gl_or_skip(gl)
    assert gl.backend_name.startswith("gl (")
    gl.step(19)
    cpu.step(20)
    moved = np.abs(cpu.positions - nbody.Simulation("plummer", bodies=512, seed=3).positions).max()
    assert moved > 1e-4
    assert np.abs(gl.positions - cpu.positions).max() < 1e-3 * moved
    before = gl.positions.copy()
    gl.backend = "cpu"  # the bodies carry over
    assert gl.backend_name.startswith("cpu")
    assert np.array_equal(gl.positions, before)
    assert gl.steps == 20


def test_bench_gl_rows_are_gl_compute():
    try:
        rows = nbody.bench(sizes=[300], variants=["auto", "ij"], backend="gl", seconds=0.01, repeats=1)
    except RuntimeError as e:
        if "backend 'gl'" in str(e):
            pytest.skip(str(e))
        raise
    assert [r["variant"] for r in rows] == ["auto", "ij-unrolled"]
    for r in rows:
        assert r["backend"] == "gl" and r["kernel"].startswith("gl ")
        assert r["interactions_per_s"] > 0 and r["max_rel_force_error"] < 1e-4
        assert r["block"] == 256 and r["k"] == 4


def test_rendering_between_gl_steps_keeps_the_gl_state():
    # The renderer's EGL context and the backend's share the EGL display: drawing must not end the other.
    gl = nbody.Simulation("plummer", bodies=256, seed=5, backend="gl", dt=1e-3)
    cpu = nbody.Simulation("plummer", bodies=256, seed=5, backend="cpu", dt=1e-3)
    gl_or_skip(gl)
    try:
        gl.render(32, 24)
    except RuntimeError as e:
        pytest.skip(str(e))
    gl.step(2)
    gl.render(32, 24)
    cpu.step(3)
    assert gl.steps == 3
    assert np.abs(gl.positions - cpu.positions).max() < 1e-5
