#pragma once
#include <string>
#include <vector>

#include "bench/bench_runner.hpp"

namespace nbody {

struct BenchMeta {
    std::string device;   // "NVIDIA H200 (132 SMs, 1.98 GHz)" or the CPU
    std::string date;     // UTC, ISO 8601
    std::string command;  // the command line that produced the rows
};

// One table row per configuration: interactions/s first, Gflop/s at 20 and 38 as conversions of it.
void print_table_header();
void print_row(const BenchRow& r);
void write_bench_json(const std::string& path, const BenchMeta& meta, const std::vector<BenchRow>& rows);

// nbody-bench --tune (tune_mode.cpp): measures, writes the tuning table to the cache (and --tune-out,
// --json), prints the winners and what auto now picks. Throws Error without a usable CUDA device.
struct BenchOptions;
void run_tune_mode(const BenchOptions& o, const std::string& command);

}  // namespace nbody
