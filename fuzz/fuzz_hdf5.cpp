// libFuzzer target: any bytes as an HDF5 file image through the snapshot and checkpoint reader
// (io/hdf5_snapshot.hpp, the core driver: nothing touches the disk). Only nbody::Error may come out.
#include <cstddef>
#include <cstdint>

#include "core/errors.hpp"
#include "io/hdf5_snapshot.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    try {
        nbody::read_hdf5_image(data, size, "fuzz.hdf5");
    } catch (const nbody::Error&) {
    }
    return 0;
}
