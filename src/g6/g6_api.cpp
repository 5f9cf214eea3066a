// The GRAPE-6 entry points (g6lib.h), C and Fortran. GRAPE's API is a process-wide board opened by g6_open,
// so the one Device lives here (the single piece of global state the API itself imposes). Exceptions never
// cross into C or Fortran callers: every failure is a code and a message (g6_last_error).
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "g6/g6_device.hpp"
#include "g6/g6lib.h"

namespace {

std::unique_ptr<nbody::g6::Device>& board() {
    static std::unique_ptr<nbody::g6::Device> d;
    return d;
}
std::string& last_error() {
    static std::string e;
    return e;
}

int not_open(const char* call) {
    last_error() = std::string(call) + " before g6_open";
    std::fprintf(stderr, "g6: %s\n", last_error().c_str());
    return G6_ERR_NOT_OPEN;
}

// Runs f on the open board, turning a missing board or an exception into an error code.
template <class F>
int with_board(const char* call, F&& f) {
    auto& d = board();
    if (!d) return not_open(call);
    try {
        const int r = f(*d);
        if (r < 0) last_error() = d->error();
        return r;
    } catch (const std::exception& e) {
        last_error() = std::string(call) + ": " + e.what();
        return G6_ERR_RANGE;
    }
}

}  // namespace

extern "C" {

int g6_open(int) {
    std::string error;
    const nbody::g6::Config c = nbody::g6::config_from_environment(error);
    if (!error.empty()) {
        last_error() = "g6_open: " + error;
        std::fprintf(stderr, "g6: %s\n", last_error().c_str());
        return G6_ERR_RANGE;
    }
    try {
        board() = std::make_unique<nbody::g6::Device>(c);
    } catch (const std::exception& e) {
        last_error() = std::string("g6_open: ") + e.what();
        std::fprintf(stderr, "g6: %s\n", last_error().c_str());
        return G6_ERR_RANGE;
    }
    return 0;
}
int g6_close(int) {
    board().reset();
    return 0;
}
int g6_npipes(void) {
    return board() ? board()->npipes() : not_open("g6_npipes");
}
int g6_set_tunit(double) { return 0; }  // GRAPE's fixed-point scales: this library computes in floating point
int g6_set_xunit(double) { return 0; }
int g6_set_ti(int, double ti) {
    return with_board("g6_set_ti", [&](nbody::g6::Device& d) { return d.set_ti(ti); });
}
int g6_set_j_particle(int, int address, int index, double tj, double, double mass, double*, double j6[3],
                      double a2[3], double v[3], double x[3]) {
    return with_board("g6_set_j_particle",
                      [&](nbody::g6::Device& d) { return d.set_j_particle(address, index, tj, mass, a2, j6, v, x); });
}
void g6calc_firsthalf(int, int nj, int ni, int index[], double xi[][3], double vi[][3], double[][3], double[][3],
                      double[], double eps2, double h2[]) {
    with_board("g6calc_firsthalf",
               [&](nbody::g6::Device& d) { return d.firsthalf(nj, ni, index, xi, vi, eps2, h2); });
}
int g6calc_lasthalf(int, int, int ni, int[], double[][3], double[][3], double, double[], double acc[][3],
                    double jerk[][3], double pot[]) {
    return with_board("g6calc_lasthalf",
                      [&](nbody::g6::Device& d) { return d.lasthalf(ni, acc, jerk, pot, nullptr); });
}
int g6calc_lasthalf2(int, int, int ni, int[], double[][3], double[][3], double, double[], double acc[][3],
                     double jerk[][3], double pot[], int nnb_index[]) {
    return with_board("g6calc_lasthalf2",
                      [&](nbody::g6::Device& d) { return d.lasthalf(ni, acc, jerk, pot, nnb_index); });
}
int g6_initialize_jp_buffer(int, int) { return board() ? 0 : not_open("g6_initialize_jp_buffer"); }
int g6_flush_jp_buffer(int) { return board() ? 0 : not_open("g6_flush_jp_buffer"); }
int g6_reset(int) { return board() ? 0 : not_open("g6_reset"); }
int g6_reset_fofpga(int) { return board() ? 0 : not_open("g6_reset_fofpga"); }
int g6_read_neighbour_list(int) {
    return with_board("g6_read_neighbour_list", [](nbody::g6::Device& d) { return d.read_neighbour_list(); });
}
int g6_get_neighbour_list(int, int ipipe, int maxlength, int* n_neighbours, int neighbour_list[]) {
    return with_board("g6_get_neighbour_list", [&](nbody::g6::Device& d) {
        return d.get_neighbour_list(ipipe, maxlength, n_neighbours, neighbour_list);
    });
}
const char* g6_last_error(void) { return last_error().c_str(); }

// Fortran: every argument by pointer.
int g6_open_(int* id) { return g6_open(id ? *id : 0); }
int g6_close_(int* id) { return g6_close(id ? *id : 0); }
int g6_npipes_(void) { return g6_npipes(); }
int g6_set_tunit_(double* t) { return g6_set_tunit(t ? *t : 0); }
int g6_set_xunit_(double* x) { return g6_set_xunit(x ? *x : 0); }
int g6_set_ti_(int* id, double* ti) {
    return ti ? g6_set_ti(id ? *id : 0, *ti) : G6_ERR_RANGE;
}
int g6_set_j_particle_(int* id, int* address, int* index, double* tj, double* dtj, double* mass, double k18[3],
                       double j6[3], double a2[3], double v[3], double x[3]) {
    if (!address || !index || !tj || !mass) return G6_ERR_RANGE;
    return g6_set_j_particle(id ? *id : 0, *address, *index, *tj, dtj ? *dtj : 0, *mass, k18, j6, a2, v, x);
}
void g6calc_firsthalf_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double aold[][3],
                       double j6old[][3], double phiold[], double* eps2, double h2[]) {
    g6calc_firsthalf(id ? *id : 0, nj ? *nj : -1, ni ? *ni : -1, index, xi, vi, aold, j6old, phiold,
                     eps2 ? *eps2 : -1.0, h2);
}
int g6calc_lasthalf_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double* eps2,
                     double h2[], double acc[][3], double jerk[][3], double pot[]) {
    return g6calc_lasthalf(id ? *id : 0, nj ? *nj : -1, ni ? *ni : -1, index, xi, vi, eps2 ? *eps2 : 0, h2, acc,
                           jerk, pot);
}
int g6calc_lasthalf2_(int* id, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double* eps2,
                      double h2[], double acc[][3], double jerk[][3], double pot[], int nnb_index[]) {
    return g6calc_lasthalf2(id ? *id : 0, nj ? *nj : -1, ni ? *ni : -1, index, xi, vi, eps2 ? *eps2 : 0, h2,
                            acc, jerk, pot, nnb_index);
}
int g6_initialize_jp_buffer_(int* id, int* size) { return g6_initialize_jp_buffer(id ? *id : 0, size ? *size : 0); }
int g6_flush_jp_buffer_(int* id) { return g6_flush_jp_buffer(id ? *id : 0); }
int g6_reset_(int* id) { return g6_reset(id ? *id : 0); }
int g6_reset_fofpga_(int* id) { return g6_reset_fofpga(id ? *id : 0); }
int g6_read_neighbour_list_(int* id) { return g6_read_neighbour_list(id ? *id : 0); }
int g6_get_neighbour_list_(int* id, int* ipipe, int* maxlength, int* n_neighbours, int neighbour_list[]) {
    return g6_get_neighbour_list(id ? *id : 0, ipipe ? *ipipe : -1, maxlength ? *maxlength : -1, n_neighbours,
                                 neighbour_list);
}

}  // extern "C"
