#ifndef VIGIL_TLS_H
#define VIGIL_TLS_H

#include <stddef.h>

// TLS through the system's OpenSSL 3, loaded at run time (see VigilTLS.c). Every function that can fail writes a
// message a user can act on into `error` (at most `error_size` bytes, NUL-terminated).

// Whether libssl.so.3 and libcrypto.so.3 could be loaded with every function used; when not, `error` says why.
int vigil_tls_load(char *error, size_t error_size);

// How a server asks for client certificates, as Go's crypto/tls (and node_exporter's web config) names them.
enum vigil_tls_client_auth {
    vigil_tls_no_client_cert = 0,
    vigil_tls_request_client_cert = 1,
    vigil_tls_require_any_client_cert = 2,
    vigil_tls_verify_client_cert_if_given = 3,
    vigil_tls_require_and_verify_client_cert = 4,
};

// A server context (an SSL_CTX) with the certificate chain and key in PEM files; `client_ca_file` may be NULL.
// Versions are wire values (0x0303 is TLS 1.2); 0 leaves OpenSSL's bound. NULL on failure.
void *vigil_tls_server_context(const char *certificate_file, const char *key_file, const char *client_ca_file,
                               int client_auth, int min_version, int max_version, char *error, size_t error_size);

// A client context that verifies the server against `ca_file` (or the system's store when NULL), presenting the
// certificate and key in `certificate_file` and `key_file` when given. NULL on failure.
void *vigil_tls_client_context(const char *ca_file, const char *certificate_file, const char *key_file, char *error,
                               size_t error_size);

void vigil_tls_context_free(void *context);

// A session over the connected, non-blocking socket `fd`. For a client, `server_name` (a DNS name or an IP address)
// is what the certificate must name, and is sent as SNI when it is a name. NULL on failure.
void *vigil_tls_session(void *context, int fd, int is_server, const char *server_name, char *error,
                        size_t error_size);

void vigil_tls_session_free(void *session);

// What vigil_tls_read and vigil_tls_write return besides a byte count (> 0).
enum vigil_tls_status {
    vigil_tls_closed = 0,       // the peer ended the stream
    vigil_tls_want_read = -1,   // call again when the socket is readable
    vigil_tls_want_write = -2,  // call again when the socket is writable
    vigil_tls_failed = -3,      // the session failed; `error` says why
};

// Reads decrypted bytes (driving the handshake first when it is not done).
long vigil_tls_read(void *session, void *buffer, size_t count, char *error, size_t error_size);

// Writes bytes (driving the handshake first when it is not done); a partial write is a count below `count`.
long vigil_tls_write(void *session, const void *buffer, size_t count, char *error, size_t error_size);

// Decrypted bytes buffered in the session, which a readable-socket wait would not report.
int vigil_tls_pending(void *session);

// Sends close_notify once, without waiting for the peer's.
void vigil_tls_shutdown(void *session);

#endif
