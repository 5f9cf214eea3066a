#pragma once
// Names for the colour groups of a scene, for the legend: what the scene file calls its components.
#include <string>
#include <vector>

#include "scene/scene.hpp"

namespace nbody {

// Index = colour group, up to the highest group any component uses. A component's `name` ("intruder"); a disk
// galaxy whose halo and disk have groups of their own shows them as "<name> disk" and "<name> halo"; an
// unnamed component its type and index ("plummer 2"); components sharing a group are joined with " + "; a
// group no component uses is "group g".
std::vector<std::string> group_labels(const SceneSpec& scene);

// Index = colour group, as group_labels: what the group's bodies are and the colour the scene gives them
// (the first component, or disk-galaxy part, in the group decides; a group no component uses is a cluster
// with no colour of its own).
std::vector<ComponentLook> group_looks(const SceneSpec& scene);

}  // namespace nbody
