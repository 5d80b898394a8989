/// A TLS setup or session failure, in words a user can act on ("TLS needs OpenSSL 3 …", "cannot use the key file
/// …", "the peer's certificate was refused (self-signed certificate)").
package struct TLSError: Error, CustomStringConvertible, Sendable {
    package let message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}

/// Calls `body` with a buffer for the C shim's error message and returns what it wrote.
func withErrorBuffer<T>(_ body: (UnsafeMutablePointer<CChar>, Int) -> T) -> (T, String) {
    var buffer = [CChar](repeating: 0, count: 512)
    let result = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return (result, message)
}
