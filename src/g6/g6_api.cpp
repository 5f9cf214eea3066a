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

// The calls themselves. Both exported spellings (C and Fortran) call these, never each other: a client that
// defines its own C names as wrappers around the Fortran ones (as Sapporo2's g6lib.h does) would otherwise be
// called back by the library's Fortran entry points and recurse until the stack overflows.
int open_board() {
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
int close_board() {
    board().reset();
    return 0;
}
int npipes() { return board() ? board()->npipes() : not_open("g6_npipes"); }
int set_ti(double ti) {
    return with_board("g6_set_ti", [&](nbody::g6::Device& d) { return d.set_ti(ti); });
}
int set_j_particle(int address, int index, double tj, double mass, double j6[3], double a2[3], double v[3],
                   double x[3]) {
    return with_board("g6_set_j_particle",
                      [&](nbody::g6::Device& d) { return d.set_j_particle(address, index, tj, mass, a2, j6, v, x); });
}
void firsthalf(int nj, int ni, int index[], double xi[][3], double vi[][3], double eps2, double h2[]) {
    with_board("g6calc_firsthalf",
               [&](nbody::g6::Device& d) { return d.firsthalf(nj, ni, index, xi, vi, eps2, h2); });
}
int lasthalf(const char* call, int ni, double acc[][3], double jerk[][3], double pot[], int nnb_index[]) {
    return with_board(call, [&](nbody::g6::Device& d) { return d.lasthalf(ni, acc, jerk, pot, nnb_index); });
}
int board_check(const char* call) { return board() ? 0 : not_open(call); }
int read_neighbour_list() {
    return with_board("g6_read_neighbour_list", [](nbody::g6::Device& d) { return d.read_neighbour_list(); });
}
int get_neighbour_list(int ipipe, int maxlength, int* n_neighbours, int neighbour_list[]) {
    return with_board("g6_get_neighbour_list", [&](nbody::g6::Device& d) {
        return d.get_neighbour_list(ipipe, maxlength, n_neighbours, neighbour_list);
    });
}

}  // namespace

extern "C" {

int g6_open(int) { return open_board(); }
int g6_close(int) { return close_board(); }
int g6_npipes(void) { return npipes(); }
int g6_set_tunit(double) { return 0; }  // GRAPE's fixed-point scales: this library computes in floating point
int g6_set_xunit(double) { return 0; }
int g6_set_ti(int, double ti) { return set_ti(ti); }
int g6_set_j_particle(int, int address, int index, double tj, double, double mass, double*, double j6[3],
                      double a2[3], double v[3], double x[3]) {
    return set_j_particle(address, index, tj, mass, j6, a2, v, x);
}
void g6calc_firsthalf(int, int nj, int ni, int index[], double xi[][3], double vi[][3], double[][3], double[][3],
                      double[], double eps2, double h2[]) {
    firsthalf(nj, ni, index, xi, vi, eps2, h2);
}
int g6calc_lasthalf(int, int, int ni, int[], double[][3], double[][3], double, double[], double acc[][3],
                    double jerk[][3], double pot[]) {
    return lasthalf("g6calc_lasthalf", ni, acc, jerk, pot, nullptr);
}
int g6calc_lasthalf2(int, int, int ni, int[], double[][3], double[][3], double, double[], double acc[][3],
                     double jerk[][3], double pot[], int nnb_index[]) {
    return lasthalf("g6calc_lasthalf2", ni, acc, jerk, pot, nnb_index);
}
int g6_initialize_jp_buffer(int, int) { return board_check("g6_initialize_jp_buffer"); }
int g6_flush_jp_buffer(int) { return board_check("g6_flush_jp_buffer"); }
int g6_reset(int) { return board_check("g6_reset"); }
int g6_reset_fofpga(int) { return board_check("g6_reset_fofpga"); }
int g6_read_neighbour_list(int) { return read_neighbour_list(); }
int g6_get_neighbour_list(int, int ipipe, int maxlength, int* n_neighbours, int neighbour_list[]) {
    return get_neighbour_list(ipipe, maxlength, n_neighbours, neighbour_list);
}
const char* g6_last_error(void) { return last_error().c_str(); }

// Fortran: every argument by pointer.
int g6_open_(int*) { return open_board(); }
int g6_close_(int*) { return close_board(); }
int g6_npipes_(void) { return npipes(); }
int g6_set_tunit_(double*) { return 0; }
int g6_set_xunit_(double*) { return 0; }
int g6_set_ti_(int*, double* ti) { return ti ? set_ti(*ti) : G6_ERR_RANGE; }
int g6_set_j_particle_(int*, int* address, int* index, double* tj, double*, double* mass, double*, double j6[3],
                       double a2[3], double v[3], double x[3]) {
    if (!address || !index || !tj || !mass) return G6_ERR_RANGE;
    return set_j_particle(*address, *index, *tj, *mass, j6, a2, v, x);
}
void g6calc_firsthalf_(int*, int* nj, int* ni, int index[], double xi[][3], double vi[][3], double[][3],
                       double[][3], double[], double* eps2, double h2[]) {
    firsthalf(nj ? *nj : -1, ni ? *ni : -1, index, xi, vi, eps2 ? *eps2 : -1.0, h2);
}
int g6calc_lasthalf_(int*, int*, int* ni, int[], double[][3], double[][3], double*, double[], double acc[][3],
                     double jerk[][3], double pot[]) {
    return lasthalf("g6calc_lasthalf", ni ? *ni : -1, acc, jerk, pot, nullptr);
}
int g6calc_lasthalf2_(int*, int*, int* ni, int[], double[][3], double[][3], double*, double[], double acc[][3],
                      double jerk[][3], double pot[], int nnb_index[]) {
    return lasthalf("g6calc_lasthalf2", ni ? *ni : -1, acc, jerk, pot, nnb_index);
}
int g6_initialize_jp_buffer_(int*, int*) { return board_check("g6_initialize_jp_buffer"); }
int g6_flush_jp_buffer_(int*) { return board_check("g6_flush_jp_buffer"); }
int g6_reset_(int*) { return board_check("g6_reset"); }
int g6_reset_fofpga_(int*) { return board_check("g6_reset_fofpga"); }
int g6_read_neighbour_list_(int*) { return read_neighbour_list(); }
int g6_get_neighbour_list_(int*, int* ipipe, int* maxlength, int* n_neighbours, int neighbour_list[]) {
    return get_neighbour_list(ipipe ? *ipipe : -1, maxlength ? *maxlength : -1, n_neighbours, neighbour_list);
}

}  // extern "C"
