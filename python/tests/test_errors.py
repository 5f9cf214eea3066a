"""Bad input raises ValueError (TypeError for a wrong kind of argument) naming the array or field and the
index or range; run-time and backend failures raise RuntimeError with the engine's message."""
import numpy as np
import pytest

import nbody
from conftest import circular_pair


def build(positions, velocities, masses, **params):
    return nbody.Simulation(positions=positions, velocities=velocities, masses=masses, **params)


def test_wrong_shapes_name_the_array(small_arrays):
    x, v, m = small_arrays
    with pytest.raises(ValueError, match=r"^positions: shape \(4, 2\) where \(4, 3\) is needed$"):
        build(x[:, :2], v, m)
    with pytest.raises(ValueError, match=r"^velocities: shape \(3, 3\) where \(4, 3\) is needed$"):
        build(x, v[:3], m)
    with pytest.raises(ValueError, match=r"^masses: shape \(4, 1\) where \(N,\) is needed$"):
        build(x, v, m.reshape(4, 1))
    with pytest.raises(ValueError, match=r"^positions: shape \(12,\)"):
        build(x.ravel(), v, m)


def test_wrong_dtypes_name_the_array(small_arrays):
    x, v, m = small_arrays
    with pytest.raises(ValueError, match=r"^velocities: dtype complex128 is not a real number type"):
        build(x, v.astype(np.complex128), m)
    with pytest.raises(ValueError, match=r"^masses: dtype bool is not a real number type"):
        build(x, v, np.ones(4, dtype=bool))
    with pytest.raises(ValueError, match=r"^positions: dtype <U1 is not a real number type"):
        build(np.full((4, 3), "a"), v, m)


@pytest.mark.parametrize("array,row,column,value,message", [
    ("positions", 2, 1, np.nan, r"^positions\[2\]: y is nan; every value must be finite$"),
    ("velocities", 3, 0, np.inf, r"^velocities\[3\]: x is inf; every value must be finite$"),
    ("masses", 1, None, -2.0, r"^masses\[1\]: is -2; masses must be >= 0$"),
    ("masses", 0, None, np.nan, r"^masses\[0\]: is nan; every value must be finite$"),
])
def test_bad_values_name_the_array_and_index(small_arrays, array, row, column, value, message):
    arrays = dict(zip(["positions", "velocities", "masses"], (a.copy() for a in small_arrays)))
    if column is None:
        arrays[array][row] = value
    else:
        arrays[array][row, column] = value
    with pytest.raises(ValueError, match=message):
        nbody.Simulation(**arrays)


def test_negative_dt_is_refused_with_its_range_and_the_old_value_stays(pair):
    with pytest.raises(ValueError, match=r"^dt: must be from 1e-12 to 1e6 \(got -1\)$"):
        pair.dt = -1
    assert pair.dt == 1e-3
    pair.step(2)
    assert pair.steps == 2


@pytest.mark.parametrize("field,value,message", [
    ("backend", "gpu", r"^backend: must be one of auto, cpu, cuda, gl \(got 'gpu'\)$"),
    ("precision", "fp16", r"^precision: must be one of .*fp64.* \(got 'fp16'\)$"),
    ("integrator", "euler", r"^integrator: must be one of .*hermite.* \(got 'euler'\)$"),
    ("eta", 0.0, r"^eta: "),
    ("G", 0.0, r"^G: "),
    ("cpu_threads", -1, r"^cpu_threads: "),
])
def test_out_of_range_parameters_are_value_errors(pair, field, value, message):
    before = pair.params
    with pytest.raises(ValueError, match=message):
        setattr(pair, field, value)
    assert pair.params == before


def test_wrong_kinds_of_argument_are_type_errors(pair):
    with pytest.raises(TypeError, match=r"^dt: must be a number \(got str\)$"):
        pair.dt = "big"
    with pytest.raises(TypeError, match=r"^backend: must be a str \(got int\)$"):
        pair.backend = 3
    with pytest.raises(TypeError, match=r"^unknown parameter 'dtt' \(known: dt, eps, G"):
        circular_pair(dtt=0.1)
    with pytest.raises(TypeError, match="a scene or arrays, not both"):
        nbody.Simulation("plummer", masses=[1.0])
    with pytest.raises(TypeError, match="positions, velocities and masses"):
        nbody.Simulation(masses=[1.0])


def test_set_params_is_all_or_nothing(pair):
    with pytest.raises(ValueError, match=r"^eps: "):
        pair.set_params(dt=0.5, eps=-1.0)
    assert pair.dt == 1e-3


def test_scene_errors_name_the_file_and_line(tmp_path):
    with pytest.raises(ValueError, match=r"nosuch\.toml:0:0: not a regular file"):
        nbody.Simulation(str(tmp_path / "nosuch.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text('dt = 0.01\n[[component]]\ntype = "plummer"\nn = -5\n')
    with pytest.raises(ValueError, match=r"bad\.toml:\d+:\d+: "):
        nbody.Simulation(bad)


def test_a_misspelt_scene_name_lists_the_scenes():
    with pytest.raises(ValueError, match=r"^no scene file or shipped scene 'cartweel' \(did you mean 'cartwheel'\?\); "
                                         r"the shipped scenes: .*plummer"):
        nbody.Simulation("cartweel")


def test_without_numpy_the_import_fails_and_says_so():
    import os
    import subprocess
    import sys
    hide = "import sys; sys.modules['numpy'] = None; import nbody"  # numpy unimportable, as where it is missing
    r = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, env=dict(os.environ))
    assert r.returncode != 0
    assert "ImportError: nbody needs numpy" in r.stderr, r.stderr


def test_negative_step_count(pair):
    with pytest.raises(ValueError, match=r"^k: must be >= 0 \(got -1\)$"):
        pair.step(-1)


def test_blow_up_is_a_runtime_error_naming_the_step():
    # A speed near the largest double and the largest step: the first drift leaves the doubles.
    sim = nbody.Simulation(positions=[[0, 0, 0], [1, 0, 0]], velocities=[[0, 0, 0], [1e308, 0, 0]], masses=[1, 1],
                           dt=1e6, backend="cpu", precision="fp64")
    with pytest.raises(RuntimeError, match=r"NaN or infinite at step 1 \(body \d\)"):
        sim.step(1)


@pytest.mark.skipif(nbody.cuda_device_count() > 0, reason="a CUDA device is present")
def test_cuda_without_a_device_is_a_runtime_error(pair):
    with pytest.raises(RuntimeError, match="cuda"):
        pair.backend = "cuda"
        pair.step(1)
