#pragma once
// What the race tests share: the CPU backend set up to race, quick race options, bit-for-bit state checks,
// nbody-bench's command line and a CSV splitter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <variant>

#include <nlohmann/json.hpp>

#include "bench/bench_cli.hpp"
#include "bench/race.hpp"
#include "bench/race_output.hpp"
#include "core/errors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/reference_force.hpp"
#include "tests/unit/test_util.hpp"
#include "ui/race_driver.hpp"

using namespace nbody;

namespace race_test {

inline SimParams race_params(Integrator integ = Integrator::LeapFrog) {
    SimParams p;
    p.backend = BackendKind::Cpu;
    p.dt = 1e-3;
    p.eps = 0.05;
    p.integrator = integ;
    p.precision = Precision::DS;  // not the first entry's: the restore must put it back
    p.cpu_threads = 2;
    return p;
}

inline RaceOptions quick() {
    RaceOptions o;
    o.seconds = 0.03;
    return o;
}

// Every byte of the positions, masses, velocities and groups, and the time.
inline void expect_identical(const State& a, const State& b) {
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.pos_mass.data(), b.pos_mass.data(), a.size() * sizeof(Double4)));
    EXPECT_EQ(0, std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Double4)));
    EXPECT_EQ(a.group, b.group);
    EXPECT_EQ(a.time, b.time);
}

// A backend that ran a few steps from a Plummer sphere, so time and step count are not zero.
struct Raced {
    CpuBackend backend{2};
    State before;
    long long steps = 0;
    explicit Raced(std::size_t n, Integrator integ = Integrator::LeapFrog) {
        State s = test::plummer_state(n);
        for (std::size_t i = 0; i < n; ++i) s.group[i] = uint32_t(i % 3);
        backend.reset(s, race_params(integ));
        backend.step(7);
        backend.read_state(before);
        steps = backend.steps_taken();
    }
    void expect_restored() {
        State after;
        backend.read_state(after);
        expect_identical(before, after);
        EXPECT_EQ(backend.steps_taken(), steps);
    }
};

inline std::variant<BenchOptions, int> parse(std::vector<std::string> args) {
    args.insert(args.begin(), "nbody-bench");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return parse_bench_command_line(static_cast<int>(argv.size()), argv.data());
}

const std::string kScene = std::string(NBODY_SOURCE_DIR) + "/scenes/plummer.toml";

// Splits one CSV line (RFC 4180 quoting) into fields.
inline std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            out.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            out.emplace_back();
        } else {
            out.back() += c;
        }
    }
    EXPECT_FALSE(quoted) << line;
    return out;
}

}  // namespace race_test

using namespace race_test;
