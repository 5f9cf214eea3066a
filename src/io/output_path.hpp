#pragma once
// Output files named on the command line are checked before a run, so a typo or a read-only folder fails
// in a second instead of after minutes of simulation.
#include <string>

namespace nbody {

// Throws Error("<flag> <path>: <why>") when `path` cannot be written: a folder, a missing parent folder, no
// permission. An existing file is left as it was (opened for append, nothing written); a file that did not
// exist is removed again after the check.
void check_writable(const std::string& path, const std::string& flag);

}  // namespace nbody
