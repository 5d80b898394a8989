/// Whether a source can run on this machine, and if not, why.
public enum Availability: Hashable, Sendable, CustomStringConvertible {
    /// The source can start.
    case available
    /// The source cannot start; `reason` says which kind of absence, `detail` says what exactly is missing.
    case unavailable(reason: UnavailabilityReason, detail: String)

    /// Whether the source can start.
    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .available: return "available"
        case .unavailable(let reason, let detail): return "unavailable (\(reason)): \(detail)"
        }
    }
}

/// The kind of reason a source is unavailable.
public enum UnavailabilityReason: String, Hashable, Sendable, CustomStringConvertible {
    /// The machine has no such device (no battery, no accelerometer).
    case missingDevice = "no such device"
    /// The device exists but this process may not use it.
    case permissionDenied = "permission denied"
    /// The kernel lacks the interface (not built in, not mounted, too old).
    case kernelLacksInterface = "kernel lacks the interface"

    public var description: String { rawValue }
}
