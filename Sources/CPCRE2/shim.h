// PCRE2's 8-bit library: its header needs the code unit's width first, and its functions' plain
// names are macros Swift cannot import, so Swift calls them by their `_8` names.
#ifndef STATEDECK_PCRE2_SHIM_H
#define STATEDECK_PCRE2_SHIM_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#endif
