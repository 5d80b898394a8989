import Glibc

/// Writes `text` to standard output at once, past stdio's buffer, so that a failed write is known here: `list`,
/// `help` and `completions` end with status 1 on a full disk or a closed pipe instead of reporting success for
/// output that never arrived.
///
/// - Throws: ``ToolError/runtime(_:)`` naming the write's error (`standard output: No space left on device`).
func writeStandardOutput(_ text: String) throws(ToolError) {
    if let error = OutputWriter.writeAll(text, to: 1) {
        throw .runtime("standard output: " + String(cString: strerror(error)))
    }
}
