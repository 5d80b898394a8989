/// Why a ``MetricsServer`` cannot listen.
public enum MetricsServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The address is not of the form the server takes.
    case invalidAddress(String, reason: String)
    /// A system call failed: its name, the address and the `errno` text (`EADDRINUSE: address already in use`).
    case systemCall(name: String, address: String, error: String)
    /// The web configuration file cannot be used: its path and what is wrong, with the line when it is the syntax.
    case webConfiguration(path: String, reason: String)
    /// TLS cannot be set up: a certificate or key that cannot be used, or no OpenSSL 3 on the system.
    case tls(String)

    public var description: String {
        switch self {
        case .invalidAddress(let text, let reason): return "invalid listen address \"\(text)\": \(reason)"
        case .systemCall(let name, let address, let error): return "cannot listen on \(address): \(name): \(error)"
        case .webConfiguration(let path, let reason): return "web configuration \(path): \(reason)"
        case .tls(let reason): return "TLS: \(reason)"
        }
    }
}
