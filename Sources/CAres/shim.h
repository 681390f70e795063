// c-ares, which asks DNS servers, and libresolv's parser of DNS messages (ns_initparse, ns_parserr),
// which reads every record's TTL where c-ares' own parsers leave most out. Swift calls both
// directly, so this only names the headers.
#ifndef STATEDECK_ARES_SHIM_H
#define STATEDECK_ARES_SHIM_H

#include <ares.h>
#include <arpa/nameser.h>
#include <resolv.h>

#endif
