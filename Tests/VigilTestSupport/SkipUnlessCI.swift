import Glibc
import Testing

/// Whether the tests run under CI (`CI=true`, as CI services set it): there a check that cannot run is a failure,
/// not a skip, unless the machine is known to lack what it needs.
package var runsUnderCI: Bool {
    guard let value = getenv("CI") else { return false }
    return String(cString: value) == "true"
}

/// Skips the running test (or test case) with `reason` shown in the results; under CI, a skip that is not
/// `expectedUnderCI` is recorded as a failure first, so a check that silently stopped running cannot pass CI.
///
/// - Parameters:
///   - reason: Why the test cannot run here, in words that say what is missing.
///   - expectedUnderCI: Whether CI's machine may lack it too (a battery, a sensor), so skipping is right there.
package func skip(_ reason: String, expectedUnderCI: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> Never
{
    if runsUnderCI && !expectedUnderCI {
        Issue.record("skipped under CI=true: \(reason)", sourceLocation: sourceLocation)
    } else {
        // A cancelled case is listed as passed; the warning says why it did not run.
        Issue.record("skipped: \(reason)", severity: .warning, sourceLocation: sourceLocation)
    }
    try Test.cancel("skipped: \(reason)", sourceLocation: sourceLocation)
}
