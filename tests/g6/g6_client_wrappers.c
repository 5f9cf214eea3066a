/* Two GRAPE-6 clients from one source. Built with G6_CLIENT_OWN_WRAPPERS, it is a client compiled the way
 * Sapporo2's and older GRAPE-6 distributions' g6lib.h build them: it declares the Fortran entry points itself
 * and defines the C names as its own wrappers around them (int g6_open(int id) { return g6_open_(&id); }).
 * Linked to libnbody_g6, the library's Fortran entry points must not call back into these definitions (symbol
 * interposition would recurse until the stack overflows). Without it, the client calls the library's C names
 * from the library's own g6lib.h.
 *
 * Either computes the forces of a small cluster through the C names and compares them with a direct sum.
 * Exit status 0 when they agree. */
#include <math.h>
#include <stdio.h>

#ifdef G6_CLIENT_OWN_WRAPPERS

/* The Fortran ABI, declared by the client (not the library's header): every argument by pointer. */
int g6_open_(int* id);
int g6_close_(int* id);
int g6_npipes_(void);
int g6_set_ti_(int* id, double* ti);
int g6_set_j_particle_(int* id, int* address, int* index, double* tj, double* dtj, double* mass, double k18[3],
                       double j6[3], double a2[3], double v[3], double x[3]);
void g6calc_firsthalf_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double aold[][3],
                       double j6old[][3], double phiold[], double* eps2, double h2[]);
int g6calc_lasthalf_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double* eps2,
                     double h2[], double acc[][3], double jerk[][3], double pot[]);

/* The client's own C wrappers, with the same names the library exports. */
int g6_open(int id) { return g6_open_(&id); }
int g6_close(int id) { return g6_close_(&id); }
int g6_npipes(void) { return g6_npipes_(); }
void g6_set_ti(int id, double ti) { g6_set_ti_(&id, &ti); }
int g6_set_j_particle(int id, int address, int index, double tj, double dtj, double mass, double k18[3],
                      double j6[3], double a2[3], double v[3], double x[3]) {
    return g6_set_j_particle_(&id, &address, &index, &tj, &dtj, &mass, k18, j6, a2, v, x);
}
void g6calc_firsthalf(int id, int nj, int ni, int index[], double xi[][3], double vi[][3], double aold[][3],
                      double j6old[][3], double phiold[], double eps2, double h2[]) {
    g6calc_firsthalf_(&id, &nj, &ni, index, xi, vi, aold, j6old, phiold, &eps2, h2);
}
int g6calc_lasthalf(int id, int nj, int ni, int index[], double xi[][3], double vi[][3], double eps2,
                    double h2[], double acc[][3], double jerk[][3], double pot[]) {
    return g6calc_lasthalf_(&id, &nj, &ni, index, xi, vi, &eps2, h2, acc, jerk, pot);
}
#else
#include "g6lib.h"
#endif

enum { N = 8 };

int main(void) {
    double x[N][3], v[N][3], acc[N][3], jerk[N][3], pot[N], h2[N], zero[3] = {0, 0, 0};
    int index[N], i, j, k;
    const double eps2 = 0.01, mass = 1.0 / N;
    for (i = 0; i < N; ++i) {
        for (k = 0; k < 3; ++k) {
            x[i][k] = sin(1.7 * i + k);
            v[i][k] = 0.1 * cos(0.9 * i - k);
        }
        index[i] = i;
        h2[i] = 0;
    }
    if (g6_open(0) != 0) return fprintf(stderr, "g6 client: g6_open failed\n"), 1;
    if (g6_npipes() < N) return fprintf(stderr, "g6 client: fewer than %d pipes\n", N), 1;
    for (i = 0; i < N; ++i)
        if (g6_set_j_particle(0, i, i, 0.0, 0.0, mass, zero, zero, zero, v[i], x[i]) != 0)
            return fprintf(stderr, "g6 client: g6_set_j_particle failed\n"), 1;
    g6_set_ti(0, 0.0);
    g6calc_firsthalf(0, N, N, index, x, v, acc, jerk, pot, eps2, h2);
    if (g6calc_lasthalf(0, N, N, index, x, v, eps2, h2, acc, jerk, pot) != 0)
        return fprintf(stderr, "g6 client: g6calc_lasthalf failed\n"), 1;
    g6_close(0);
    for (i = 0; i < N; ++i) {
        double a[3] = {0, 0, 0};
        for (j = 0; j < N; ++j) {
            double dr[3], r2 = eps2;
            if (j == i) continue;
            for (k = 0; k < 3; ++k) dr[k] = x[j][k] - x[i][k], r2 += dr[k] * dr[k];
            for (k = 0; k < 3; ++k) a[k] += mass * dr[k] / (r2 * sqrt(r2));
        }
        for (k = 0; k < 3; ++k)
            if (fabs(acc[i][k] - a[k]) > 1e-5 * (fabs(a[k]) + 1e-3)) {
                fprintf(stderr, "g6 client: body %d acc[%d] %.9g, direct sum %.9g\n", i, k, acc[i][k], a[k]);
                return 1;
            }
    }
    printf("g6 client: %d bodies, forces agree with the direct sum\n", N);
    return 0;
}
