#ifndef STATEDECK_CMICROHTTPD_SHIM_H
#define STATEDECK_CMICROHTTPD_SHIM_H

// The few things Swift cannot reach in libmicrohttpd: variadic functions and
// macros that do not import. Everything else is called directly from Swift.

#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <string.h>
// Not in Swift's Glibc module; the daemon polls with epoll too, and HangupWatcher uses it.
#include <sys/epoll.h>
#include <microhttpd.h>

/// `MHD_start_daemon` is variadic; the options travel as one `MHD_OPTION_ARRAY`.
static inline struct MHD_Daemon *
statedeck_start_daemon(unsigned int flags, uint16_t port,
                       MHD_AccessHandlerCallback handler, void *handler_context,
                       const struct MHD_OptionItem *options)
{
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// `MHD_get_daemon_info` is variadic; StateDeck only asks for the bound port.
static inline uint16_t
statedeck_daemon_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// `MHD_get_connection_info` is variadic; this asks for the connection's socket (-1 if unknown).
static inline int
statedeck_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// `MHD_get_connection_info` is variadic; this asks for the pointer the connection-notify
/// callback stored for the connection (NULL if none).
static inline void *
statedeck_connection_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/// `MHD_get_connection_info` is variadic; this asks for the size of the request's head, from its
/// method to the blank line after the headers (0 before the head is in).
static inline size_t
statedeck_connection_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/// `MHD_get_connection_info` is variadic; this copies the client's address
/// (`MHD_CONNECTION_INFO_CLIENT_ADDRESS`, a `sockaddr` only C reads safely) into `address`:
/// 4 bytes for IPv4, 16 for IPv6, and returns how many (0 if unknown).
static inline int
statedeck_connection_client_address(struct MHD_Connection *connection, uint8_t address[16])
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *client = info->client_addr;
    if (client->sa_family == AF_INET) {
        memcpy(address, &((const struct sockaddr_in *)client)->sin_addr, 4);
        return 4;
    }
    if (client->sa_family == AF_INET6) {
        memcpy(address, &((const struct sockaddr_in6 *)client)->sin6_addr, 16);
        return 16;
    }
    return 0;
}

/// `MHD_SIZE_UNKNOWN` is a macro Swift does not import.
static const uint64_t statedeck_size_unknown = MHD_SIZE_UNKNOWN;

#endif
