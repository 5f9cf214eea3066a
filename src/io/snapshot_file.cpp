#include "io/snapshot_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>

#include "core/errors.hpp"
#include "io/hdf5_snapshot.hpp"
#include "io/tipsy.hpp"

namespace nbody {

namespace {
struct SnapshotFormatRow {
    SnapshotFormat format;
    std::string_view name;                       // "CSV"
    std::array<std::string_view, 3> extensions;  // ".csv"; unused entries empty
};

constexpr SnapshotFormatRow kFormats[] = {
    {SnapshotFormat::Csv, "CSV", {".csv", "", ""}},
    {SnapshotFormat::Tipsy, "tipsy", {".tipsy", ".std", ".bin"}},
    {SnapshotFormat::Hdf5, "HDF5", {".hdf5", ".h5", ""}},
};

std::string lower_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

const SnapshotFormatRow* find_format(const std::string& path) {
    const std::string ext = lower_extension(path);
    if (ext.empty()) return nullptr;
    for (const SnapshotFormatRow& row : kFormats)
        if (std::find(row.extensions.begin(), row.extensions.end(), ext) != row.extensions.end()) return &row;
    return nullptr;
}
}  // namespace

std::string snapshot_formats_text() {
    std::string out;
    const std::size_t n = std::size(kFormats);
    for (std::size_t i = 0; i < n; ++i) {
        out += i == 0 ? "" : i + 1 == n ? " or " : ", ";
        out += std::string(kFormats[i].name) + " (";
        bool first = true;
        for (std::string_view ext : kFormats[i].extensions) {
            if (ext.empty()) continue;
            out += (first ? "*" : ", *") + std::string(ext);
            first = false;
        }
        out += ")";
    }
    return out;
}

SnapshotFormat snapshot_format_of(const std::string& path) {
    if (const SnapshotFormatRow* row = find_format(path)) return row->format;
    const std::string ext = lower_extension(path);
    throw Error(path + ": " + (ext.empty() ? "no extension" : "unknown extension '" + ext + "'") +
                " for a snapshot; the formats are " + snapshot_formats_text());
}

bool is_tipsy_path(const std::string& path) {
    const SnapshotFormatRow* row = find_format(path);
    return row && row->format == SnapshotFormat::Tipsy;
}

bool is_hdf5_path(const std::string& path) {
    const SnapshotFormatRow* row = find_format(path);
    return row && row->format == SnapshotFormat::Hdf5;
}

void write_snapshot(const State& s, const SnapshotInfo& info, const std::string& path) {
    switch (snapshot_format_of(path)) {
        case SnapshotFormat::Csv:
            write_snapshot_csv(s, info, path);
            return;
        case SnapshotFormat::Tipsy:
            write_tipsy(s, info.eps.value_or(0.0), path);
            return;
        case SnapshotFormat::Hdf5:
            write_hdf5(Hdf5File{{s, info}, std::nullopt}, path);
            return;
    }
}

Snapshot read_snapshot(const std::string& path) {
    switch (snapshot_format_of(path)) {
        case SnapshotFormat::Csv:
            return read_snapshot_csv(path);
        case SnapshotFormat::Tipsy:
            return {read_tipsy(path), {}};
        case SnapshotFormat::Hdf5:
            break;
    }
    return read_hdf5(path).snapshot;
}

}  // namespace nbody
