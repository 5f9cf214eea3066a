/* g6lib.h: the GRAPE-6 API of nbody-sandbox's libnbody_g6 (also installed as libg6), a drop-in for GRAPE-6
 * and Sapporo2 users. Every call exists twice: C (below) and Fortran (trailing underscore, every argument by
 * pointer: g6_open_(int* id), ...). The cluster id is accepted and ignored, as Sapporo2 does.
 *
 * Conventions (GRAPE-6 user's guide, Sapporo2): a j-particle is stored with its time tj and
 *   a2 = a / 2,  j6 = j / 6   (k18 = snap / 18, ignored by this 4th-order library)
 * and predicted to the time set by g6_set_ti: dt = ti - tj,
 *   x_p = x + v dt + a2 dt^2 + j6 dt^3,   v_p = v + 2 a2 dt + 3 j6 dt^2.
 * g6calc_firsthalf starts the force on ni <= g6_npipes() i-particles (positions and velocities at ti) from
 * the j-particles at addresses 0..nj-1; g6calc_lasthalf returns acceleration, jerk and potential
 * (sum -m_j / r, G = 1, softened by eps2; a pair at zero separation, the body itself, is skipped).
 * g6calc_lasthalf2 also returns, per i, the index of its nearest j-particle. g6_read_neighbour_list and
 * g6_get_neighbour_list give the j indices within h2[i] of each i of the last batch.
 *
 * Errors: calls out of order or out of range (lasthalf before firsthalf, an address past the j-memory,
 * ni > npipes, a call before g6_open) return a negative code and print a message on stderr; g6_last_error()
 * gives the last message. g6calc_firsthalf returns nothing (GRAPE's signature): its error comes back from the
 * lasthalf call that follows.
 *
 * Environment: NBODY_G6_PRECISION = ds (default, as Sapporo2) | fp64 | fp32; NBODY_G6_NPIPES (default 16384);
 * NBODY_G6_JMEMORY (j-particle addresses, default 1048576); NBODY_G6_DEVICE = auto (default: the GPU where the
 * library was built with CUDA and a device is present, else the CPU) | cuda | cpu.
 */
#ifndef NBODY_G6LIB_H
#define NBODY_G6LIB_H

#ifdef __cplusplus
extern "C" {
#endif

/* error codes (negative) */
#define G6_ERR_NOT_OPEN (-1)
#define G6_ERR_RANGE (-2)
#define G6_ERR_ORDER (-3)

int g6_open(int id);
int g6_close(int id);
int g6_npipes(void);
int g6_set_tunit(double tunit);
int g6_set_xunit(double xunit);
int g6_set_ti(int id, double ti);
int g6_set_j_particle(int id, int address, int index, double tj, double dtj, double mass, double k18[3],
                      double j6[3], double a2[3], double v[3], double x[3]);
void g6calc_firsthalf(int id, int nj, int ni, int index[], double xi[][3], double vi[][3], double aold[][3],
                      double j6old[][3], double phiold[], double eps2, double h2[]);
int g6calc_lasthalf(int id, int nj, int ni, int index[], double xi[][3], double vi[][3], double eps2,
                    double h2[], double acc[][3], double jerk[][3], double pot[]);
int g6calc_lasthalf2(int id, int nj, int ni, int index[], double xi[][3], double vi[][3], double eps2,
                     double h2[], double acc[][3], double jerk[][3], double pot[], int nnb_index[]);
int g6_initialize_jp_buffer(int id, int size);
int g6_flush_jp_buffer(int id);
int g6_reset(int id);
int g6_reset_fofpga(int id);
int g6_read_neighbour_list(int id);
/* returns 0, 1 when the list was longer than maxlength (truncated), or a negative error */
int g6_get_neighbour_list(int id, int ipipe, int maxlength, int* n_neighbours, int neighbour_list[]);

/* not GRAPE-6: the last error message ("" when none) */
const char* g6_last_error(void);

/* Fortran ABI */
int g6_open_(int* id);
int g6_close_(int* id);
int g6_npipes_(void);
int g6_set_tunit_(double* tunit);
int g6_set_xunit_(double* xunit);
int g6_set_ti_(int* id, double* ti);
int g6_set_j_particle_(int* id, int* address, int* index, double* tj, double* dtj, double* mass,
                       double k18[3], double j6[3], double a2[3], double v[3], double x[3]);
void g6calc_firsthalf_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3],
                       double aold[][3], double j6old[][3], double phiold[], double* eps2, double h2[]);
int g6calc_lasthalf_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double* eps2,
                     double h2[], double acc[][3], double jerk[][3], double pot[]);
int g6calc_lasthalf2_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double* eps2,
                      double h2[], double acc[][3], double jerk[][3], double pot[], int nnb_index[]);
int g6_initialize_jp_buffer_(int* id, int* size);
int g6_flush_jp_buffer_(int* id);
int g6_reset_(int* id);
int g6_reset_fofpga_(int* id);
int g6_read_neighbour_list_(int* id);
int g6_get_neighbour_list_(int* id, int* ipipe, int* maxlength, int* n_neighbours, int neighbour_list[]);

#ifdef __cplusplus
}
#endif

#endif
