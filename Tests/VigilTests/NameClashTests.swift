import Synchronization
import Testing
import Vigil

/// Vigil exports no type named like one of the standard library's or Synchronization's: this file imports both
/// and names `Mutex` and `Atomic` unqualified, which would not compile ("ambiguous for type lookup") otherwise.
@Suite(.timeLimit(.minutes(10))) struct NameClashTests {
    @Test func synchronizationNamesStayUnambiguousBesideVigil() {
        let mutex: Mutex<Int> = Mutex(1)
        let atomic: Atomic<Int> = Atomic(2)
        mutex.withLock { $0 += atomic.load(ordering: .relaxed) }
        #expect(mutex.withLock { $0 } == 3)
    }
}
