#pragma once
// Reads one TOML table field by field with range checks, remembering which keys it was asked for so
// finish() can reject unknown keys with a did-you-mean. Every error is a SceneError at file:line:column.
#include <array>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "core/float4.hpp"

namespace nbody {

class TomlReader {
  public:
    // `prefix` qualifies field names in messages ("" for the top level, "component[2]." in an array).
    TomlReader(const toml::table& table, std::string file, std::string prefix);

    // A number from lo to hi; subnormal values are rejected by name even where the range includes 0.
    double number(std::string_view key, double def, double lo, double hi);
    long long integer(std::string_view key, long long def, long long lo, long long hi);
    long long required_integer(std::string_view key, long long lo, long long hi);
    std::string string(std::string_view key, std::string def);
    std::string required_string(std::string_view key);
    // Three numbers, each from -bound to bound (and not subnormal).
    Double3 vec3(std::string_view key, Double3 def, double bound);
    // Two numbers [width, height], each from lo to hi (lo > 0); `def` when absent.
    std::array<double, 2> size2(std::string_view key, std::array<double, 2> def, double lo, double hi);
    // A non-zero direction, returned as given (callers normalise).
    Double3 direction(std::string_view key, Double3 def);
    bool boolean(std::string_view key, bool def);
    // One of `allowed` (errors list them, with a did-you-mean); `def` when absent.
    // `noun` names the thing in the message: "unknown component type 'galaxy'".
    std::string choice(std::string_view key, const std::string& def, const std::vector<std::string>& allowed,
                       std::string_view noun = "value");
    std::string required_choice(std::string_view key, const std::vector<std::string>& allowed,
                                std::string_view noun = "value");
    // An array of strings (at least one).
    std::vector<std::string> strings(std::string_view key);
    // A sub-table ([name] or name = {...}), or null when absent; anything else is an error.
    const toml::table* table(std::string_view key);
    // The prefix to give a reader of sub-table `key`: "component[2].disk.".
    std::string child_prefix(std::string_view key) const { return m_prefix + std::string(key) + "."; }
    const std::string& file() const { return m_file; }
    // The field's name in messages ("component[2].disk.cutoff") and where it is (the table when absent).
    std::string qualified(std::string_view key) const { return m_prefix + std::string(key); }
    toml::source_region where(std::string_view key) const;
    // Numbers in messages: the shortest text that reads back as v.
    static std::string format(double v);
    bool has(std::string_view key) const { return m_table.contains(key); }
    // The raw node (or null), for fields with a shape of their own; marks the key as known.
    const toml::node* node(std::string_view key) { return get(key); }

    // Throws for the first key never asked for: "unknown key 'epss' (did you mean 'eps'?)".
    void finish() const;

    [[noreturn]] void fail(const toml::source_region& where, std::string_view key,
                           const std::string& why) const;
    [[noreturn]] void fail_table(const std::string& why) const;

  private:
    const toml::node* get(std::string_view key);
    // The node as an array of exactly `count` numbers, else a located error naming `shape` ("[x, y, z]").
    const toml::array& numbers(const toml::node& n, std::string_view key, std::size_t count,
                               std::string_view shape) const;

    const toml::table& m_table;
    std::string m_file, m_prefix;
    std::set<std::string, std::less<>> m_asked;
};

// Closest of `options` to `word` by edit distance, or empty when none is within 2 edits.
std::string did_you_mean(std::string_view word, const std::set<std::string, std::less<>>& options);

}  // namespace nbody
