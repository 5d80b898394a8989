/// How a stream of values ended.
public enum Completion: Sendable {
    /// The stream ended normally.
    case finished
    /// The stream ended with an error.
    case failed(any Error)

    /// Whether the stream ended normally.
    public var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }

    /// The error, if the stream failed.
    public var error: (any Error)? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
