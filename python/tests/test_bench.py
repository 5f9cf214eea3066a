"""nbody.bench: nbody-bench's rows as dicts, with the keys of its JSON rows."""
import pytest

import nbody

# The keys nbody-bench writes in every JSON row (src/bench/bench_table.cpp, bench_row_fields).
ROW_KEYS = {
    "n", "interactions_per_s", "method", "body_body_per_s", "body_cell_per_s", "equivalent_direct_per_s",
    "backend", "variant", "kernel", "precision", "integrator", "gpus", "gflops_integrator",
    "flops_per_interaction_integrator", "k", "u", "block", "q", "s", "registers", "gflops_20", "gflops_38",
    "steps_per_s", "ms_per_step", "repeat_spread", "steps_per_repeat", "repeats",
}


def test_cpu_rows_have_nbody_benchs_keys_and_a_positive_rate():
    rows = nbody.bench(sizes=[512], methods=["direct", "tree"], backend="cpu", seconds=0.02, repeats=2)
    assert [(r["method"], r["variant"]) for r in rows] == [("direct", "cpu"), ("tree", "tree 1 a0.001")]
    for r in rows:
        assert set(r) == ROW_KEYS | {"max_rel_force_error", "median_rel_force_error", "p99_rel_force_error",
                                     "force_error_bodies"}
        assert r["force_error_bodies"] == 512  # every body: 512^2 pairs are far below the sample's budget
        assert r["n"] == 512 and r["backend"] == "cpu" and r["repeats"] == 2
        assert r["interactions_per_s"] > 0 and r["steps_per_s"] > 0
        assert 0 <= r["median_rel_force_error"] < 1e-3
    assert rows[0]["body_cell_per_s"] == 0  # direct summation has no cells


def test_tree_rows_for_each_theta_and_alpha():
    rows = nbody.bench(sizes=[512], methods=["tree"], backend="cpu", seconds=0.01, repeats=1, accuracy=False,
                       thetas=[0.5], alphas=[0.0, 0.002])
    assert [r["variant"] for r in rows] == ["tree 0.5", "tree 0.5 a0.002"]


def test_without_accuracy_there_are_no_error_keys():
    (row,) = nbody.bench(sizes=[256], backend="cpu", seconds=0.01, repeats=1, accuracy=False)
    assert set(row) == ROW_KEYS


def test_bad_names_and_numbers_are_value_errors():
    with pytest.raises(ValueError, match="methods"):
        nbody.bench(sizes=[64], methods=["fmm"], backend="cpu", seconds=0.01)
    with pytest.raises(ValueError, match="backend"):
        nbody.bench(sizes=[64], backend="gpu-please")
    with pytest.raises(ValueError, match="seconds"):
        nbody.bench(sizes=[64], backend="cpu", seconds=0)
