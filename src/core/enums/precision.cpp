#include "core/enums/precision.hpp"

namespace nbody {

const std::array<NamedValue<Precision>, 3>& precision_table() {
    static const std::array<NamedValue<Precision>, 3> table = {{
        {Precision::Fp32, "fp32", "float32 throughout: the fastest"},
        {Precision::DS, "ds",
         "double-single: positions kept in double, x_j - x_i formed in double-single, the rest in float32"},
        {Precision::Fp64, "fp64", "IEEE double throughout: the reference arithmetic, at the fp64 rate"},
    }};
    return table;
}
std::optional<Precision> parse_precision(std::string_view s) {
    return parse_named(precision_table(), s);
}
std::string_view precision_name(Precision p) {
    return name_of(precision_table(), p);
}

}  // namespace nbody
