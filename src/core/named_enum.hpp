#pragma once
// One table per enumerated setting (precision, integrator, ...): the value, the name typed on the command line
// and in scene files and shown in the UI, and a one-line description for tooltips and --help. Parsing and
// naming go through the table, so a new value is one new row.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nbody {

template <class E>
struct NamedValue {
    E value;
    std::string_view name;
    std::string_view description;
};

template <class E, std::size_t N>
std::optional<E> parse_named(const std::array<NamedValue<E>, N>& table, std::string_view s) {
    for (const auto& row : table)
        if (row.name == s) return row.value;
    return std::nullopt;
}

template <class E, std::size_t N>
std::string_view name_of(const std::array<NamedValue<E>, N>& table, E v) {
    for (const auto& row : table)
        if (row.value == v) return row.name;
    return "?";
}

template <class E, std::size_t N>
std::vector<std::string> names_of(const std::array<NamedValue<E>, N>& table) {
    std::vector<std::string> out;
    for (const auto& row : table) out.emplace_back(row.name);
    return out;
}

// Descriptor rows (integrators, force methods: a struct with `id`, `name` and `description`): the row of one
// value, and the rows' name table for parsing and combo boxes.
template <class Row, std::size_t N, class E>
const Row& row_of(const std::array<Row, N>& rows, E id) {
    for (const Row& row : rows)
        if (row.id == id) return row;
    return rows.front();  // unreachable where every enumerator has a row (the unit tests check each table)
}
template <class E, class Row, std::size_t N>
std::array<NamedValue<E>, N> names_of_rows(const std::array<Row, N>& rows) {
    std::array<NamedValue<E>, N> t{};
    for (std::size_t k = 0; k < N; ++k) t[k] = {rows[k].id, rows[k].name, rows[k].description};
    return t;
}

// "fp32, ds, fp64": for messages that list what is allowed.
template <class E, std::size_t N>
std::string joined_names(const std::array<NamedValue<E>, N>& table) {
    std::string out;
    for (const auto& row : table) out += (out.empty() ? "" : ", ") + std::string(row.name);
    return out;
}

// The names of the rows whose bit (bit(E), beside each enum) is set in `mask`, in table order, joined:
// "fp32", "ds and fp64" ("ds or fp64" to choose from): how a refusal names what would run.
template <class E, std::size_t N>
std::string names_in(const std::array<NamedValue<E>, N>& table, unsigned mask,
                     const char* join = " and ") {
    std::string out;
    for (const auto& row : table)
        if (mask & bit(row.value)) out += (out.empty() ? "" : join) + std::string(row.name);
    return out;
}

}  // namespace nbody
