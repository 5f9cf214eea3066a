#pragma once
// The automatic kernel choice (SimParams::kernel_auto): a table of measured interactions/s per (precision,
// N, variant, shape) for one GPU, the rule that picks a shape for any N from it, and its text form (the
// user's cache file written by `nbody-bench --tune`, and the built-in table measured on the H200). Plain
// C++17: the CUDA backend includes it.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.hpp"
#include "core/limits.hpp"
#include "core/kernels/kernel_family.hpp"
#include "core/enums/precision.hpp"

namespace nbody {

// What a table was measured on. It applies only to the same GPU model, SM count (a MIG slice of the same
// model is a smaller device) and driver (a new driver brings a new JIT and scheduler).
struct TuningKey {
    std::string gpu;     // cudaDeviceProp::name, "NVIDIA H200"
    int sms = 0;         // multiprocessors
    std::string driver;  // "580.159.04" (the NVIDIA kernel module), or "cuda 13.0" where that is unknown
};
inline bool operator==(const TuningKey& a, const TuningKey& b) {
    return a.gpu == b.gpu && a.sms == b.sms && a.driver == b.driver;
}
inline bool operator!=(const TuningKey& a, const TuningKey& b) {
    return !(a == b);
}
std::string describe(const TuningKey& k);  // "NVIDIA H200, 132 SMs, driver 580.159.04"

// One measurement: a kernel in one precision at one N.
struct TuningRow {
    Precision precision = Precision::Fp32;
    std::size_t n = 0;
    KernelVariant variant = KernelVariant::IJUnrolled;
    KernelShape shape;  // q = 0 and s = 0: automatic (resolved per N by the planner), as the backend runs it
    double rate = 0;    // interactions/s, median of the repeats
    double spread = 0;  // (max - min) / median of the repeats
};

struct TuningTable {
    TuningKey key;
    std::string date;  // when it was measured (UTC, ISO 8601); informative
    std::string
        source;  // where it was read from, for the UI: "built-in", a file path (not stored in the file)
    std::vector<TuningRow> rows;
};

// What `auto` runs at one N, and why.
struct KernelChoice {
    KernelVariant variant = KernelVariant::IJUnrolled;
    KernelShape shape = variant_info(KernelVariant::IJUnrolled).default_shape;
    std::size_t n_below = 0, n_above = 0;  // the measured N it came from (equal: one); 0: no usable row
    double rate = 0;                       // measured (or interpolated) interactions/s; 0 with no row
    double steps_per_s = 0;                // what the choice compared: rate / the family's work a step at N
    std::string source;                    // the table's source
};

// Whether a (variant, shape) can run here (compiled, fits the registers); empty: every row can.
using ShapeFilter = std::function<bool(KernelVariant, const KernelShape&)>;

// The lookup, among the rows of precision `p`. Rows at the measured N nearest below and above n (one of them
// when n was measured or lies outside the measured range) compete; a shape measured at both gets its
// interactions/s interpolated linearly in log N, and the most steps per second at n wins (the rate divided by
// the family's work a step at n, core/kernels/kernel_family.hpp: method-neutral; among direct families the same order). So a measured N gets exactly its
// winner, and between two measured N a shape good at both beats one that won narrowly at one and lost badly
// at the other. When no shape was measured at both, the winner of the neighbour nearer in log N. Rows `runs`
// refuses are skipped; with none left, the ij-unrolled default shape.
KernelChoice choose_kernel(const TuningTable& t, Precision p, std::size_t n, const ShapeFilter& runs = {});

// "measured at N = 7,500 (1.43e12 interactions/s), table: built-in (NVIDIA H200, 132 SMs, ...)".
std::string describe(const KernelChoice& c);
using limits::with_commas;  // core/limits.hpp

// ---------------------------------------------------------------------------------------------------------
// Text form
// ---------------------------------------------------------------------------------------------------------

// "name:line: why" (line 0: the whole file, "name: why").
std::string located_message(const std::string& name, int line, const std::string& why);

// A table file that cannot be used, located by located_message.
struct TuningFileError : Error {
    TuningFileError(std::string name, int line_no, const std::string& why)
        : Error(located_message(name, line_no, why)), file(std::move(name)), line(line_no) {}
    std::string file;
    int line;
};

inline constexpr int kTuningFormatVersion = 1;
inline constexpr std::size_t kTuningFileMaxBytes = 1 << 20;  // a full --tune table is ~10 KiB

// Parses a table (source = name). Throws TuningFileError for anything malformed, out of range, of another
// format version or without rows; never reads past `text`. The entry point the fuzzers drive.
TuningTable parse_tuning_table(std::string_view text, const std::string& name);
std::string format_tuning_table(const TuningTable& t);

// ---------------------------------------------------------------------------------------------------------
// Where tables live
// ---------------------------------------------------------------------------------------------------------

// $XDG_CACHE_HOME/nbody-sandbox, else $HOME/.cache/nbody-sandbox (relative XDG paths are ignored, as the
// XDG spec says); empty when neither is set.
std::filesystem::path tuning_cache_dir(const char* xdg_cache_home, const char* home);
std::filesystem::path tuning_cache_dir();  // from the environment
// One file per GPU and driver: "tuning-NVIDIA-H200-580.159.04.txt" (letters, digits, '.', '-' kept, the rest
// '-'); the SM count is checked inside the file.
std::string tuning_file_name(const TuningKey& k);

// The table compiled in (src/core/kernels/kernel_tuning_h200.txt: the H200's, in the same format as the output of
// `nbody-bench --tune --tune-out`, which can replace its rows), used when no cache file matches. Throws TuningFileError if it is broken
// (a unit test parses it, so that fails CI rather than a user's run).
std::string_view builtin_tuning_text();
const TuningTable& builtin_tuning_table();

struct LoadedTuning {
    TuningTable table;
    std::string note;  // one line for the user when a file was ignored or the built-in is another GPU's
};
// The table for `key`: dir / tuning_file_name(key) when it parses and was measured on this key, else the
// built-in one, with a note saying why. Never throws for a bad file.
LoadedTuning load_tuning_table(const TuningKey& key, const std::filesystem::path& dir);

// Writes the table (creating directories; via a temporary file renamed into place, so a reader never sees
// half a table). Throws Error naming the path on failure.
void save_tuning_table(const TuningTable& t, const std::filesystem::path& file);

// The key of a CUDA device: name, SM count and the driver release from /proc/driver/nvidia/version,
// falling back to the CUDA driver API version (cudaDriverGetVersion, e.g. 13000 -> "cuda 13.0").
TuningKey device_tuning_key(const std::string& gpu_name, int sm_count, int cuda_driver_version);
// "580.159.04" from the text of /proc/driver/nvidia/version; empty when it has no version.
std::string nvidia_driver_release(std::string_view proc_version_text);

}  // namespace nbody
