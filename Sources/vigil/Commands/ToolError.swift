/// A failure the tool reports as one line on standard error, with its exit status.
struct ToolError: Error {
    let message: String
    /// 2 for a usage mistake, 1 for a source that cannot run.
    let status: Int32

    static func usage(_ message: String) -> ToolError { ToolError(message: message, status: 2) }

    static func runtime(_ message: String) -> ToolError { ToolError(message: message, status: 1) }
}
