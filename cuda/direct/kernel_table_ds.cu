// The double-single step-kernel instances (kernel_table.cuh lists why these).
#include "direct/kernel_table_wide.cuh"

namespace nbody::kernels {
KernelList ds_kernels() { return wide_kernels<DS>(Precision::DS); }
}  // namespace nbody::kernels
