/// Why a zip failed: one source got more values ahead of another than the zip's buffer limit allows.
///
/// Zip pairs the n-th values of its sources, so a source that runs ahead has its values held until the others
/// catch up. The hold is bounded: instead of growing without limit (or silently dropping values, which would pair
/// the wrong ones), the zip fails with this error and releases every source.
public struct ZipOverflowError: Error, Hashable, Sendable {
    /// The position of the source that ran ahead, in the order given to `zip`, from 0.
    public let sourceIndex: Int
    /// The most values the zip holds per source.
    public let limit: Int

    /// Creates the error for the source at `sourceIndex` and the zip's `limit`.
    public init(sourceIndex: Int, limit: Int) {
        self.sourceIndex = sourceIndex
        self.limit = limit
    }
}
