// SQLite's C API: Swift calls it directly, except for what a macro hides.
#ifndef STATEDECK_SQLITE_SHIM_H
#define STATEDECK_SQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT`, a cast of -1 to a function pointer that Swift cannot import: SQLite copies
/// the bound text or blob before `sqlite3_bind_*` returns.
static inline sqlite3_destructor_type statedeck_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
