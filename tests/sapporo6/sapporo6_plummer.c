/* A client written against sapporo6thlib.h only, as a Sapporo2 sixth-order code is: a Plummer sphere
 * integrated with the sixth-order Hermite scheme (Nitadori & Makino 2008) on shared steps. The library
 * predicts the j-particles and sums acceleration, jerk and snap; the client picks up the predicted
 * i-particles (pick_up_predictor_2), corrects them and stores them back with their crackle.
 *
 *   corrector (h = dt):  v1 = v0 + (a0 + a1) h/2 - (j1 - j0) h^2/10 + (s1 + s0) h^3/120
 *                        x1 = x0 + (v0 + v1) h/2 - (a1 - a0) h^2/10 + (j1 + j0) h^3/120
 *   crackle at t1 (the quintic Hermite interpolant's 3rd derivative):
 *                        c1 = [60 (a1 - a0) - h (24 j0 + 36 j1) + h^2 (9 s1 - 3 s0)] / h^3
 *
 * Usage: sapporo6_plummer [N (256)] [DT (1/256)] [T_END (1)]
 * Runs to T_END with DT and with DT/2, prints the relative energy error of each, and exits 0 when both are
 * below 1e-6 and halving the step shrank the error at least 16x (sixth order: 64x in the limit). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sapporo6thlib.h"

typedef double vec[3];

struct Bodies {
    int n;
    int* id;
    double *m, *eps2, *phi, *r2;
    int* nnb;
    vec *x, *v, *a, *j, *s, *c;                  /* corrected state at the current time */
    vec *xp, *vp, *ap, *a1, *j1, *s1, *crk_out; /* predicted i-particles and their new forces */
};

static unsigned long long rng_state = 88172645463325252ULL;
static double uniform(void) { /* (0, 1), xorshift64 */
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}
static void isotropic(double r, vec out) {
    const double z = 2 * uniform() - 1, phi = 6.283185307179586 * uniform(), s = sqrt(1 - z * z);
    out[0] = r * s * cos(phi), out[1] = r * s * sin(phi), out[2] = r * z;
}

/* Aarseth, Henon & Wielen (1974), in Henon units (M = 1, E = -1/4), radius cut at 10 scale lengths. */
static void plummer(struct Bodies* b) {
    const double scale = 3.0 * 3.141592653589793 / 16.0;
    vec cx = {0, 0, 0}, cv = {0, 0, 0};
    int i, k;
    for (i = 0; i < b->n; ++i) {
        double r, q, g;
        do r = 1.0 / sqrt(pow(uniform(), -2.0 / 3.0) - 1.0);
        while (r > 10.0);
        do q = uniform(), g = 0.1 * uniform();
        while (g > q * q * pow(1 - q * q, 3.5));
        isotropic(r * scale, b->x[i]);
        isotropic(q * sqrt(2.0) * pow(1 + r * r, -0.25) / sqrt(scale), b->v[i]);
        b->m[i] = 1.0 / b->n, b->id[i] = i;
        for (k = 0; k < 3; ++k) cx[k] += b->m[i] * b->x[i][k], cv[k] += b->m[i] * b->v[i][k];
    }
    for (i = 0; i < b->n; ++i)
        for (k = 0; k < 3; ++k) b->x[i][k] -= cx[k], b->v[i][k] -= cv[k];
}

static void store(const struct Bodies* b, int i, double t) {
    set_j_particle(i, b->x[i], b->v[i], b->a[i], b->j[i], b->s[i], b->c[i], b->m[i], t, b->id[i], b->eps2[i]);
}

/* Forces on every body at its stored (unpredicted) state: acc, jerk, snap and phi into a, j, s, phi. */
static void forces_at_rest(struct Bodies* b) {
    int i;
    for (i = 0; i < b->n; ++i) store(b, i, 0.0);
    no_predict_all(0.0, b->n);
    calc_force_on_predictors(b->n, b->n, b->id, b->x, b->v, b->a, b->m, b->eps2, b->a, b->j, b->s, b->crk_out,
                             b->phi, b->nnb, b->r2);
}

static double energy(const struct Bodies* b) {
    double e = 0;
    int i;
    for (i = 0; i < b->n; ++i)
        e += b->m[i] * (0.5 * (b->v[i][0] * b->v[i][0] + b->v[i][1] * b->v[i][1] + b->v[i][2] * b->v[i][2]) +
                        0.5 * b->phi[i]);
    return e;
}

static void correct(struct Bodies* b, int i, double h) {
    int k;
    for (k = 0; k < 3; ++k) {
        const double a0 = b->a[i][k], j0 = b->j[i][k], s0 = b->s[i][k];
        const double a1 = b->a1[i][k], j1 = b->j1[i][k], s1 = b->s1[i][k];
        const double v1 = b->v[i][k] + (a0 + a1) * h / 2 - (j1 - j0) * h * h / 10 + (s1 + s0) * h * h * h / 120;
        b->x[i][k] += (b->v[i][k] + v1) * h / 2 - (a1 - a0) * h * h / 10 + (j1 + j0) * h * h * h / 120;
        b->v[i][k] = v1;
        b->c[i][k] = (60 * (a1 - a0) - h * (24 * j0 + 36 * j1) + h * h * (9 * s1 - 3 * s0)) / (h * h * h);
        b->a[i][k] = a1, b->j[i][k] = j1, b->s[i][k] = s1;
    }
}

static int step(struct Bodies* b, double t, double h) {
    int i;
    predict_all(t + h, b->n);
    for (i = 0; i < b->n; ++i) {
        int id;
        double m, e2;
        pick_up_predictor_2(i, &id, &m, &e2, b->xp[i], b->vp[i], b->ap[i]);
    }
    calc_force_on_predictors(b->n, b->n, b->id, b->xp, b->vp, b->ap, b->m, b->eps2, b->a1, b->j1, b->s1,
                             b->crk_out, b->phi, b->nnb, b->r2);
    if (*sapporo6_last_error()) return 1;
    for (i = 0; i < b->n; ++i) {
        correct(b, i, h);
        store(b, i, t + h);
    }
    return 0;
}

/* The relative energy error after integrating to t_end with step h, or a negative value on a library error. */
static double run(int n, double h, double t_end) {
    struct Bodies b;
    double e0, e1 = 0, t = 0;
    int i, err = 0;
    vec** arrays[] = {&b.x, &b.v, &b.a, &b.j, &b.s, &b.c, &b.xp, &b.vp, &b.ap, &b.a1, &b.j1, &b.s1, &b.crk_out};
    b.n = n;
    for (i = 0; i < (int)(sizeof arrays / sizeof arrays[0]); ++i) *arrays[i] = calloc((size_t)n, sizeof(vec));
    b.id = calloc((size_t)n, sizeof(int)), b.nnb = calloc((size_t)n, sizeof(int));
    b.m = calloc((size_t)n, sizeof(double)), b.eps2 = calloc((size_t)n, sizeof(double));
    b.phi = calloc((size_t)n, sizeof(double)), b.r2 = calloc((size_t)n, sizeof(double));
    rng_state = 88172645463325252ULL;
    plummer(&b);
    for (i = 0; i < n; ++i) b.eps2[i] = 1.0 / 4096; /* eps = 1/64 */
    forces_at_rest(&b); /* a and jerk (the snap needs the accelerations: a second pass) */
    forces_at_rest(&b);
    e0 = energy(&b);
    for (i = 0; i < n; ++i) store(&b, i, 0.0);
    while (t < t_end - 0.5 * h && !err) err = step(&b, t, h), t += h;
    if (!err) forces_at_rest(&b); /* the potential at the corrected positions */
    err = err || *sapporo6_last_error();
    if (!err) e1 = energy(&b);
    for (i = 0; i < (int)(sizeof arrays / sizeof arrays[0]); ++i) free(*arrays[i]);
    free(b.id), free(b.nnb), free(b.m), free(b.eps2), free(b.phi), free(b.r2);
    return err ? -1.0 : fabs((e1 - e0) / e0);
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 256;
    const double dt = argc > 2 ? atof(argv[2]) : 1.0 / 256, t_end = argc > 3 ? atof(argv[3]) : 1.0;
    double e1, e2;
    initialize();
    if (*sapporo6_last_error()) return fprintf(stderr, "sapporo6_plummer: %s\n", sapporo6_last_error()), 1;
    e1 = run(n, dt, t_end);
    e2 = run(n, dt / 2, t_end);
    printf("sapporo6_plummer: N %d on %s, to t = %g: |dE/E| %.3e at dt %g, %.3e at dt %g (ratio %.1f)\n", n,
           sapporo6_device(), t_end, e1, dt, e2, dt / 2, e2 > 0 ? e1 / e2 : 0.0);
    cleanup();
    if (e1 < 0 || e2 < 0) return fprintf(stderr, "sapporo6_plummer: a library call failed\n"), 1;
    return e1 < 1e-6 && e2 < 1e-6 && e1 > 16 * e2 ? 0 : 1;
}
