"""Simulation.block_levels: the bodies on each block-step level and the last block step's active count."""
import nbody


def test_leapfrog_block_levels_count_every_body():
    # Plummer, N = 512, eps 0.01: |a| ~ 1 asks eta sqrt(eps / |a|) ~ 0.005, levels 3 and 4 below dt_max = 1/16.
    sim = nbody.Simulation("plummer", bodies=512, backend="cpu", seed=3, integrator="leapfrog-block",
                           eta=0.05, dt=1 / 16)
    levels = sim.block_levels()
    assert levels["last_active"] == 0  # no block step yet
    sim.step(4)
    levels = sim.block_levels()
    assert set(levels) == {"dt_max", "counts", "last_active"}
    assert levels["dt_max"] == 1 / 16
    assert isinstance(levels["counts"], list) and len(levels["counts"]) > 1
    assert sum(levels["counts"]) == 512
    assert 0 < levels["last_active"] <= 512


def test_hermite_block_has_levels_and_shared_steps_none(pair):
    assert pair.block_levels() is None  # leapfrog
    pair.set_params(integrator="hermite-block", eta=0.02, dt=1 / 64)
    pair.step(2)
    levels = pair.block_levels()
    assert sum(levels["counts"]) == 2
    assert levels["last_active"] == 2  # equal masses on a circle: one step for both
    pair.set_params(integrator="hermite")
    assert pair.block_levels() is None
