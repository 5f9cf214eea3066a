// Where tuning tables live: the user's cache directory (one file per GPU key) and the built-in table.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <system_error>

#include "core/kernels/kernel_tuning.hpp"

namespace nbody {

namespace {

// At most `limit` + 1 bytes of the file (one more than allowed, so the parser can say it is too large).
std::string read_bounded(const std::filesystem::path& file, std::size_t limit) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw TuningFileError(file.string(), 0, "cannot be read");
    std::string text(limit + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
}

}  // namespace

std::filesystem::path tuning_cache_dir(const char* xdg_cache_home, const char* home) {
    if (xdg_cache_home && *xdg_cache_home && std::filesystem::path(xdg_cache_home).is_absolute())
        return std::filesystem::path(xdg_cache_home) / "nbody-sandbox";
    if (home && *home) return std::filesystem::path(home) / ".cache" / "nbody-sandbox";
    return {};
}

std::filesystem::path tuning_cache_dir() {
    return tuning_cache_dir(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

std::string tuning_file_name(const TuningKey& k) {
    auto clean = [](const std::string& s) {
        std::string out;
        for (const char c : s) {
            const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                              c == '.' || c == '-';
            out += keep ? c : '-';
        }
        return out.empty() ? std::string("unknown") : out;
    };
    return "tuning-" + clean(k.gpu) + "-" + clean(k.driver) + ".txt";
}

const TuningTable& builtin_tuning_table() {
    static const TuningTable table = [] {
        TuningTable t = parse_tuning_table(builtin_tuning_text(), "built-in kernel_tuning_h200.txt");
        t.source = "built-in (" + describe(t.key) + ")";
        return t;
    }();
    return table;
}

LoadedTuning load_tuning_table(const TuningKey& key, const std::filesystem::path& dir) {
    LoadedTuning out;
    try {
        out.table = builtin_tuning_table();
    } catch (
        const Error& e) {  // a bad built-in table fails the unit tests; here auto falls back to the default
        out.note = std::string("the built-in tuning table is unusable (") + e.what() +
                   "): auto uses the default shape";
    }
    const std::filesystem::path file = dir.empty() ? dir : dir / tuning_file_name(key);
    std::error_code ec;
    if (!file.empty() && std::filesystem::exists(file, ec)) {
        try {
            TuningTable t = parse_tuning_table(read_bounded(file, kTuningFileMaxBytes), file.string());
            if (t.key != key)
                throw TuningFileError(file.string(), 0,
                                      "measured on " + describe(t.key) + ", not on this " + describe(key));
            t.source = file.string();
            return {t, ""};
        } catch (const Error& e) {
            out.note = std::string("ignoring tuning table ") + e.what() + "; auto uses the built-in table";
            return out;
        }
    }
    if (out.note.empty() && out.table.key.gpu != key.gpu)
        out.note = "no tuning table for " + key.gpu + (dir.empty() ? std::string() : " in " + dir.string()) +
                   ": auto uses the one measured on " + out.table.key.gpu +
                   " (nbody-bench --tune measures this GPU)";
    return out;
}

void save_tuning_table(const TuningTable& t, const std::filesystem::path& file) {
    std::error_code ec;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) throw Error("cannot create " + file.parent_path().string() + ": " + ec.message());
    const std::filesystem::path tmp = file.string() + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << format_tuning_table(t);
        out.close();
        if (!out) {
            std::filesystem::remove(tmp, ec);
            throw Error("cannot write the tuning table to " + tmp.string());
        }
    }
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw Error("cannot write the tuning table to " + file.string() + ": " + ec.message());
    }
}

std::string nvidia_driver_release(std::string_view text) {
    text = text.substr(0, text.find('\n'));  // "NVRM version: NVIDIA UNIX ... Kernel Module  580.159.04  ..."
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        const std::size_t b = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        const std::string_view w = text.substr(b, i - b);
        // A release is digits in dot-separated groups, at least two: 580.159.04, 535.104.05, 550.54.
        bool digits = !w.empty() && w.front() != '.' && w.back() != '.', dot = false;
        for (std::size_t j = 0; j < w.size() && digits; ++j) {
            if (w[j] == '.') {
                dot = true;
                digits = w[j - 1] != '.';
            } else {
                digits = w[j] >= '0' && w[j] <= '9';
            }
        }
        if (digits && dot) return std::string(w);
    }
    return {};
}

TuningKey device_tuning_key(const std::string& gpu_name, int sm_count, int cuda_driver_version) {
    TuningKey k{gpu_name, sm_count, {}};
    std::ifstream in("/proc/driver/nvidia/version");
    if (in) {
        std::string first;
        std::getline(in, first);
        k.driver = nvidia_driver_release(first.substr(0, 1000));
    }
    if (k.driver.empty())
        k.driver = cuda_driver_version > 0 ? "cuda " + std::to_string(cuda_driver_version / 1000) + "." +
                                                 std::to_string(cuda_driver_version % 1000 / 10)
                                           : "unknown";
    return k;
}

}  // namespace nbody
