"""Shared fixtures: the module under test comes from PYTHONPATH (the build tree's python/ folder)."""
import math

import numpy as np
import pytest

import nbody


def circular_pair(**params):
    """Two bodies of mass 1/2 at separation 1 on a circular orbit (G = 1): speed 1/2 each, period 2 pi."""
    positions = np.array([[-0.5, 0, 0], [0.5, 0, 0]], dtype=np.float64)
    velocities = np.array([[0, -0.5, 0], [0, 0.5, 0]], dtype=np.float64)
    masses = np.array([0.5, 0.5])
    defaults = dict(backend="cpu", precision="fp64", eps=0.0, dt=1e-3)
    defaults.update(params)
    return nbody.Simulation(positions=positions, velocities=velocities, masses=masses, **defaults)


PERIOD = 2 * math.pi


@pytest.fixture
def pair():
    return circular_pair()


@pytest.fixture
def small_arrays():
    """Four bodies at the corners of a square with small random velocities."""
    rng = np.random.default_rng(7)
    positions = np.array([[1.0, 0, 0], [0, 1.0, 0], [-1.0, 0, 0], [0, -1.0, 0]])
    velocities = rng.normal(scale=0.1, size=(4, 3))
    masses = np.full(4, 0.25)
    return positions, velocities, masses
