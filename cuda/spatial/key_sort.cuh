#pragma once
// The spatial sort's one radix sort: (key, body index) pairs sorted by the key's bits [begin_bit, bits) with
// cub::DeviceRadixSort::SortPairs, stable (ties keep input order), stream-ordered and graph-capturable (the
// scratch is sized and allocated in reserve, never in enqueue). The tensor family's Morton order sorts 30-bit
// keys (spatial/morton_sort.cu), the tree 63-bit keys or their top 48 (tree/tree_build.cu); each writes its
// own keys and gathers its own layout.
#include <cub/device/device_radix_sort.cuh>

#include <cstddef>

#include "common/device_set.cuh"

namespace nbody::kernels {

template <class Key, class Index>
class KeyIndexSort {
  public:
    // Room for n pairs of `bits`-bit keys on `device`, with the sort's scratch; replaces what was there and
    // leaves `device` current. Throws BackendError naming the buffer when the GPU does not have the memory.
    void reserve(int device, std::size_t n, int bits, const char* what_keys, const char* what_index,
                 const char* what_scratch) {
        for (int c = 0; c < 2; ++c) {
            m_keys[c] = DeviceBuffer::alloc(device, n * sizeof(Key), what_keys);
            m_index[c] = DeviceBuffer::alloc(device, n * sizeof(Index), what_index);
        }
        m_temp_bytes = 0;
        NBODY_CUDA_CHECK(cudaSetDevice(device));  // the size query reads the current GPU (n = 0 allocates none)
        NBODY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            nullptr, m_temp_bytes, static_cast<const Key*>(nullptr), static_cast<Key*>(nullptr),
            static_cast<const Index*>(nullptr), static_cast<Index*>(nullptr), static_cast<int>(n), 0, bits));
        m_temp = DeviceBuffer::alloc(device, m_temp_bytes, what_scratch);
    }

    // Queues the sort of the first n pairs of keys_in() and index_in() into keys() and order() on `stream`, by
    // the keys' bits [begin_bit, bits).
    void enqueue(int n, int bits, cudaStream_t stream, int begin_bit = 0) const {
        std::size_t bytes = m_temp_bytes;
        NBODY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(m_temp.get(), bytes, m_keys[0].as<const Key>(),
                                                         m_keys[1].as<Key>(), m_index[0].as<const Index>(),
                                                         m_index[1].as<Index>(), n, begin_bit, bits, stream));
    }

    Key* keys_in() const { return m_keys[0].as<Key>(); }
    Index* index_in() const { return m_index[0].as<Index>(); }
    const Key* keys() const { return m_keys[1].as<const Key>(); }  // sorted
    const Index* order() const { return m_index[1].as<const Index>(); }  // [k]: the k-th body in key order
    std::size_t bytes() const {
        std::size_t sum = m_temp.bytes();
        for (int c = 0; c < 2; ++c) sum += m_keys[c].bytes() + m_index[c].bytes();
        return sum;
    }

  private:
    DeviceBuffer m_keys[2], m_index[2];  // [0]: unsorted (index = body), [1]: sorted
    DeviceBuffer m_temp;
    std::size_t m_temp_bytes = 0;
};

}  // namespace nbody::kernels
