/* sapporo6thlib.h: Sapporo2's sixth-order Hermite interface, as nbody-sandbox's libnbody_sapporo6 provides
 * it (a drop-in: a code written against Sapporo2's sapporo6thlib links this library instead). Forces without
 * G (G = 1), in double precision; the CUDA engine where a GPU works, else the CPU (float64 reference).
 *
 * The j-memory holds, per address, a particle's position, velocity, acceleration, jerk, snap and crackle at
 * its own time, its mass, id and softening. The client integrates (predictor and corrector are its own); the
 * library predicts the j-particles and sums the forces:
 *   predict_all(t, nj)      predicts addresses 0..nj-1 to t (dt = t - t_j):
 *                             x to crackle (dt^5/120), v to crackle (dt^4/24), a to crackle (dt^3/6);
 *   no_predict_all(t, nj)   copies them unpredicted instead (t is ignored, as in Sapporo2);
 *   set_j_particle(...)     stores a particle; until the next prediction it is used as stored;
 *   pick_up_predictor_2     returns a j-particle's predicted id, mass, eps2, position, velocity,
 * acceleration; calc_force_on_predictors(ni, nj, ...)  the acceleration, jerk, snap and potential (sum
 * -m_j/r) on ni i-particles (their predicted pos, vel, acc) from the predicted j-particles 0..nj-1, softened
 *     r^2 = |dr|^2 + eps2[i]; a j-particle whose id equals ids[i] is skipped (the self term). Any ni >= 0:
 *     batches of the pipe count are handled inside. nnb[i] is the id of the nearest j-particle and nnb_r2[i]
 *     its squared distance |dr|^2 (unsoftened, as Sapporo2's kernels compute it; its header's comment says
 *     eps2 + |dr|^2); nnb[i] = -1 and nnb_r2[i] = +inf where no j-particle but i itself is there. crkNew is
 *     set to zero (Sapporo2 leaves the 8th-order term out too). mass[] is checked but not used.
 *   Softening: Sapporo2 applies the first eps2 of each batch to the whole batch; this library applies eps2[i]
 *   to i-particle i. The two agree for the usual single softening.
 *
 * Not in Sapporo2 (extensions): cleanup() frees everything (initialize may follow); sapporo6_last_error()
 * gives the last error message ("" when none); sapporo6_device() says "cuda" or "cpu".
 *
 * Errors: the calls return nothing (Sapporo2's signatures). A bad call (before initialize, an address outside
 * the j-memory or never set, ni or nj out of range, NaN or infinity in any input, a prediction time before a
 * particle's time) changes nothing (the j-memory is kept), prints "sapporo6: CALL: ARGUMENT ..." on stderr
 * and leaves that message in sapporo6_last_error(). A call that succeeds clears it.
 *
 * Environment (read by initialize): NBODY_SAPPORO6_DEVICE = auto (default: CUDA where the library was built
 * with it and a device works, else the CPU) | cuda | cpu; NBODY_SAPPORO6_NPIPES (i-particles a batch, default
 * 16384, Sapporo2's NPIPES); NBODY_SAPPORO6_JMEMORY (addresses, default 1048576); NBODY_SAPPORO6_PRECISION =
 * fp64 (default) | ds (the GPU's double-single force kernel; the CPU computes in float64). initialize_special uses
 * every listed device (each holds the whole j-memory; a force call's rows are split over them); initialize()
 * takes the default device.
 */
#ifndef NBODY_SAPPORO6THLIB_H
#define NBODY_SAPPORO6THLIB_H

#ifdef __cplusplus
extern "C" {
#define SAPPORO6_OUT(type) type&
#else
#define SAPPORO6_OUT(type) type*
#endif

void initialize_special(int ndev, int* list);
void initialize(void);
void cleanup(void);

void set_j_particle(int address, double pos[3], double vel[3], double acc[3], double jrk[3], double snp[3],
                    double crk[3], double mass, double time, int id, double eps2);
void predict_all(double time, int nj);
void no_predict_all(double time, int nj);

/* Sapporo2 declares id, mass and eps2 as C++ references; a C caller passes pointers (the same ABI). */
void pick_up_predictor_2(int addr, SAPPORO6_OUT(int) id, SAPPORO6_OUT(double) mass, SAPPORO6_OUT(double) eps2,
                         double pos[3], double vel[3], double acc[3]);

void calc_force_on_predictors(int ni, int nj, int ids[], double pos[][3], double vel[][3], double acc[][3],
                              double mass[], double eps2[], double accNew[][3], double jrkNew[][3],
                              double snpNew[][3], double crkNew[][3], double phi[], int nnb[],
                              double nnb_r2[]);

const char* sapporo6_last_error(void);
const char* sapporo6_device(void);

#undef SAPPORO6_OUT
#ifdef __cplusplus
}
#endif

#endif
