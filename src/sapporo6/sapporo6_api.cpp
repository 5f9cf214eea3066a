// Sapporo2's sixth-order entry points (sapporo6thlib.h). Its API is one process-wide board opened by
// initialize, so the one Board lives here (the single piece of global state the API itself imposes).
// Exceptions never cross into C callers: every failure is a message (sapporo6_last_error and stderr).
// Each exported name calls internal functions only, never another exported name, and the library binds its
// own symbols (-Bsymbolic-functions): a client's definition of the same names cannot be called back.
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "sapporo6/sapporo6_board.hpp"
#include "sapporo6/sapporo6thlib.h"

namespace {

using nbody::sapporo6::Board;

std::unique_ptr<Board>& board() {
    static std::unique_ptr<Board> b;
    return b;
}
std::string& last_error() {
    static std::string e;
    return e;
}

void report(std::string message) {
    last_error() = std::move(message);
    if (!last_error().empty()) std::fprintf(stderr, "sapporo6: %s\n", last_error().c_str());
}

// Runs f (returning "" or a message) on the board, turning a missing board or an exception into a message.
template <class F>
void with_board(const char* call, F&& f) {
    if (!board()) return report(std::string(call) + ": called before initialize");
    try {
        report(f(*board()));
    } catch (const std::exception& e) {
        report(std::string(call) + ": " + e.what());
    }
}

// Devices initialize_special takes at most (a list of this many ordinals; an ordinal may repeat).
constexpr int kMaxDevices = 64;

void open_board(int ndev, const int* list) {
    if (board()) return report({});  // Sapporo2 opens once; later calls keep the j-memory
    std::string error;
    nbody::sapporo6::Config c = nbody::sapporo6::config_from_environment(error);
    if (!error.empty()) return report("initialize: " + error);
    if (ndev < 0 || ndev > kMaxDevices)
        return report("initialize_special: ndev " + std::to_string(ndev) + " is outside [0, " +
                      std::to_string(kMaxDevices) + "]");
    if (ndev > 0 && !list)
        return report("initialize_special: list is null with ndev " + std::to_string(ndev));
    if (ndev > 0) c.gpus.assign(list, list + ndev);
    try {
        board() = std::make_unique<Board>(c);
        report({});
    } catch (const std::exception& e) {
        report(std::string("initialize: ") + e.what());
    }
}

}  // namespace

extern "C" {

void initialize_special(int ndev, int* list) {
    open_board(ndev, list);
}
void initialize(void) {
    open_board(0, nullptr);
}
void cleanup(void) {
    board().reset();
    last_error().clear();
}

void set_j_particle(int address, double pos[3], double vel[3], double acc[3], double jrk[3], double snp[3],
                    double crk[3], double mass, double time, int id, double eps2) {
    with_board("set_j_particle", [&](Board& b) {
        return b.set_j_particle(address, {pos, vel, acc, jrk, snp, crk, mass, time, eps2, id});
    });
}
void predict_all(double time, int nj) {
    with_board("predict_all", [&](Board& b) { return b.predict("predict_all", time, nj, true); });
}
void no_predict_all(double time, int nj) {
    with_board("no_predict_all", [&](Board& b) { return b.predict("no_predict_all", time, nj, false); });
}
void pick_up_predictor_2(int addr, int& id, double& mass, double& eps2, double pos[3], double vel[3],
                         double acc[3]) {
    with_board("pick_up_predictor_2",
               [&](Board& b) { return b.pick_up(addr, id, mass, eps2, pos, vel, acc); });
}
void calc_force_on_predictors(int ni, int nj, int ids[], double pos[][3], double vel[][3], double acc[][3],
                              double mass[], double eps2[], double accNew[][3], double jrkNew[][3],
                              double snpNew[][3], double crkNew[][3], double phi[], int nnb[],
                              double nnb_r2[]) {
    with_board("calc_force_on_predictors", [&](Board& b) {
        return b.calc(nj, {ni, ids, pos, vel, acc, mass, eps2},
                      {accNew, jrkNew, snpNew, crkNew, phi, nnb, nnb_r2});
    });
}
const char* sapporo6_last_error(void) {
    return last_error().c_str();
}
const char* sapporo6_device(void) {
    return board() ? board()->where() : "none";
}

}  // extern "C"
