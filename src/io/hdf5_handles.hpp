#pragma once
// Small RAII owners for HDF5 C API identifiers (private to io/hdf5_*.cpp). HDF5's own error stack printing is
// switched off: every failure becomes an nbody::Error naming the file and object instead.
#include <hdf5.h>

#include <string>
#include <utility>

namespace nbody::h5 {

// One identifier and the call that closes it (H5Fclose, H5Gclose, ...).
class Id {
  public:
    using Closer = herr_t (*)(hid_t);
    Id() = default;
    Id(hid_t id, Closer close) : m_id(id), m_close(close) {}
    Id(Id&& o) noexcept : m_id(std::exchange(o.m_id, H5I_INVALID_HID)), m_close(o.m_close) {}
    Id& operator=(Id&& o) noexcept {
        std::swap(m_id, o.m_id), std::swap(m_close, o.m_close);
        return *this;
    }
    Id(const Id&) = delete;
    Id& operator=(const Id&) = delete;
    ~Id() {
        if (m_id >= 0 && m_close) m_close(m_id);
    }
    hid_t get() const { return m_id; }
    bool ok() const { return m_id >= 0; }

  private:
    hid_t m_id = H5I_INVALID_HID;
    Closer m_close = nullptr;
};

inline void quiet_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

}  // namespace nbody::h5
