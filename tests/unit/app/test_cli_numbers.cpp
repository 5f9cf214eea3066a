// The command line's numeric flags refuse denormals, huge values, NaN and infinity in every spelling, and
// numbers with trailing junk, each with a message naming the flag.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/options.hpp"

using namespace nbody;

namespace {

struct Outcome {
    bool ok = false;
    AppOptions options;
    std::string message;
};

Outcome run(std::vector<std::string> args) {
    args.insert(args.begin(), "nbody-sandbox");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ostringstream out, err;
    auto r = parse_command_line(static_cast<int>(argv.size()), argv.data(), &out, &err);
    Outcome o;
    o.ok = std::holds_alternative<AppOptions>(r);
    if (o.ok)
        o.options = std::get<AppOptions>(r);
    else
        EXPECT_NE(std::get<int>(r), 0);
    o.message = out.str() + err.str();
    return o;
}

const std::vector<std::string> kNotANumber = {"nan",      "NaN",       "NAN",      "-nan", "+nan",
                                              "nan(0x1)", "nan(123)",  "inf",      "-inf", "INF",
                                              "Infinity", "-Infinity", "+infinity"};

}  // namespace

TEST(CommandLineNumbers, NanAndInfinityInEverySpellingAreRefused) {
    for (const char* flag : {"--dt", "--eps", "--G", "--eta", "--ui-scale"})
        for (const std::string& v : kNotANumber) {
            const Outcome o = run({flag, v});
            EXPECT_FALSE(o.ok) << flag << " " << v;
            EXPECT_NE(o.message.find(std::string(flag) + ": must be"), std::string::npos)
                << flag << " " << v << ": " << o.message;
        }
    EXPECT_NE(run({"--dt", "nan"}).message.find("--dt: must be from 1e-12 to 1e6 (got 'nan', not a number)"),
              std::string::npos);
}

TEST(CommandLineNumbers, DenormalsAndHugeValuesAreRefused) {
    for (const char* v :
         {"1e-320", "4.9e-324", "-1e-310", "1e-13", "1e7", "1e308", "1e400", "-1e400", "0", "-0"}) {
        const Outcome o = run({"--dt", v});
        EXPECT_FALSE(o.ok) << v;
        EXPECT_NE(o.message.find("--dt: "), std::string::npos) << v << ": " << o.message;
    }
    EXPECT_NE(run({"--dt", "1e-320"}).message.find("--dt: must be from 1e-12 to 1e6 (got 1e-320)"),
              std::string::npos);
    EXPECT_NE(run({"--eps", "1e-320"}).message.find("--eps: must be 0 or from 1e-9 to 1e4 (got 1e-320)"),
              std::string::npos);
    EXPECT_NE(run({"--G", "1e400"}).message.find("--G: expected a number from 1e-12 to 1e12 (got '1e400')"),
              std::string::npos);
}

TEST(CommandLineNumbers, JunkAndOddSpellingsAreRefused) {
    for (const char* v : {"", " 1", "1 ", "0.1x", "1e", "--", "0x1p-3", "1,5"}) {
        const Outcome o = run({"--dt", v});
        EXPECT_FALSE(o.ok) << "'" << v << "'";
    }
    for (const char* v : {"1e3", "99999999999999999999", "-5", "1.5", "0x10", "nan", ""}) {
        const Outcome o = run({"--steps", v});
        EXPECT_FALSE(o.ok) << "'" << v << "'";
        EXPECT_NE(o.message.find("--steps: "), std::string::npos) << v << ": " << o.message;
    }
}

TEST(CommandLineNumbers, GoodValuesStillParse) {
    const Outcome o = run({"--dt", "1e-3", "--eps", "0", "--G", "4.3e-6", "--steps", "010", "--seed", "7"});
    ASSERT_TRUE(o.ok) << o.message;
    EXPECT_DOUBLE_EQ(o.options.dt.value_or(0), 1e-3);
    EXPECT_EQ(o.options.eps.value_or(1), 0.0);
    EXPECT_DOUBLE_EQ(o.options.G.value_or(0), 4.3e-6);
    EXPECT_EQ(o.options.steps, 10);  // decimal, not octal 8
    EXPECT_EQ(o.options.seed.value_or(0), 7u);
}
