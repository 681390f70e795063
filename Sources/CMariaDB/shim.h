// MariaDB Connector/C, the client of MariaDB and MySQL servers: Swift calls it directly, its
// non-blocking calls (`mysql_real_connect_start` and the rest) on the probe loop.
#ifndef STATEDECK_MARIADB_SHIM_H
#define STATEDECK_MARIADB_SHIM_H

#include <mysql.h>
#include <errmsg.h>
#include <mysqld_error.h>

#endif
