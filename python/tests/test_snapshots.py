"""save() and Simulation.load() through libnbody's snapshot readers and writers, the format chosen by the file's
extension: the CSV and HDF5 snapshots round-trip exactly and resume the run bit for bit; tipsy keeps float32; bad
files and unknown extensions are errors naming the file."""
import numpy as np
import pytest

import nbody
from conftest import circular_pair


def test_csv_snapshot_round_trips_exactly_and_resumes(tmp_path):
    sim = nbody.Simulation("plummer", bodies=128, backend="cpu", precision="fp64", dt=0.005, seed=9)
    sim.step(7)
    path = tmp_path / "state.csv"
    sim.save(path)
    back = nbody.Simulation.load(path, backend="cpu", precision="fp64")
    for name in ["positions", "velocities", "masses"]:
        assert np.array_equal(getattr(back, name), getattr(sim, name)), name
    assert back.time == sim.time
    assert (back.dt, back.eps, back.G) == (sim.dt, sim.eps, sim.G)
    sim.step(5)
    back.step(5)
    assert np.array_equal(back.positions, sim.positions)


def test_hdf5_snapshot_round_trips_exactly(tmp_path):
    sim = nbody.Simulation("plummer", bodies=64, backend="cpu", precision="fp64", dt=0.005, seed=3)
    sim.step(4)
    path = tmp_path / "state.hdf5"
    try:
        sim.save(path)
    except RuntimeError as e:
        if "HDF5 support is not built" in str(e):
            pytest.skip(str(e))
        raise
    back = nbody.Simulation.load(path, backend="cpu", precision="fp64")
    for name in ["positions", "velocities", "masses"]:
        assert np.array_equal(getattr(back, name), getattr(sim, name)), name
    assert back.time == sim.time
    assert (back.dt, back.eps, back.G) == (sim.dt, sim.eps, sim.G)


def test_tipsy_keeps_float32(tmp_path):
    sim = circular_pair()
    sim.step(10)
    path = tmp_path / "state.tipsy"
    sim.save(str(path))
    assert path.stat().st_size == 32 + 2 * 36  # header, and 9 float32 per dark-matter body
    back = nbody.Simulation.load(str(path))
    assert np.allclose(back.positions, sim.positions, rtol=1e-7, atol=1e-7)
    assert np.allclose(back.velocities, sim.velocities, rtol=1e-7, atol=1e-7)
    assert back.time == pytest.approx(sim.time, rel=1e-12)


def test_bad_snapshots_name_the_file(tmp_path):
    with pytest.raises(RuntimeError, match=r"nosuch\.csv: not a regular file"):
        nbody.Simulation.load(tmp_path / "nosuch.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,z\n1,2\n")
    with pytest.raises(RuntimeError, match=r"bad\.csv:\d+: "):
        nbody.Simulation.load(bad)
    with pytest.raises(RuntimeError, match="cannot write the snapshot"):
        circular_pair().save(tmp_path / "no" / "such" / "dir.csv")
    unknown = r"state\.dat: unknown extension '\.dat' for a snapshot; the formats are CSV"
    with pytest.raises(RuntimeError, match=unknown):
        circular_pair().save(tmp_path / "state.dat")
