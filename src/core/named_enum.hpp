#pragma once
// One table per enumerated setting (precision, integrator, ...): the value, the name typed on the command line
// and in scene files and shown in the UI, and a one-line description for tooltips and --help. Parsing and
// naming go through the table, so a new value is one new row.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace nbody {

template <class E>
struct NamedValue {
    E value;
    std::string_view name;
    std::string_view description;
};

// The templates below take any table of rows (a std::array of built-in rows, or a std::vector where rows may
// be added as the program starts): TableValue is the enum a NamedValue table holds.
template <class Table>
using TableValue = std::decay_t<decltype(std::declval<const Table&>().begin()->value)>;

template <class Table>
std::optional<TableValue<Table>> parse_named(const Table& table, std::string_view s) {
    for (const auto& row : table)
        if (row.name == s) return row.value;
    return std::nullopt;
}

template <class Table, class E>
std::string_view name_of(const Table& table, E v) {
    for (const auto& row : table)
        if (row.value == v) return row.name;
    return "?";
}

template <class Table>
std::vector<std::string> names_of(const Table& table) {
    std::vector<std::string> out;
    for (const auto& row : table) out.emplace_back(row.name);
    return out;
}

// Descriptor rows (integrators, force methods: a struct with `id`, `name` and `description`): the row of one
// value, and the rows' name table for parsing and combo boxes.
template <class Rows, class E>
const auto& row_of(const Rows& rows, E id) {
    for (const auto& row : rows)
        if (row.id == id) return row;
    return *rows.begin();  // unreachable where every enumerator has a row (the unit tests check each table)
}
template <class E, class Rows>
std::vector<NamedValue<E>> names_of_rows(const Rows& rows) {
    std::vector<NamedValue<E>> t;
    for (const auto& row : rows) t.push_back({row.id, row.name, row.description});
    return t;
}

// "fp32, ds, fp64": for messages that list what is allowed.
template <class Table>
std::string joined_names(const Table& table) {
    std::string out;
    for (const auto& row : table) out += (out.empty() ? "" : ", ") + std::string(row.name);
    return out;
}

// The names of the rows whose bit (bit(E), beside each enum) is set in `mask`, in table order, joined:
// "fp32", "ds and fp64" ("ds or fp64" to choose from): how a refusal names what would run.
template <class Table>
std::string names_in(const Table& table, unsigned mask, const char* join = " and ") {
    std::string out;
    for (const auto& row : table)
        if (mask & bit(row.value)) out += (out.empty() ? "" : join) + std::string(row.name);
    return out;
}

}  // namespace nbody
