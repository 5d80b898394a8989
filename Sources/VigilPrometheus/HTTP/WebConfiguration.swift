import CLinuxSupport
import VigilSensors

extension MetricsServer {
    /// TLS and HTTP basic authentication for a ``MetricsServer``, as node_exporter's web configuration file sets
    /// them (`--web.config.file`, the Prometheus exporter toolkit's format); ``init(contentsOfFile:)`` reads one.
    public struct WebConfiguration: Sendable, Equatable {
        /// Serve HTTPS with these settings; plain HTTP when nil.
        public var tls: TLS?
        /// User names and their bcrypt hashes (`$2b$…`, `$2y$…`); when not empty, every request needs HTTP basic
        /// authentication as one of them.
        public var basicAuthUsers: [String: String]

        /// Creates settings: plain HTTP and no authentication by default.
        ///
        /// - Parameters:
        ///   - tls: The TLS settings, or nil for plain HTTP.
        ///   - basicAuthUsers: User names and their bcrypt hashes.
        public init(tls: TLS? = nil, basicAuthUsers: [String: String] = [:]) {
            self.tls = tls
            self.basicAuthUsers = basicAuthUsers
        }
    }

    /// The TLS settings of a ``WebConfiguration``, named as in its file's `tls_server_config`.
    public struct TLS: Sendable, Equatable {
        /// The server's certificate chain, PEM (`cert_file`).
        public var certificateFile: String
        /// The server's private key, PEM (`key_file`).
        public var keyFile: String
        /// Whether and how client certificates are asked for (`client_auth_type`).
        public var clientAuthType: ClientAuthType
        /// The CAs client certificates are verified against (`client_ca_file`).
        public var clientCAFile: String?
        /// The oldest protocol version accepted (`min_version`); TLS 1.2 by default, as node_exporter's.
        public var minimumVersion: Version
        /// The newest protocol version accepted (`max_version`); nil for the newest OpenSSL knows.
        public var maximumVersion: Version?

        /// Creates TLS settings.
        ///
        /// - Parameters:
        ///   - certificateFile: The server's certificate chain, PEM.
        ///   - keyFile: The server's private key, PEM.
        ///   - clientAuthType: Whether and how client certificates are asked for.
        ///   - clientCAFile: The CAs client certificates are verified against.
        ///   - minimumVersion: The oldest protocol version accepted.
        ///   - maximumVersion: The newest protocol version accepted.
        public init(
            certificateFile: String, keyFile: String, clientAuthType: ClientAuthType = .noClientCert,
            clientCAFile: String? = nil, minimumVersion: Version = .tls12, maximumVersion: Version? = nil
        ) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.clientAuthType = clientAuthType
            self.clientCAFile = clientCAFile
            self.minimumVersion = minimumVersion
            self.maximumVersion = maximumVersion
        }

        /// How a server asks for client certificates, with Go's `crypto/tls` names that the file uses.
        public enum ClientAuthType: String, Sendable, CaseIterable {
            /// None are asked for.
            case noClientCert = "NoClientCert"
            /// One is asked for but not required, nor verified.
            case requestClientCert = "RequestClientCert"
            /// One is required but not verified.
            case requireAnyClientCert = "RequireAnyClientCert"
            /// One is not required, but verified against ``TLS/clientCAFile`` when given.
            case verifyClientCertIfGiven = "VerifyClientCertIfGiven"
            /// One is required and verified against ``TLS/clientCAFile``.
            case requireAndVerifyClientCert = "RequireAndVerifyClientCert"

            /// Whether the certificate a client presents is verified (so a client CA file is needed).
            var verifies: Bool { self == .verifyClientCertIfGiven || self == .requireAndVerifyClientCert }

            var code: vigil_tls_client_auth {
                switch self {
                case .noClientCert: vigil_tls_no_client_cert
                case .requestClientCert: vigil_tls_request_client_cert
                case .requireAnyClientCert: vigil_tls_require_any_client_cert
                case .verifyClientCertIfGiven: vigil_tls_verify_client_cert_if_given
                case .requireAndVerifyClientCert: vigil_tls_require_and_verify_client_cert
                }
            }
        }

        /// A TLS protocol version, named as the file names it.
        public enum Version: String, Sendable, CaseIterable {
            /// TLS 1.0.
            case tls10 = "TLS10"
            /// TLS 1.1.
            case tls11 = "TLS11"
            /// TLS 1.2.
            case tls12 = "TLS12"
            /// TLS 1.3.
            case tls13 = "TLS13"

            var wireValue: Int32 {
                switch self {
                case .tls10: 0x0301
                case .tls11: 0x0302
                case .tls12: 0x0303
                case .tls13: 0x0304
                }
            }
        }

        /// The OpenSSL context these settings make.
        func makeContext() throws(MetricsServerError) -> TLSContext {
            guard !clientAuthType.verifies || clientCAFile != nil else {
                throw .tls("client_auth_type \(clientAuthType.rawValue) needs a client_ca_file")
            }
            do {
                return try TLSContext.server(
                    certificateFile: certificateFile, keyFile: keyFile, clientCAFile: clientCAFile,
                    clientAuthentication: clientAuthType.code,
                    minimumVersion: minimumVersion.wireValue, maximumVersion: maximumVersion?.wireValue)
            } catch {
                throw .tls(error.message)
            }
        }
    }
}
