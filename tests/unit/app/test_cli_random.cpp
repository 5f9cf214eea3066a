// The command line under random arguments (a property test in the fuzzers' spirit: the flag parser links the
// whole program, which the clang fuzz build cannot): every list of known flags, misspelt flags, numbers, scene
// names and junk parses to options or to a non-zero exit with words, never a crash or an exception; and a
// misspelt long flag is always named as one.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "cli_parse.hpp"

using namespace nbody;

namespace {
const std::vector<std::string> kWords = {
    "--steps", "--stepz", "--dt", "--eps", "--G", "--bodies", "--headless", "--backend", "cpu", "gl", "cuda",
    "--method", "tree", "direct", "--integrator", "leapfrog", "hermite6-block", "--precision", "ds", "fp64",
    "--theta", "--eta", "--trails", "--frames", "--screenshot", "x.png", "--", "-", "--=", "--steps=",
    "--dt=-1", "--dt=nan", "--dt=1e400", "two-body", "cartwheel", "milkyway", "scenes/none.toml", "5", "-5",
    "0", "1e9", "1e-13", "inf", "", "--no-vsync", "--gpus", "all", "--threads", "--ui-scale", "--color",
    "speed", "--variant", "ij-unrolled", "--k", "--u", "--block", "--q", "--json", "--quiet", "\xff\xfe"};
}  // namespace

TEST(CliRandom, AnyArgumentsParseOrFailWithWordsNeverCrash) {
    std::mt19937 rng(20261128);
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<std::string> args;
        const int n = int(rng() % 7);
        for (int i = 0; i < n; ++i) args.push_back(kWords[rng() % kWords.size()]);
        std::ostringstream out, err;
        std::vector<std::string> full = args;
        full.insert(full.begin(), "nbody-sandbox");
        std::vector<char*> argv;
        for (auto& a : full) argv.push_back(a.data());
        std::variant<AppOptions, int> r;
        ASSERT_NO_THROW(r = parse_command_line(int(argv.size()), argv.data(), &out, &err)) << trial;
        if (const int* code = std::get_if<int>(&r); code && *code != 0) {
            EXPECT_FALSE(out.str().empty() && err.str().empty()) << "a refusal without words, trial " << trial;
        }
        const bool misspelt = std::find(args.begin(), args.end(), "--stepz") != args.end() &&
                              std::find(args.begin(), args.end(), "--") > std::find(args.begin(), args.end(), "--stepz");
        if (misspelt) {
            EXPECT_NE(err.str().find("unknown flag"), std::string::npos) << err.str();
        }
    }
}
