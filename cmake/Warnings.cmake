# nbody_warnings: an interface target every project target links, so warnings are set in one place.
add_library(nbody_warnings INTERFACE)
target_compile_options(nbody_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
