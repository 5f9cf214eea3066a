// The libraries' environment settings (core/env_int.hpp): a word from a list or a whole number in a range,
// unset or empty leaving the default, anything else refused with the variable, its value and the choices.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/env_int.hpp"

using namespace nbody;

TEST(EnvSettings, AWordFromItsListOrTheChoicesNamed) {
    const char* name = "NBODY_TEST_ENV_WORD";
    std::string out = "default", error;
    unsetenv(name);
    EXPECT_TRUE(env_word(name, {"ds", "fp64", "fp32"}, out, error));
    EXPECT_EQ(out, "default");
    setenv(name, "", 1);
    EXPECT_TRUE(env_word(name, {"ds", "fp64", "fp32"}, out, error));
    EXPECT_EQ(out, "default");
    setenv(name, "fp32", 1);
    EXPECT_TRUE(env_word(name, {"ds", "fp64", "fp32"}, out, error));
    EXPECT_EQ(out, "fp32");
    EXPECT_TRUE(error.empty());

    setenv(name, "fp16", 1);
    EXPECT_FALSE(env_word(name, {"ds", "fp64", "fp32"}, out, error));
    EXPECT_EQ(out, "fp32");
    EXPECT_EQ(error, "NBODY_TEST_ENV_WORD=fp16: expected ds, fp64 or fp32");
    EXPECT_FALSE(env_word(name, {"fp64", "ds"}, out, error));
    EXPECT_EQ(error, "NBODY_TEST_ENV_WORD=fp16: expected fp64 or ds");
    setenv(name, "tpu", 1);
    EXPECT_FALSE(env_device(name, out, error));
    EXPECT_EQ(error, "NBODY_TEST_ENV_WORD=tpu: expected auto, cpu or cuda");
    unsetenv(name);
}

TEST(EnvSettings, AWholeNumberInItsRange) {
    const char* name = "NBODY_TEST_ENV_INT";
    int out = 7;
    std::string error;
    setenv(name, "16", 1);
    EXPECT_TRUE(env_int(name, 1, 64, out, error));
    EXPECT_EQ(out, 16);
    setenv(name, "65", 1);
    EXPECT_FALSE(env_int(name, 1, 64, out, error));
    EXPECT_EQ(out, 16);
    EXPECT_EQ(error, "NBODY_TEST_ENV_INT=65: expected a whole number from 1 to 64");
    unsetenv(name);
}
