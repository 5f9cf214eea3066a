#pragma once
// Every numeric SimParams field declared once: its name (the scene-file key, the command-line flag --name,
// the C++ API's and Python's name), whole number or real, allowed range, unit, one line of help, and which
// force methods and integrators read it. validate(), the scene files, the command line, the panels' tooltips
// and the API read this table, so a new method's parameter is one row here and one field in its block.
// The enumerated settings (method, integrator, precision, backend, variant) have their own row tables.
#include <array>
#include <string>
#include <string_view>

namespace nbody {

struct SimParams;

struct ParamSpec {
    std::string_view name;
    bool whole;            // a whole number (an int field)
    double lo, hi;         // the allowed range, inclusive
    std::string_view zero; // non-empty: 0 is allowed too, and means this ("all", "off", "no softening")
    std::string_view unit; // "time units", "bodies", "" for a pure number
    std::string_view help; // one line: --help, tooltips, the API's parameter list
    unsigned methods;      // bit 1 << ForceMethod that read it; 0: every method
    unsigned integrators;  // bit 1 << Integrator that read it; 0: every integrator
    double (*get)(const SimParams& p);
    void (*set)(SimParams& p, double v);
};

const std::array<ParamSpec, 11>& param_registry();
// The row of that name, or null.
const ParamSpec* find_param(std::string_view name);

// "from 1e-12 to 1e6", "0 or from 1 to 64 (0: all)": the allowed values, for help and messages (no unit).
std::string range_text(const ParamSpec& s);
// Empty where v is allowed, else "must be <range_text> (got v)", naming a fraction given for a whole number.
std::string param_problem(const ParamSpec& s, double v);
// Throws ParamError(s.name, param_problem) where v is not allowed.
void check_param(const ParamSpec& s, double v);
// The row applies to the current method and integrator of p (the panels show only those).
bool param_applies(const ParamSpec& s, const SimParams& p);
// "method tree", "integrator hermite-block", or empty where every run reads it.
std::string param_scope(const ParamSpec& s);
// "Barnes opening angle ... (method tree; from 1e-6 to 1.5)": the help with scope and range, for --help and
// tooltips.
std::string param_help_text(const ParamSpec& s);

}  // namespace nbody
