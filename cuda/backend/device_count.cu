#include "backend/device_count.hpp"

#include <cuda_runtime.h>

namespace nbody {

int count_cuda_devices() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clears the sticky error the failed query leaves
        return 0;
    }
    return count;
}

}  // namespace nbody
