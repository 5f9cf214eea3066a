"""Type stub of the nbody module (python/module.cpp): the nbody-sandbox engine, libnbody, from Python."""
from typing import Any, Optional, Sequence, Union
import os

import numpy as np
import numpy.typing as npt

ArrayLike = npt.ArrayLike

def version() -> str:
    """The version of libnbody in use, e.g. '0.1.0'."""
def cuda_built() -> bool:
    """Whether libnbody was built with the CUDA backend (a device may still be missing)."""
def cuda_device_count() -> int:
    """CUDA devices libnbody can use: 0 without the CUDA backend, a driver or a device."""
def scenes_dir() -> str:
    """The folder of the shipped scenes (NBODY_SCENE_DIR overrides it)."""
def scenes() -> list[str]:
    """The shipped scenes' names, which Simulation(scene) accepts."""
def parameters() -> list[dict[str, Any]]:
    """Every numeric parameter: name, whole, lo, hi, zero, unit, applies_to, help and default."""
def bench(
    sizes: Sequence[int] = ...,
    variants: Sequence[str] = ...,
    methods: Sequence[str] = ...,
    seconds: float = 0.25,
    thetas: Sequence[float] = ...,
    precisions: Sequence[str] = ...,
    repeats: int = 5,
    accuracy: bool = True,
    backend: str = "auto",
    scene: str = "",
    eps: float = 0.01,
    alphas: Sequence[float] = ...,
) -> list[dict[str, Any]]:
    """nbody-bench's rows as dicts (the keys of its JSON rows: n, backend, variant, kernel, method,
    precision, interactions_per_s, steps_per_s, ms_per_step, ..., max_rel_force_error,
    p99_rel_force_error and median_rel_force_error with accuracy). Every size x method x precision x theta x alpha (tree) x variant (CUDA)
    is timed `repeats` times for about `seconds` each. backend: 'auto' (the GPU where usable, else the
    CPU), 'cpu', 'both' or 'gl' (the GL compute backend through a headless EGL context). sizes default to [512], variants to ['auto'], methods to ['direct'], thetas to
    [1.0] and alphas to [0.001] (the tree's default opening tests; alpha 0 is Barnes's theta alone),
    precisions to ['fp32'].
    """

class Simulation:
    """A direct-summation N-body simulation (libnbody), in N-body units.

    Build it from a scene (a path or a shipped scene's name) or from arrays (positions and velocities
    N x 3, masses N). Parameters are properties checked on assignment: a value out of range raises
    ValueError naming the field and its range, and the old value stays.
    """

    def __init__(
        self,
        scene: Union[str, os.PathLike[str], None] = None,
        *,
        positions: Optional[ArrayLike] = None,
        velocities: Optional[ArrayLike] = None,
        masses: Optional[ArrayLike] = None,
        bodies: int = 0,
        seed: Optional[int] = None,
        **params: Any,
    ) -> None:
        """From a scene (bodies > 0 rescales it, seed replaces its seed) or from arrays; params as the
        properties below. ValueError for a bad array (naming it and the index), parameter or scene file;
        RuntimeError when the backend cannot be made."""

    # Parameters (each checked by the engine on assignment).
    dt: float
    """Time step, from 1e-12 to 1e6 (hermite-block: the largest block step)."""
    eps: float
    """Plummer softening length: 0, or from 1e-9 to 1e4; changing it restarts the energy baseline."""
    G: float
    """Gravitational constant, from 1e-12 to 1e12; changing it restarts the energy baseline."""
    eta: float
    """Block-step accuracy parameter of hermite-block, hermite6-block (Aarseth's criterion) and leapfrog-block
    (eta sqrt(eps / |a|)), from 1e-6 to 1."""
    backend: str
    """'auto', 'cpu', 'cuda' or 'gl' (OpenGL 4.3 compute through a headless EGL context: fp32, leapfrog,
    direct)."""
    precision: str
    """'fp32', 'ds' (double-single) or 'fp64'."""
    integrator: str
    """'leapfrog', 'leapfrog-block', 'hermite', 'hermite-block', 'hermite6' or 'hermite6-block'."""
    variant: str
    """The CUDA kernel: 'auto' or a variant name; the CPU backend ignores it."""
    method: str
    """How forces are found: 'direct' or 'tree' (Barnes-Hut)."""
    gpus: int
    """GPUs the CUDA backend uses: 1 to 64, 0 = all."""
    cpu_threads: int
    """CPU backend threads: 1 to 1024, 0 = all."""
    theta: float
    """Barnes opening angle of method tree, from 1e-6 to 1.5: smaller is more accurate and slower."""
    alpha: float
    """Acceleration criterion of method tree, from 0 to 1 (0: off, theta alone decides)."""
    leaf: int
    """Method tree: a cell with more bodies than this (1 to 64) is split."""
    group: int
    """Method tree: consecutive bodies (8 to 128) sharing one interaction list in the walk."""
    @property
    def params(self) -> dict[str, Any]:
        """Every parameter as a dict (a copy)."""
    def set_params(self, **params: Any) -> None:
        """Sets several parameters at once, checked together before any is applied."""

    # Stepping (without the GIL).
    def step(self, k: int = 1) -> None:
        """Takes k steps (hermite-block: k block steps)."""
    def evolve(self, t: float) -> float:
        """Steps until the time reaches t (the first step boundary at or after it); returns the time reached."""

    # State.
    @property
    def time(self) -> float:
        """Simulated time."""
    @property
    def steps(self) -> int:
        """Steps taken since the start."""
    def __len__(self) -> int:
        """The number of bodies."""
    @property
    def positions(self) -> npt.NDArray[np.float64]:
        """Positions, a new float64 array of shape (N, 3)."""
    @property
    def velocities(self) -> npt.NDArray[np.float64]:
        """Velocities, a new float64 array of shape (N, 3)."""
    @property
    def masses(self) -> npt.NDArray[np.float64]:
        """Masses, a new float64 array of shape (N,)."""
    @property
    def groups(self) -> npt.NDArray[np.uint32]:
        """The scene component (group) each body came from, shape (N,); 0 for arrays."""
    def accelerations(self) -> npt.NDArray[np.float64]:
        """Accelerations at the current positions (G included, softened), shape (N, 3)."""
    def potentials(self) -> npt.NDArray[np.float64]:
        """Each body's specific potential -G sum_j m_j / sqrt(r_ij^2 + eps^2), shape (N,)."""
    def diagnostics(self) -> dict[str, Any]:
        """time, mass, kinetic, potential, total, virial_ratio, momentum, angular_momentum, com_position,
        com_velocity, energy_error, momentum_drift."""
    def energy(self) -> float:
        """The total energy E = T + W."""
    def block_levels(self) -> Optional[dict[str, Any]]:
        """Block steps: dt_max, counts (counts[k] bodies on the step dt_max / 2^k), last_active; else None."""

    # Snapshots.
    @staticmethod
    def load(path: Union[str, os.PathLike[str]], **params: Any) -> "Simulation":
        """A simulation from a CSV, HDF5 or tipsy snapshot (save), by its name; params override."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes by the name: *.csv or *.hdf5/*.h5 (float64, exact), *.tipsy/*.std/*.bin (float32)."""

    # A picture (where the module is built with the renderer).
    def render(
        self,
        width: int = 640,
        height: int = 480,
        *,
        point_size: Optional[float] = None,
        brightness: float = 1.0,
        color: str = "group",
        yaw: Optional[float] = None,
        pitch: Optional[float] = None,
        groups: Sequence[int] = (),
    ) -> npt.NDArray[np.uint8]:
        """The bodies drawn as the sandbox draws them through headless EGL: uint8 of shape (height, width, 3);
        RuntimeError where no headless OpenGL context can be made."""

    # The backend.
    @property
    def backend_name(self) -> str:
        """The backend in use, e.g. 'cpu (16 threads, avx512f)'."""
    @property
    def backend_note(self) -> str:
        """Why this backend was chosen."""
    @property
    def kernel(self) -> str:
        """What evaluates the forces."""
