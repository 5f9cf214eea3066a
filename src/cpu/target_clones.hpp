#pragma once
// NBODY_CLONES before a hot loop's definition: target_clones builds it once per instruction set (AVX-512,
// AVX2+FMA, baseline x86-64) and picks the widest the processor supports when the program starts (an ifunc),
// so a binary built here never executes an illegal instruction on an older x86-64. NBODY_PORTABLE, or a
// processor other than x86-64, builds the baseline loop only.
#if defined(NBODY_PORTABLE) || !defined(__x86_64__)
#define NBODY_CLONES
#else
#define NBODY_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
