// The fp64 step-kernel instances (kernel_table.cuh lists why these).
#include "direct/kernel_table_wide.cuh"

namespace nbody::kernels {
KernelList fp64_kernels() { return wide_kernels<Fp64>(Precision::Fp64); }
}  // namespace nbody::kernels
