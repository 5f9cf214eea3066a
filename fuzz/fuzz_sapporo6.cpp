// Sapporo2's sixth-order C interface (src/sapporo6) driven by arbitrary bytes: a sequence of calls with
// addresses, counts and values (NaN, infinities, huge and negative numbers among them) chosen by the input.
// Every call must return (an error message where the input is bad), never crash, and a refused call must
// leave the j-memory as it was.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sapporo6thlib.h"

namespace {

constexpr int kJMemory = 40, kPipes = 5, kMaxI = 12;

// Mostly ordinary numbers, so that calls get through to the arithmetic; now and then a huge, NaN or infinite
// one.
double value(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 63)) {
        case 0:
            return NAN;
        case 1:
            return in.ConsumeBool() ? HUGE_VAL : -HUGE_VAL;
        case 2:
            return in.ConsumeFloatingPoint<double>();  // any double
        default:
            return in.ConsumeFloatingPointInRange<double>(-4.0, 4.0);
    }
}
// n ordinary numbers, and with a chance of one in four one entry among them replaced by value().
void fill(FuzzedDataProvider& in, double* v, int n) {
    for (int k = 0; k < n; ++k) v[k] = in.ConsumeFloatingPointInRange<double>(-4.0, 4.0);
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) v[in.ConsumeIntegralInRange<int>(0, n - 1)] = value(in);
}

// The j-memory's first n addresses as pick_up_predictor_2 returns them (bit patterns, NaN included).
std::vector<double> snapshot(int n) {
    std::vector<double> out;
    for (int a = 0; a < n; ++a) {
        int id = 0;
        double m = 0, e = 0, x[3] = {0, 0, 0}, v[3] = {0, 0, 0}, acc[3] = {0, 0, 0};
        pick_up_predictor_2(a, id, m, e, x, v, acc);
        out.insert(out.end(), {double(id), m, e, x[0], x[1], x[2], v[0], v[1], v[2], acc[0], acc[1], acc[2]});
    }
    return out;
}

void calc(FuzzedDataProvider& in) {
    const int ni = in.ConsumeIntegralInRange<int>(-1, kMaxI),
              nj = in.ConsumeIntegralInRange<int>(-1, kJMemory + 1);
    static double pos[kMaxI][3], vel[kMaxI][3], acc[kMaxI][3], mass[kMaxI], eps2[kMaxI];
    static double a[kMaxI][3], j[kMaxI][3], s[kMaxI][3], c[kMaxI][3], phi[kMaxI], r2[kMaxI];
    static int ids[kMaxI], nnb[kMaxI];
    fill(in, &pos[0][0], 3 * kMaxI), fill(in, &vel[0][0], 3 * kMaxI), fill(in, &acc[0][0], 3 * kMaxI);
    fill(in, mass, kMaxI), fill(in, eps2, kMaxI);
    for (int i = 0; i < kMaxI; ++i) {
        eps2[i] = std::fabs(eps2[i]);
        ids[i] = in.ConsumeIntegralInRange<int>(-2, kJMemory);
    }
    calc_force_on_predictors(ni, nj, ids, pos, vel, acc, mass, eps2, a, j, s, c, phi, nnb, r2);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const bool env = [] {
        setenv("NBODY_SAPPORO6_DEVICE", "cpu", 1);
        setenv("NBODY_SAPPORO6_JMEMORY", "40", 1);
        setenv("NBODY_SAPPORO6_NPIPES", "5", 1);
        return true;
    }();
    (void)env;
    FuzzedDataProvider in(data, size);
    initialize();
    int highest = 0;  // addresses 0..highest-1 may have been set
    for (int op = 0; op < 64 && in.remaining_bytes() > 0; ++op) {
        const std::vector<double> before = snapshot(highest);
        switch (in.ConsumeIntegralInRange<int>(0, 4)) {
            case 0: {
                const int addr = in.ConsumeIntegralInRange<int>(-2, kJMemory + 1);
                double d[21];
                fill(in, d, 21);  // pos, vel, acc, jrk, snp, crk, mass, time, eps2
                set_j_particle(addr, d, d + 3, d + 6, d + 9, d + 12, d + 15, d[18], d[19],
                               in.ConsumeIntegralInRange<int>(-2, kJMemory), std::fabs(d[20]));
                if (!*sapporo6_last_error() && addr + 1 > highest) highest = addr + 1;
                break;
            }
            case 1:
                predict_all(value(in), in.ConsumeIntegralInRange<int>(-1, kJMemory + 1));
                break;
            case 2:
                no_predict_all(value(in), in.ConsumeIntegralInRange<int>(-1, kJMemory + 1));
                break;
            case 3:
                calc(in);
                break;
            default: {
                int id;
                double m, e, x[3], v[3], a[3];
                pick_up_predictor_2(in.ConsumeIntegralInRange<int>(-2, kJMemory + 1), id, m, e, x, v, a);
            }
        }
        if (*sapporo6_last_error()) {  // refused: the j-memory is as it was
            const std::vector<double> after = snapshot(highest);
            if (!before.empty() &&
                std::memcmp(before.data(), after.data(), before.size() * sizeof(double)) != 0)
                std::abort();
        }
    }
    cleanup();
    return 0;
}
