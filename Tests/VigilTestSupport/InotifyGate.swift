import Testing

/// A suite trait that lets one suite at a time run, across every test target of the run, while it holds the inotify
/// gate.
///
/// The tests that use inotify live in two targets: the sensor tests, one of which lowers the system-wide
/// `fs.inotify.max_user_watches` for a moment, and the `vigil` tests, whose child processes watch files. `.serialized`
/// orders the tests of one suite; this gate keeps the two targets' suites apart, waiting without holding a thread.
package struct InotifyGate: SuiteTrait, TestScoping {
    /// The suite itself holds the gate, for all its tests.
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { test.isSuite ? self : nil }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await SuiteGate.inotify.enter()
        do {
            try await function()
        } catch {
            await SuiteGate.inotify.leave()
            throw error
        }
        await SuiteGate.inotify.leave()
    }
}

extension Trait where Self == InotifyGate {
    /// Holds the inotify gate while the suite runs; see ``InotifyGate``.
    package static var inotifyGate: Self { InotifyGate() }
}

/// A first-come, first-served gate that suites wait on without holding a thread.
package actor SuiteGate {
    /// The gate of the suites that use inotify.
    package static let inotify = SuiteGate()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until the gate is free, then holds it.
    package func enter() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the gate to the next waiter, or frees it.
    package func leave() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
