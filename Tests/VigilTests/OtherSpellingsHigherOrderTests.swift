import Testing
import Vigil

/// Vigil's names still resolve beside the unavailable RxSwift and Combine spellings (which only must not compile).
@Suite(.timeLimit(.minutes(10))) struct OtherSpellingsHigherOrderTests {
    @Test func vigilsNamesResolveBesideTheStubs() {
        let recorder = Recorder<Int>()
        let subscription = recorder.subscribe(
            to: Observable.from([1, 2]).flatMap(maxConcurrent: 1) { Observable.just($0) }
                .concatMap { Observable.just($0) }
                .catch { _ in Observable<Int>.empty }
                .replaceError(with: 0))
        #expect(recorder.values == [1, 2])
        subscription.dispose()
    }
}
