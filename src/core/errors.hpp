#pragma once
// The error types are part of libnbody's public API (include/nbody/errors.hpp): the engine throws exactly
// what an outside caller catches, with no translation at the boundary.
#include "nbody/errors.hpp"
