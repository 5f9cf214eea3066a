// libFuzzer target: any bytes as a scene file, through the reader and the generators (fuzz_inputs.hpp).
#include "fuzz_inputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    nbody::fuzz::scene_input(data, size);
    return 0;
}
