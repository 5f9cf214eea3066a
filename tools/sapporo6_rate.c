/* The sixth-order library's force rate as a Sapporo2 sixth-order code sees it: nj j-particles set once, then
 * calc_force_on_predictors on ni i-particles (batched inside by the library), timed around the whole call.
 * Written against sapporo6thlib.h only.
 *
 * Usage: sapporo6_rate [NJ (131072)] [NI (16384)] [REPEATS (5)]   device: NBODY_SAPPORO6_DEVICE.
 * Prints, for the best of REPEATS after one warm-up: seconds a call and interactions/s (nj x ni / seconds),
 * for the force call alone (the predicted j-particles already on the device) and for predict_all followed
 * by the force call (what a block step costs: the j-particles predicted and copied again). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sapporo6thlib.h"

typedef double vec[3];

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double uniform(unsigned long long* s) { /* [-1, 1) */
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return 2.0 * (double)(*s >> 11) / 9007199254740992.0 - 1.0;
}

int main(int argc, char** argv) {
    const int nj = argc > 1 ? atoi(argv[1]) : 131072, ni = argc > 2 ? atoi(argv[2]) : 16384;
    const int repeats = argc > 3 ? atoi(argv[3]) : 5;
    unsigned long long seed = 12345;
    vec *x = malloc(sizeof(vec) * (size_t)nj), *v = malloc(sizeof(vec) * (size_t)nj);
    vec *a = malloc(sizeof(vec) * (size_t)nj), *zero = calloc(1, sizeof(vec));
    vec *acc = malloc(sizeof(vec) * (size_t)ni), *jrk = malloc(sizeof(vec) * (size_t)ni);
    vec *snp = malloc(sizeof(vec) * (size_t)ni), *crk = malloc(sizeof(vec) * (size_t)ni);
    double *m = malloc(sizeof(double) * (size_t)nj), *eps2 = malloc(sizeof(double) * (size_t)nj);
    double *phi = malloc(sizeof(double) * (size_t)ni), *r2 = malloc(sizeof(double) * (size_t)ni);
    int *id = malloc(sizeof(int) * (size_t)nj), *nnb = malloc(sizeof(int) * (size_t)ni);
    double best_calc = 1e30, best_step = 1e30;
    int i, k, r;
    if (nj < 1 || ni < 1 || ni > nj || repeats < 1) {
        fprintf(stderr, "usage: sapporo6_rate [NJ >= 1] [NI, 1..NJ] [REPEATS >= 1]\n");
        return 2;
    }
    initialize();
    if (*sapporo6_last_error()) return fprintf(stderr, "sapporo6_rate: %s\n", sapporo6_last_error()), 1;
    for (i = 0; i < nj; ++i) {
        for (k = 0; k < 3; ++k) x[i][k] = uniform(&seed), v[i][k] = 0.1 * uniform(&seed), a[i][k] = 0.01 * uniform(&seed);
        m[i] = 1.0 / nj, eps2[i] = 1.0 / 65536, id[i] = i; /* eps = 1/256 */
        set_j_particle(i, x[i], v[i], a[i], zero[0], zero[0], zero[0], m[i], 0.0, id[i], eps2[i]);
    }
    for (r = 0; r <= repeats; ++r) {
        const double t0 = now();
        predict_all(1e-3 * (r + 1), nj);
        const double t1 = now();
        calc_force_on_predictors(ni, nj, id, x, v, a, m, eps2, acc, jrk, snp, crk, phi, nnb, r2);
        const double t2 = now();
        if (*sapporo6_last_error()) return fprintf(stderr, "sapporo6_rate: %s\n", sapporo6_last_error()), 1;
        calc_force_on_predictors(ni, nj, id, x, v, a, m, eps2, acc, jrk, snp, crk, phi, nnb, r2);
        const double t3 = now();
        if (r == 0) continue; /* warm-up */
        if (t2 - t0 < best_step) best_step = t2 - t0;
        if (t3 - t2 < best_calc) best_calc = t3 - t2;
    }
    printf("sapporo6_rate: device %s nj %d ni %d: calc_force_on_predictors %.6f s, %.4e interactions/s; "
           "predict_all + calc %.6f s, %.4e interactions/s\n",
           sapporo6_device(), nj, ni, best_calc, (double)nj * ni / best_calc, best_step,
           (double)nj * ni / best_step);
    cleanup();
    return 0;
}
