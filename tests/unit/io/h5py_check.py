#!/usr/bin/python3
"""h5py (Debian's python3-h5py) reads an nbody-sandbox HDF5 snapshot back as a GADGET/SWIFT snapshot.

Usage: h5py_check.py NBODY_SANDBOX SCENE   (exit 77: h5py or HDF5 support missing, ctest skips)
"""
import os
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
except ImportError as e:
    print(f"skip: {e}")
    sys.exit(77)

exe, scene = sys.argv[1], sys.argv[2]
with tempfile.TemporaryDirectory() as d:
    out, csv = os.path.join(d, "s.hdf5"), os.path.join(d, "s.csv")
    common = [exe, "--headless", "--quiet", "--backend", "cpu", scene, "--bodies", "300", "--steps", "5",
              "--dt", "0.01"]
    r = subprocess.run(common + ["--save", out], capture_output=True, text=True)
    if "HDF5 support is not built" in r.stderr:
        print("skip: HDF5 support is not built")
        sys.exit(77)
    assert r.returncode == 0, r.stderr
    subprocess.run(common + ["--save", csv], check=True, capture_output=True)
    with h5py.File(out, "r") as f:
        h = f["Header"].attrs
        assert list(h["NumPart_ThisFile"]) == [0, 300, 0, 0, 0, 0], h["NumPart_ThisFile"]
        assert list(h["NumPart_Total"]) == [0, 300, 0, 0, 0, 0]
        assert list(h["MassTable"]) == [0.0] * 6
        assert h["NumFilesPerSnapshot"] == 1 and h["Redshift"] == 0.0
        p = f["PartType1"]
        x, v, m, ids = p["Coordinates"][:], p["Velocities"][:], p["Masses"][:], p["ParticleIDs"][:]
        assert x.shape == (300, 3) and x.dtype == np.float64, (x.shape, x.dtype)
        assert v.shape == (300, 3) and m.shape == (300,) and ids.shape == (300,)
        assert (ids == np.arange(300)).all()
        # the same run's CSV snapshot (%.17g, exact): every value equal bit for bit
        rows = [l for l in open(csv) if not l.startswith("#")][1:]
        ref = np.array([[float(c) for c in l.split(",")] for l in rows])
        assert (ref[:, 2] == m).all() and (ref[:, 3:6] == x).all() and (ref[:, 6:9] == v).all()
        t = float(next(l for l in open(csv) if l.startswith("# time")).split("=")[1])
        assert h["Time"] == t, (h["Time"], t)
print("h5py read 300 bodies: Header, Coordinates, Velocities, Masses, ParticleIDs match the CSV snapshot")
