/* The GRAPE-6 API's force rate, measured as a GRAPE-6 code would see it: nj j-particles set once, then
 * g6calc_firsthalf / g6calc_lasthalf over every i-particle in batches of g6_npipes(), timed around the whole
 * sweep (the host's i-particle copies and the batching included). Written against g6lib.h only.
 *
 * Usage: g6_rate [NJ (131072)] [SWEEPS (5)]   precision: NBODY_G6_PRECISION (ds by default), device:
 * NBODY_G6_DEVICE, as the library reads them. Prints one line: nj, ni, npipes, seconds a sweep (the best of
 * SWEEPS after one warm-up), interactions/s (nj x ni / seconds). Compare with the native Hermite engine's rate:
 * nbody-bench --integrators hermite --precisions ds --sizes NJ. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "g6lib.h"

typedef double vec[3];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A uniform ball of radius 1 (positions only matter for the arithmetic, not the physics), fixed seed. */
static void ball(vec x, unsigned long long* s) {
    do {
        for (int k = 0; k < 3; ++k) {
            *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
            x[k] = 2.0 * (double)(*s >> 11) / 9007199254740992.0 - 1.0;
        }
    } while (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] > 1.0);
}

int main(int argc, char** argv) {
    const int nj = argc > 1 ? atoi(argv[1]) : 131072, sweeps = argc > 2 ? atoi(argv[2]) : 5;
    if (nj < 1 || nj > (1 << 24) || sweeps < 1 || sweeps > 1000) {
        fprintf(stderr, "g6_rate: NJ must be 1 to 16777216 and SWEEPS 1 to 1000\n");
        return 2;
    }
    if (g6_open(0) != 0) {
        fprintf(stderr, "g6_rate: g6_open: %s\n", g6_last_error());
        return 1;
    }
    const int np = g6_npipes();
    vec *x = malloc(sizeof(vec) * (size_t)nj), *v = calloc((size_t)nj, sizeof(vec));
    vec *a = calloc((size_t)nj, sizeof(vec)), *j = calloc((size_t)nj, sizeof(vec));
    double* pot = calloc((size_t)nj, sizeof(double));
    double* h2 = calloc((size_t)np, sizeof(double));
    int* index = malloc(sizeof(int) * (size_t)np);
    double zero[3] = {0, 0, 0};
    unsigned long long seed = 42;
    int rc = 0;
    if (g6_initialize_jp_buffer(0, nj) != 0) rc = 1;
    for (int i = 0; i < nj && !rc; ++i) {
        ball(x[i], &seed);
        if (g6_set_j_particle(0, i, i, 0.0, 1.0 / 64, 1.0 / nj, zero, zero, zero, v[i], x[i]) != 0) rc = 1;
    }
    if (!rc && (g6_flush_jp_buffer(0) != 0 || g6_set_ti(0, 0.0) != 0)) rc = 1;
    double best = 1e30;
    for (int s = 0; s <= sweeps && !rc; ++s) {
        const double t0 = now();
        for (int i0 = 0; i0 < nj && !rc; i0 += np) {
            const int ni = nj - i0 < np ? nj - i0 : np;
            for (int k = 0; k < ni; ++k) index[k] = i0 + k;
            g6calc_firsthalf(0, nj, ni, index, x + i0, v + i0, a + i0, j + i0, pot + i0, 1e-4, h2);
            if (g6calc_lasthalf(0, nj, ni, index, x + i0, v + i0, 1e-4, h2, a + i0, j + i0, pot + i0) != 0) rc = 1;
        }
        const double t = now() - t0;
        if (s > 0 && t < best) best = t;  /* sweep 0 warms up */
    }
    if (rc) {
        fprintf(stderr, "g6_rate: %s\n", g6_last_error());
    } else {
        printf("g6_rate: nj = %d, ni = %d in batches of %d: %.4f s a sweep (best of %d), %.4g interactions/s\n", nj,
               nj, np, best, sweeps, (double)nj * (double)nj / best);
    }
    g6_close(0);
    free(x), free(v), free(a), free(j), free(pot), free(h2), free(index);
    return rc;
}
