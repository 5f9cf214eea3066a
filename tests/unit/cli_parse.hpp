#pragma once
// Runs the real command-line parser on a list of arguments, as main() would see them.
#include <string>
#include <variant>
#include <vector>

#include "app/options.hpp"

namespace nbody::test {

inline std::variant<AppOptions, int> parse(std::vector<std::string> args) {
    args.insert(args.begin(), "nbody-sandbox");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

}  // namespace nbody::test
