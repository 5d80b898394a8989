/// Why a ``MetricsServer`` cannot listen.
public enum MetricsServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The address is not of the form the server takes.
    case invalidAddress(String, reason: String)
    /// A system call failed: its name, the address and the `errno` text (`EADDRINUSE: address already in use`).
    case systemCall(name: String, address: String, error: String)

    public var description: String {
        switch self {
        case .invalidAddress(let text, let reason): return "invalid listen address \"\(text)\": \(reason)"
        case .systemCall(let name, let address, let error): return "cannot listen on \(address): \(name): \(error)"
        }
    }
}
