// OpenSSL's TLS client and SHA-1, for the websocket source's wss:// connections on the probe
// loop, plus static inline bridges for its macros, which Swift cannot call. Linked, not loaded:
// libpq links the same libssl and libcrypto into every StateDeck already.
#ifndef STATEDECK_OPENSSL_SHIM_H
#define STATEDECK_OPENSSL_SHIM_H

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// `SSL_set_tlsext_host_name`: the name sent in the handshake (SNI).
static inline int statedeck_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// `SSL_set_mode` with `SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER`: a write retried after
/// `SSL_ERROR_WANT_WRITE` may come from another address with the same bytes.
static inline void statedeck_ssl_accept_moving_buffer(SSL *ssl) {
    SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

#endif
