// libpq, PostgreSQL's client library: Swift calls it directly.
#ifndef STATEDECK_POSTGRES_SHIM_H
#define STATEDECK_POSTGRES_SHIM_H

#include <libpq-fe.h>

#endif
