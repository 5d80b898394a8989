import Glibc

/// The running kernel, from `uname(2)`.
public struct KernelIdentity: Sendable, Equatable, Encodable {
    /// The kernel's name, `Linux`.
    public var name: String
    /// The release, for example `6.1.0-28-amd64`.
    public var release: String
    /// The build string, for example `#1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22)`.
    public var version: String
    /// The hardware architecture, for example `x86_64` or `aarch64`.
    public var machine: String

    /// The running kernel. Wraps `uname(2)`, which cannot fail with a valid buffer.
    package static func current() -> KernelIdentity {
        var names = utsname()
        _ = uname(&names)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { bytes in
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return String(decoding: bytes.prefix(length), as: UTF8.self)
            }
        }
        return KernelIdentity(
            name: text(names.sysname), release: text(names.release), version: text(names.version),
            machine: text(names.machine))
    }
}
