import Glibc

/// Where a source under the conformance check reads, and how to take that away for a while.
package struct ConformanceSetting: Sendable {
    /// Says where, in messages: "a fake machine", "this machine".
    package let label: String
    /// The directories the source reads that belong to the test (fake trees): any descriptor pointing into them is
    /// the source's, and their files must not change by an availability check. Empty on the real `/sys` and `/proc`.
    package let ownedRoots: [String]
    /// Takes what the source reads away and brings it back, or nil where the test cannot (the real kernel).
    package let outage: Outage?
    /// How long, in seconds, a reading the contract promises may take to come (a whole network dump on a loaded
    /// machine under a sanitizer included); a check that waits this long has failed.
    package let readingTimeout: Double

    /// - Parameters:
    ///   - label: Says where, in messages.
    ///   - ownedRoots: The test's own directories the source reads.
    ///   - outage: How to take them away and back.
    ///   - readingTimeout: How long a promised reading may take, in seconds.
    package init(label: String, ownedRoots: [String] = [], outage: Outage? = nil, readingTimeout: Double = 10) {
        self.label = label
        self.ownedRoots = ownedRoots
        self.outage = outage
        self.readingTimeout = readingTimeout
    }

    /// Takes what a source reads away (``begin``) and brings it back (``end``).
    package struct Outage: Sendable {
        package let begin: @Sendable () -> Void
        package let end: @Sendable () -> Void

        package init(begin: @escaping @Sendable () -> Void, end: @escaping @Sendable () -> Void) {
            self.begin = begin
            self.end = end
        }

        /// Renames each root to a sibling name and back, as a device or file system that vanishes and returns.
        package static func renaming(_ roots: [String]) -> Outage {
            Outage(
                begin: { for root in roots { rename(root, root + ".vanished") } },
                end: { for root in roots { rename(root + ".vanished", root) } })
        }
    }

    /// The descriptors of this process that point into ``ownedRoots`` (or their vanished names).
    package func descriptorsIntoOwnedRoots() -> [OpenDescriptor] {
        guard !ownedRoots.isEmpty else { return [] }
        return OpenDescriptor.all().filter { descriptor in
            ownedRoots.contains { root in
                descriptor.target == root || descriptor.target.hasPrefix(root + "/")
                    || descriptor.target.hasPrefix(root + ".vanished")
            }
        }
    }
}
