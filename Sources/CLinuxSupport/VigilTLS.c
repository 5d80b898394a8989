// TLS through the system's OpenSSL 3, loaded at run time with dlopen so that no OpenSSL headers or link-time library
// are needed and a machine without it builds and runs everything else. Only the functions below are used; their
// prototypes (OpenSSL 3's stable ABI, libssl.so.3 and libcrypto.so.3) and the few constants are declared here, as
// .NET's System.Security.Cryptography.Native does on Linux.
#include "VigilTLS.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef void ssl_method;
typedef void ssl_context;
typedef void ssl;
typedef void verify_param;
typedef int (*verify_callback)(int, void *);

enum {
    ssl_filetype_pem = 1,
    ssl_verify_none = 0,
    ssl_verify_peer = 1,
    ssl_verify_fail_if_no_peer_cert = 2,
    ssl_error_ssl = 1,
    ssl_error_want_read = 2,
    ssl_error_want_write = 3,
    ssl_error_syscall = 5,
    ssl_error_zero_return = 6,
    ssl_ctrl_mode = 33,
    ssl_ctrl_set_tlsext_hostname = 55,
    ssl_ctrl_set_min_proto_version = 123,
    ssl_ctrl_set_max_proto_version = 124,
    tlsext_nametype_host_name = 0,
    // Partial writes, a buffer that may move between retries (Swift arrays do), buffers freed while idle.
    ssl_modes = 0x1 | 0x2 | 0x10,
};
// SSL_OP_IGNORE_UNEXPECTED_EOF (a peer that closes without close_notify ends the stream, as Go's servers treat it)
// and SSL_OP_NO_RENEGOTIATION (so a read never needs a write, nor a write a read, after the handshake).
static const uint64_t ssl_options = ((uint64_t)1 << 7) | ((uint64_t)1 << 30);

static struct {
    const ssl_method *(*server_method)(void);
    const ssl_method *(*client_method)(void);
    ssl_context *(*context_new)(const ssl_method *);
    void (*context_free)(ssl_context *);
    int (*use_certificate_chain_file)(ssl_context *, const char *);
    int (*use_private_key_file)(ssl_context *, const char *, int);
    int (*load_verify_locations)(ssl_context *, const char *, const char *);
    int (*set_default_verify_paths)(ssl_context *);
    void (*set_verify)(ssl_context *, int, verify_callback);
    long (*context_ctrl)(ssl_context *, int, long, void *);
    uint64_t (*set_options)(ssl_context *, uint64_t);
    void *(*load_client_ca_file)(const char *);
    void (*set_client_ca_list)(ssl_context *, void *);
    ssl *(*ssl_new)(ssl_context *);
    void (*ssl_free)(ssl *);
    int (*set_fd)(ssl *, int);
    void (*set_accept_state)(ssl *);
    void (*set_connect_state)(ssl *);
    int (*read)(ssl *, void *, int);
    int (*write)(ssl *, const void *, int);
    int (*get_error)(const ssl *, int);
    int (*pending)(const ssl *);
    int (*shutdown)(ssl *);
    long (*ssl_ctrl)(ssl *, int, long, void *);
    int (*set1_host)(ssl *, const char *);
    verify_param *(*get0_param)(ssl *);
    long (*get_verify_result)(const ssl *);
    int (*is_server)(const ssl *);
    unsigned long (*error_get)(void);
    void (*error_clear)(void);
    const char *(*error_reason)(unsigned long);
    const char *(*verify_error_string)(long);
    int (*param_set1_ip_asc)(verify_param *, const char *);
} openssl;

static char load_failure[256];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define RESOLVE(library, field, name)                                                                              \
    do {                                                                                                           \
        *(void **)&openssl.field = dlsym(library, name);                                                           \
        if (openssl.field == NULL) {                                                                               \
            snprintf(load_failure, sizeof load_failure, "the system's OpenSSL lacks %s", name);                    \
            return;                                                                                                \
        }                                                                                                          \
    } while (0)

static void load_openssl(void) {
    void *crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    void *library = crypto == NULL ? NULL : dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_failure, sizeof load_failure,
                 "the system has no OpenSSL 3 (libssl.so.3), which TLS needs; on Debian or Ubuntu: apt-get install "
                 "libssl3");
        return;
    }
    RESOLVE(library, server_method, "TLS_server_method");
    RESOLVE(library, client_method, "TLS_client_method");
    RESOLVE(library, context_new, "SSL_CTX_new");
    RESOLVE(library, context_free, "SSL_CTX_free");
    RESOLVE(library, use_certificate_chain_file, "SSL_CTX_use_certificate_chain_file");
    RESOLVE(library, use_private_key_file, "SSL_CTX_use_PrivateKey_file");
    RESOLVE(library, load_verify_locations, "SSL_CTX_load_verify_locations");
    RESOLVE(library, set_default_verify_paths, "SSL_CTX_set_default_verify_paths");
    RESOLVE(library, set_verify, "SSL_CTX_set_verify");
    RESOLVE(library, context_ctrl, "SSL_CTX_ctrl");
    RESOLVE(library, set_options, "SSL_CTX_set_options");
    RESOLVE(library, load_client_ca_file, "SSL_load_client_CA_file");
    RESOLVE(library, set_client_ca_list, "SSL_CTX_set_client_CA_list");
    RESOLVE(library, ssl_new, "SSL_new");
    RESOLVE(library, ssl_free, "SSL_free");
    RESOLVE(library, set_fd, "SSL_set_fd");
    RESOLVE(library, set_accept_state, "SSL_set_accept_state");
    RESOLVE(library, set_connect_state, "SSL_set_connect_state");
    RESOLVE(library, read, "SSL_read");
    RESOLVE(library, write, "SSL_write");
    RESOLVE(library, get_error, "SSL_get_error");
    RESOLVE(library, pending, "SSL_pending");
    RESOLVE(library, shutdown, "SSL_shutdown");
    RESOLVE(library, ssl_ctrl, "SSL_ctrl");
    RESOLVE(library, set1_host, "SSL_set1_host");
    RESOLVE(library, get0_param, "SSL_get0_param");
    RESOLVE(library, get_verify_result, "SSL_get_verify_result");
    RESOLVE(library, is_server, "SSL_is_server");
    RESOLVE(crypto, error_get, "ERR_get_error");
    RESOLVE(crypto, error_clear, "ERR_clear_error");
    RESOLVE(crypto, error_reason, "ERR_reason_error_string");
    RESOLVE(crypto, verify_error_string, "X509_verify_cert_error_string");
    RESOLVE(crypto, param_set1_ip_asc, "X509_VERIFY_PARAM_set1_ip_asc");
    load_failure[0] = '\0';
}

int vigil_tls_load(char *error, size_t error_size) {
    pthread_once(&load_once, load_openssl);
    if (load_failure[0] == '\0') return 1;
    snprintf(error, error_size, "%s", load_failure);
    return 0;
}

// `what`, then OpenSSL's reason for the oldest error in this thread's queue (emptied), into `error`.
static void describe(const char *what, char *error, size_t error_size) {
    unsigned long code = openssl.error_get();
    const char *reason = code == 0 ? NULL : openssl.error_reason(code);
    if (reason != NULL) {
        snprintf(error, error_size, "%s: %s", what, reason);
    } else {
        snprintf(error, error_size, "%s", what);
    }
    openssl.error_clear();
}

// `what` and why `path` cannot be used: the system's reason when it cannot be read (OpenSSL's queue then holds only
// "system lib"), else OpenSSL's.
static void describe_file(const char *what, const char *path, char *error, size_t error_size) {
    char message[4200];
    if (access(path, R_OK) != 0) {
        snprintf(message, sizeof message, "%s %s: %s", what, path, strerror(errno));
        snprintf(error, error_size, "%s", message);
        openssl.error_clear();
        return;
    }
    snprintf(message, sizeof message, "%s %s", what, path);
    describe(message, error, error_size);
}

static int accept_any_certificate(int preverified, void *store) {
    (void)preverified;
    (void)store;
    return 1;
}

// A server's or client's context with vigil's modes and options and, when given, the certificate chain and its key;
// NULL with `error` set on failure.
static ssl_context *new_context(int is_server, const char *certificate_file, const char *key_file, char *error,
                                size_t error_size) {
    if (!vigil_tls_load(error, error_size)) return NULL;
    openssl.error_clear();
    ssl_context *context = openssl.context_new(is_server ? openssl.server_method() : openssl.client_method());
    if (context == NULL) {
        describe("cannot create a TLS context", error, error_size);
        return NULL;
    }
    openssl.context_ctrl(context, ssl_ctrl_mode, ssl_modes, NULL);
    openssl.set_options(context, ssl_options);
    if (certificate_file == NULL) return context;
    if (openssl.use_certificate_chain_file(context, certificate_file) != 1) {
        describe_file("cannot use the certificate file", certificate_file, error, error_size);
    } else if (openssl.use_private_key_file(context, key_file, ssl_filetype_pem) != 1) {
        describe_file("cannot use the key file", key_file, error, error_size);
    } else {
        return context;
    }
    openssl.context_free(context);
    return NULL;
}

void *vigil_tls_server_context(const char *certificate_file, const char *key_file, const char *client_ca_file,
                               int client_auth, int min_version, int max_version, char *error, size_t error_size) {
    ssl_context *context = new_context(1, certificate_file, key_file, error, error_size);
    if (context == NULL) return NULL;
    if (client_ca_file != NULL) {
        if (openssl.load_verify_locations(context, client_ca_file, NULL) != 1) {
            describe_file("cannot use the client CA file", client_ca_file, error, error_size);
            openssl.context_free(context);
            return NULL;
        }
        void *names = openssl.load_client_ca_file(client_ca_file);
        if (names != NULL) openssl.set_client_ca_list(context, names);
        openssl.error_clear();
    }
    switch (client_auth) {
    case vigil_tls_request_client_cert:
        openssl.set_verify(context, ssl_verify_peer, accept_any_certificate);
        break;
    case vigil_tls_require_any_client_cert:
        openssl.set_verify(context, ssl_verify_peer | ssl_verify_fail_if_no_peer_cert, accept_any_certificate);
        break;
    case vigil_tls_verify_client_cert_if_given:
        openssl.set_verify(context, ssl_verify_peer, NULL);
        break;
    case vigil_tls_require_and_verify_client_cert:
        openssl.set_verify(context, ssl_verify_peer | ssl_verify_fail_if_no_peer_cert, NULL);
        break;
    default:
        openssl.set_verify(context, ssl_verify_none, NULL);
    }
    if ((min_version != 0 && openssl.context_ctrl(context, ssl_ctrl_set_min_proto_version, min_version, NULL) != 1) ||
        (max_version != 0 && openssl.context_ctrl(context, ssl_ctrl_set_max_proto_version, max_version, NULL) != 1)) {
        describe("cannot set the TLS versions", error, error_size);
        openssl.context_free(context);
        return NULL;
    }
    return context;
}

void *vigil_tls_client_context(const char *ca_file, const char *certificate_file, const char *key_file, char *error,
                               size_t error_size) {
    ssl_context *context = new_context(0, certificate_file, key_file, error, error_size);
    if (context == NULL) return NULL;
    int loaded = ca_file != NULL ? openssl.load_verify_locations(context, ca_file, NULL)
                                 : openssl.set_default_verify_paths(context);
    if (loaded != 1) {
        if (ca_file != NULL) {
            describe_file("cannot use the CA file", ca_file, error, error_size);
        } else {
            describe("cannot use the system's CA certificates", error, error_size);
        }
        openssl.context_free(context);
        return NULL;
    }
    openssl.set_verify(context, ssl_verify_peer, NULL);
    // TLS 1.2 at least, as Go's clients and servers require by default.
    openssl.context_ctrl(context, ssl_ctrl_set_min_proto_version, 0x0303, NULL);
    return context;
}

void vigil_tls_context_free(void *context) {
    if (context != NULL) openssl.context_free(context);
}

void *vigil_tls_session(void *context, int fd, int is_server, const char *server_name, char *error,
                        size_t error_size) {
    openssl.error_clear();
    ssl *session = openssl.ssl_new(context);
    if (session == NULL || openssl.set_fd(session, fd) != 1) {
        describe("cannot create a TLS session", error, error_size);
        if (session != NULL) openssl.ssl_free(session);
        return NULL;
    }
    if (is_server) {
        openssl.set_accept_state(session);
        return session;
    }
    openssl.set_connect_state(session);
    if (server_name != NULL) {
        unsigned char address[16];
        int is_address = inet_pton(AF_INET, server_name, address) == 1 || inet_pton(AF_INET6, server_name, address) == 1;
        int named = is_address ? openssl.param_set1_ip_asc(openssl.get0_param(session), server_name)
                               : openssl.set1_host(session, server_name) &&
                                     openssl.ssl_ctrl(session, ssl_ctrl_set_tlsext_hostname,
                                                      tlsext_nametype_host_name, (void *)server_name) == 1;
        if (!named) {
            char what[512];
            snprintf(what, sizeof what, "cannot check the server's name %s", server_name);
            describe(what, error, error_size);
            openssl.ssl_free(session);
            return NULL;
        }
    }
    return session;
}

void vigil_tls_session_free(void *session) {
    if (session != NULL) openssl.ssl_free(session);
}

// The outcome of SSL_read or SSL_write that returned `result`, as a byte count or a vigil_tls_status.
static long outcome(ssl *session, int result, char *error, size_t error_size) {
    if (result > 0) return result;
    int saved_errno = errno;
    switch (openssl.get_error(session, result)) {
    case ssl_error_want_read:
        return vigil_tls_want_read;
    case ssl_error_want_write:
        return vigil_tls_want_write;
    case ssl_error_zero_return:
        openssl.error_clear();
        return vigil_tls_closed;
    case ssl_error_syscall:
        if (saved_errno == 0) {
            openssl.error_clear();
            return vigil_tls_closed;
        }
        snprintf(error, error_size, "%s", strerror(saved_errno));
        openssl.error_clear();
        return vigil_tls_failed;
    default: {
        long verified = openssl.get_verify_result(session);
        if (verified != 0) {
            char what[512];
            snprintf(what, sizeof what, "TLS: the %s's certificate was refused (%s)",
                     openssl.is_server(session) ? "client" : "server", openssl.verify_error_string(verified));
            snprintf(error, error_size, "%s", what);
            openssl.error_clear();
        } else {
            describe("TLS failed", error, error_size);
        }
        return vigil_tls_failed;
    }
    }
}

// OpenSSL writes to the socket with write(2), which raises SIGPIPE when the peer has gone; a library must not kill
// its host process for that. So SIGPIPE is blocked in this thread around each call and a SIGPIPE the call raised is
// taken back, as libpq does (a SIGPIPE already pending before the call is left alone).
struct sigpipe_guard {
    sigset_t old_mask;
    int was_pending;
};

static struct sigpipe_guard block_sigpipe(void) {
    struct sigpipe_guard guard;
    sigset_t pipe_only, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &guard.old_mask);
    sigemptyset(&pending);
    sigpending(&pending);
    guard.was_pending = sigismember(&pending, SIGPIPE);
    return guard;
}

static void unblock_sigpipe(struct sigpipe_guard guard) {
    if (!guard.was_pending) {
        sigset_t pipe_only, pending;
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        sigemptyset(&pending);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec now = {0, 0};
            sigtimedwait(&pipe_only, NULL, &now);
        }
    }
    pthread_sigmask(SIG_SETMASK, &guard.old_mask, NULL);
}

// One SSL_read (or SSL_write) of at most `count` bytes, SIGPIPE held off, as a byte count or a vigil_tls_status.
static long transfer(void *session, int writes, void *buffer, size_t count, char *error, size_t error_size) {
    int length = count > 0x7FFFFFFF ? 0x7FFFFFFF : (int)count;
    openssl.error_clear();
    struct sigpipe_guard guard = block_sigpipe();
    errno = 0;
    int result = writes ? openssl.write(session, buffer, length) : openssl.read(session, buffer, length);
    long status = outcome(session, result, error, error_size);
    unblock_sigpipe(guard);
    return status;
}

long vigil_tls_read(void *session, void *buffer, size_t count, char *error, size_t error_size) {
    return transfer(session, 0, buffer, count, error, error_size);
}

long vigil_tls_write(void *session, const void *buffer, size_t count, char *error, size_t error_size) {
    if (count == 0) return 0;
    return transfer(session, 1, (void *)buffer, count, error, error_size);
}

int vigil_tls_pending(void *session) { return openssl.pending(session); }

void vigil_tls_shutdown(void *session) {
    openssl.error_clear();
    struct sigpipe_guard guard = block_sigpipe();
    openssl.shutdown(session);
    unblock_sigpipe(guard);
    openssl.error_clear();
}
