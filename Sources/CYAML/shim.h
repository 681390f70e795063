// libyaml: Swift calls its parser directly, so this only names the header.
#ifndef STATEDECK_YAML_SHIM_H
#define STATEDECK_YAML_SHIM_H

#include <yaml.h>

#endif
