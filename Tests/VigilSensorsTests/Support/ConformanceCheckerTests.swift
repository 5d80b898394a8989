import Testing
import VigilSensors
import VigilTestSupport

/// The conformance checker catches each defect under the clause it breaks, and finds nothing in a source without
/// one: it is a check that can fail.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ConformanceCheckerTests {
    static let expected: [(FaultySource.Fault, ConformanceClause?)] = [
        (.none, nil), (.checksBeforeClaiming, .doubleStart), (.deinitDoesNotStop, .release),
        (.refreshesWhenStopped, .promptStop), (.hidesFailedReads, .refresh), (.acceptsAnyInterval, .updateInterval),
        (.slowStart, .promptStart), (.ignoresItsLoop, .eventLoop),
    ]

    @Test(arguments: expected) func catchesTheDefectUnderItsClause(
        fault: FaultySource.Fault, clause: ConformanceClause?
    )
        async
    {
        let tree = FakeSysfsTree()
        tree.write("value", "42\n")
        let path = tree.root + "/value"
        let violations = await sourceConformanceViolations(
            in: ConformanceSetting(
                label: "a fake file", ownedRoots: [tree.root], outage: .renaming([tree.root]), readingTimeout: 2)
        ) { loop in
            FaultySource(fault, path: path, eventLoop: loop)
        }
        guard let clause else {
            #expect(violations.isEmpty, "\(violations)")
            return
        }
        #expect(violations.contains { $0.clause == clause }, "\(fault) gave \(violations)")
    }
}
