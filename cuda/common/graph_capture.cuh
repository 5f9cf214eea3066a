#pragma once
// One CUDA graph from the launches a function enqueues on a stream: both engines batch their steps this way on
// one GPU (a graph launch of many steps instead of one launch each).
#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

namespace nbody::kernels {

// Records what `record()` enqueues on `stream` (thread-local capture: nothing runs) and instantiates it;
// replaying the graph runs the same launches with the same arguments. The caller destroys it
// (cudaGraphExecDestroy).
template <class Record>
cudaGraphExec_t capture_graph(cudaStream_t stream, Record&& record) {
    NBODY_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    record();
    cudaGraph_t g = nullptr;
    NBODY_CUDA_CHECK(cudaStreamEndCapture(stream, &g));
    cudaGraphExec_t exec = nullptr;
    const cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
    cudaGraphDestroy(g);
    NBODY_CUDA_CHECK(err);
    return exec;
}

}  // namespace nbody::kernels
