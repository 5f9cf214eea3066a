"""The stub nbody.pyi beside the module lists exactly what the module has, so editors see the real API."""
import ast
import os

import nbody


def stub_names():
    path = os.path.join(os.path.dirname(nbody.__file__), "nbody.pyi")
    tree = ast.parse(open(path).read(), path)
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Simulation")
    members = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    members |= {n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)}
    return functions, members


def test_the_stub_matches_the_module():
    functions, members = stub_names()
    module_functions = {n for n in dir(nbody) if not n.startswith("_") and callable(getattr(nbody, n))} - {
        "Simulation"}
    assert functions == module_functions
    public = {n for n in dir(nbody.Simulation) if not n.startswith("_")} | {"__init__", "__len__"}
    if "render" not in public:  # built without the renderer (NBODY_PYTHON_RENDER=OFF)
        members.discard("render")
    assert members == public
