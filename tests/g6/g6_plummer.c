/* A GRAPE-6 client written against g6lib.h only, as an existing direct N-body code would be: a 4th-order
 * Hermite integration with shared steps (Makino & Aarseth 1992), the j-particles predicted by the library and
 * the i-particles by the host, forces in batches of g6_npipes(). Then the misuse checks: calls out of order or
 * out of range must return an error code and a message, never crash.
 *
 * Usage: g6_plummer IN OUT DT T_END EPS2
 *   IN, OUT: "N" then N lines "m x y z vx vy vz" (%.17g); the final state goes to OUT.
 * Exit status 0 when every call succeeded and every misuse was refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "g6lib.h"

typedef double vec[3];

static int fail(const char* what) {
    fprintf(stderr, "g6_plummer: %s (%s)\n", what, g6_last_error());
    return 1;
}

/* acceleration and jerk of all n bodies at time t (positions xp, vp already at t), batch by batch */
static int forces(int n, double t, vec* xp, vec* vp, double eps2, vec* a, vec* j, double* pot) {
    int np = g6_npipes(), i0, k;
    int* index = malloc(sizeof(int) * (size_t)np);
    double* h2 = calloc((size_t)np, sizeof(double));
    int rc = 0;
    if (g6_set_ti(0, t) != 0) rc = 1;
    for (i0 = 0; i0 < n && !rc; i0 += np) {
        int ni = n - i0 < np ? n - i0 : np;
        for (k = 0; k < ni; ++k) index[k] = i0 + k;
        g6calc_firsthalf(0, n, ni, index, xp + i0, vp + i0, a + i0, j + i0, pot + i0, eps2, h2);
        if (g6calc_lasthalf(0, n, ni, index, xp + i0, vp + i0, eps2, h2, a + i0, j + i0, pot + i0) != 0) rc = 1;
    }
    free(index);
    free(h2);
    return rc;
}

static int set_j(int i, double t, double dt, double m, vec a, vec j, vec v, vec x) {
    double a2[3], j6[3], k18[3] = {0, 0, 0};
    int k;
    for (k = 0; k < 3; ++k) a2[k] = a[k] / 2, j6[k] = j[k] / 6;
    return g6_set_j_particle(0, i, i, t, dt, m, k18, j6, a2, v, x);
}

static int misuse(int n) {
    int np = g6_npipes(), idx[1] = {0}, nn = 0, list[4];
    vec x[1] = {{0, 0, 0}}, v[1] = {{0, 0, 0}}, a[1], jk[1];
    double pot[1], h2[1] = {0}, z[3] = {0, 0, 0};
    int* many = calloc((size_t)np + 1, sizeof(int));
    vec* big = calloc((size_t)np + 1, sizeof(vec));
    double* bigs = calloc((size_t)np + 1, sizeof(double));
    int bad = 0;
    if (g6calc_lasthalf(0, n, 1, idx, x, v, 0.01, h2, a, jk, pot) >= 0) bad = fail("lasthalf before firsthalf accepted");
    if (strlen(g6_last_error()) == 0) bad = fail("no message for lasthalf before firsthalf");
    if (g6_set_j_particle(0, 1 << 30, 0, 0, 0, 1, z, z, z, z, z) >= 0) bad = fail("an address past the buffer accepted");
    if (g6_set_j_particle(0, -1, 0, 0, 0, 1, z, z, z, z, z) >= 0) bad = fail("a negative address accepted");
    g6calc_firsthalf(0, n, np + 1, many, big, big, big, big, bigs, 0.01, bigs);
    if (g6calc_lasthalf(0, n, np + 1, many, big, big, 0.01, bigs, big, big, bigs) >= 0) bad = fail("ni > npipes accepted");
    g6calc_firsthalf(0, n + 5, 1, idx, x, v, a, jk, pot, 0.01, h2);
    if (g6calc_lasthalf(0, n + 5, 1, idx, x, v, 0.01, h2, a, jk, pot) >= 0) bad = fail("nj past the j-particles set accepted");
    if (g6_get_neighbour_list(0, 0, 4, &nn, list) >= 0) bad = fail("neighbour list before reading it accepted");
    free(many), free(big), free(bigs);
    g6_close(0);
    if (g6_set_ti(0, 1.0) >= 0) bad = fail("a call after g6_close accepted");
    return bad;
}

int main(int argc, char** argv) {
    FILE* in;
    FILE* out;
    int n, i, k, s, steps;
    double dt, t_end, eps2, t = 0;
    double *m, *pot;
    vec *x, *v, *a, *j, *xp, *vp, *a1, *j1;
    if (argc != 6) return fprintf(stderr, "usage: g6_plummer IN OUT DT T_END EPS2\n"), 2;
    dt = atof(argv[3]), t_end = atof(argv[4]), eps2 = atof(argv[5]);
    in = fopen(argv[1], "r");
    if (!in || fscanf(in, "%d", &n) != 1 || n < 1) return fprintf(stderr, "g6_plummer: cannot read %s\n", argv[1]), 2;
    m = malloc(sizeof(double) * (size_t)n), pot = malloc(sizeof(double) * (size_t)n);
    x = malloc(sizeof(vec) * (size_t)n), v = malloc(sizeof(vec) * (size_t)n), a = malloc(sizeof(vec) * (size_t)n);
    j = malloc(sizeof(vec) * (size_t)n), xp = malloc(sizeof(vec) * (size_t)n), vp = malloc(sizeof(vec) * (size_t)n);
    a1 = malloc(sizeof(vec) * (size_t)n), j1 = malloc(sizeof(vec) * (size_t)n);
    for (i = 0; i < n; ++i)
        if (fscanf(in, "%lf %lf %lf %lf %lf %lf %lf", &m[i], &x[i][0], &x[i][1], &x[i][2], &v[i][0], &v[i][1], &v[i][2]) != 7)
            return fprintf(stderr, "g6_plummer: %s: body %d unreadable\n", argv[1], i), 2;
    fclose(in);

    if (g6_open(0) != 0) return fail("g6_open");
    g6_initialize_jp_buffer(0, 0);
    memset(a, 0, sizeof(vec) * (size_t)n), memset(j, 0, sizeof(vec) * (size_t)n);
    for (i = 0; i < n; ++i)
        if (set_j(i, 0, dt, m[i], a[i], j[i], v[i], x[i]) != 0) return fail("g6_set_j_particle");
    if (forces(n, 0, x, v, eps2, a, j, pot)) return fail("initial forces");
    steps = (int)(t_end / dt + 0.5);
    for (s = 0; s < steps; ++s) {
        for (i = 0; i < n; ++i) {
            if (set_j(i, t, dt, m[i], a[i], j[i], v[i], x[i]) != 0) return fail("g6_set_j_particle");
            for (k = 0; k < 3; ++k) {
                xp[i][k] = x[i][k] + dt * (v[i][k] + dt * (a[i][k] / 2 + dt * j[i][k] / 6));
                vp[i][k] = v[i][k] + dt * (a[i][k] + dt * j[i][k] / 2);
            }
        }
        t = (s + 1) * dt;
        if (forces(n, t, xp, vp, eps2, a1, j1, pot)) return fail("forces");
        for (i = 0; i < n; ++i)
            for (k = 0; k < 3; ++k) {
                double da = a[i][k] - a1[i][k];
                double a2 = (-6 * da - dt * (4 * j[i][k] + 2 * j1[i][k])) / (dt * dt);
                double a3 = (12 * da + 6 * dt * (j[i][k] + j1[i][k])) / (dt * dt * dt);
                x[i][k] = xp[i][k] + a2 * dt * dt * dt * dt / 24 + a3 * dt * dt * dt * dt * dt / 120;
                v[i][k] = vp[i][k] + a2 * dt * dt * dt / 6 + a3 * dt * dt * dt * dt / 24;
                a[i][k] = a1[i][k], j[i][k] = j1[i][k];
            }
    }
    out = fopen(argv[2], "w");
    if (!out) return fprintf(stderr, "g6_plummer: cannot write %s\n", argv[2]), 2;
    fprintf(out, "%d\n", n);
    for (i = 0; i < n; ++i)
        fprintf(out, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", m[i], x[i][0], x[i][1], x[i][2], v[i][0], v[i][1], v[i][2]);
    fclose(out);
    printf("g6_plummer: %d bodies, %d steps of %g to t = %g, npipes %d\n", n, steps, dt, t, g6_npipes());
    return misuse(n);
}
