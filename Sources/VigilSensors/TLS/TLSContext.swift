import CLinuxSupport

/// An OpenSSL context (`SSL_CTX`): the certificates and rules that every session made from it shares.
///
/// OpenSSL is loaded at run time (`VigilTLS.c`); where it is missing, making a context throws a ``TLSError`` that
/// says what to install, and nothing else in Vigil is affected.
///
/// `@unchecked Sendable`: it only wraps the C context, which is not changed after it is made; OpenSSL lets many
/// threads make sessions from one context at once. It is freed when the last session and owner let go.
package final class TLSContext: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    private init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }

    deinit { vigil_tls_context_free(pointer) }

    /// Whether the system's OpenSSL 3 can be used; the error says what to install when not.
    package static func checkAvailable() throws(TLSError) {
        let (loaded, message) = withErrorBuffer { vigil_tls_load($0, $1) }
        guard loaded == 1 else { throw TLSError(message) }
    }

    /// A server context presenting the certificate chain and key in PEM files.
    ///
    /// - Parameters:
    ///   - clientCAFile: The CAs that client certificates are verified against, when client certificates are used.
    ///   - clientAuthentication: Whether and how client certificates are asked for.
    ///   - minimumVersion: The oldest protocol accepted, as its wire value (`0x0303` is TLS 1.2); nil for OpenSSL's.
    ///   - maximumVersion: The newest, likewise.
    package static func server(
        certificateFile: String, keyFile: String, clientCAFile: String?, clientAuthentication: vigil_tls_client_auth,
        minimumVersion: Int32?, maximumVersion: Int32?
    ) throws(TLSError) -> TLSContext {
        let (context, message) = withErrorBuffer { error, size in
            vigil_tls_server_context(
                certificateFile, keyFile, clientCAFile, Int32(clientAuthentication.rawValue), minimumVersion ?? 0,
                maximumVersion ?? 0, error, size)
        }
        guard let context else { throw TLSError(message) }
        return TLSContext(context)
    }

    /// A client context that verifies servers against the CAs in `caFile` (the system's store when nil) and
    /// presents the certificate and key in `certificateFile` and `keyFile` when given.
    package static func client(caFile: String?, certificateFile: String?, keyFile: String?) throws(TLSError)
        -> TLSContext
    {
        let (context, message) = withErrorBuffer { error, size in
            vigil_tls_client_context(caFile, certificateFile, keyFile, error, size)
        }
        guard let context else { throw TLSError(message) }
        return TLSContext(context)
    }
}
