// libFuzzer target: any bytes through the CSV snapshot, tipsy and colour-map parsers (fuzz_inputs.hpp).
#include "fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    nbody::fuzz::snapshot_input(data, size);
    return 0;
}
