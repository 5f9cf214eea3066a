#pragma once
// The kernel race's results as a table with a text bar chart (nbody-bench --race), CSV and JSON (both front
// ends' exports): one row per entry, interactions/s first.
#include <cstdio>
#include <string>
#include <vector>

#include "bench/race.hpp"

namespace nbody {

struct RaceReport {
    std::string device;   // Backend::name()
    std::string date;     // UTC, ISO 8601
    std::string command;  // the command line, or "nbody-sandbox Race button"
    std::string note;     // Race::note(): how the error was measured
    std::size_t n = 0;
    double seconds = 0;  // per entry
    std::vector<RaceResult> results;
};

// The entries fastest first by steps/s (the time to a result, which compares a tree with direct summation),
// the skipped ones last: the order of the table, the bars and the window's chart.
std::vector<const RaceResult*> by_steps_per_s(const RaceReport& r);

// "#######...." of `width` characters, filled in proportion value / max (0 when max <= 0).
std::string text_bar(double value, double max, int width);

void print_race(std::FILE* out, const RaceReport& r);
std::string race_csv(const RaceReport& r);
std::string race_json(const RaceReport& r);
// Throw Error("<path>: cannot open for writing") where the file cannot be written.
void write_race_csv(const std::string& path, const RaceReport& r);
void write_race_json(const std::string& path, const RaceReport& r);

}  // namespace nbody
