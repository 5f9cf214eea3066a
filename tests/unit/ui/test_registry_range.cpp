// The panels' sliders take their ranges from the parameter registry: every value validate() takes can be set
// (theta 1.4, which the goals table quotes), and a name the registry lacks is refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "core/rows/param_registry.hpp"
#include "core/rows/sim_params.hpp"
#include "ui/registry_range.hpp"

using namespace nbody;

TEST(RegistryRange, SlidersSpanTheRegistrysRange) {
    const ParamSpec* theta = find_param("theta");
    ASSERT_NE(theta, nullptr);
    const SliderRange<float> r = registry_range<float>("theta");
    // The float nearest the registry's ends from inside: the slider's own ends pass validate().
    EXPECT_NEAR(r.lo, theta->lo, 1e-6 * theta->lo);
    EXPECT_NEAR(r.hi, theta->hi, 1e-6 * theta->hi);
    EXPECT_GE(r.hi, 1.4f);
    EXPECT_TRUE(param_problem(*theta, r.hi).empty());
    EXPECT_TRUE(param_problem(*theta, r.lo).empty());

    const SliderRange<int> steps = registry_range<int>("steps_per_frame");
    EXPECT_EQ(steps.lo, 1);
    EXPECT_EQ(steps.hi, static_cast<int>(find_param("steps_per_frame")->hi));
}

TEST(RegistryRange, AnUnknownNameIsRefused) {
    EXPECT_THROW(registry_range<float>("no_such_parameter"), std::logic_error);
}
