#pragma once
// Page-locked host memory: copies to and from it run at the bus's rate and may run asynchronously; freed on
// destruction. For the host staging of the GRAPE-6 and sixth-order libraries' batches.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "common/cuda_check.cuh"

namespace nbody::kernels {

template <class T>
class Pinned {
  public:
    Pinned() = default;
    explicit Pinned(std::size_t n) : m_n(n) {
        NBODY_CUDA_CHECK(cudaMallocHost(&m_p, std::max<std::size_t>(1, n) * sizeof(T)));
    }
    ~Pinned() {
        if (m_p) cudaFreeHost(m_p);
    }
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
    Pinned(Pinned&& o) noexcept : m_p(o.m_p), m_n(o.m_n) { o.m_p = nullptr, o.m_n = 0; }
    Pinned& operator=(Pinned&& o) noexcept {
        std::swap(m_p, o.m_p), std::swap(m_n, o.m_n);
        return *this;
    }
    T* get() const { return m_p; }
    T& operator[](std::size_t i) const { return m_p[i]; }
    std::size_t size() const { return m_n; }

  private:
    T* m_p = nullptr;
    std::size_t m_n = 0;
};

}  // namespace nbody::kernels
