import Testing
import Vigil
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct ValuesBridgeTests {
    @Test func valuesSubscribesWhenIterationStartsNotWhenRead() async throws {
        let source = ProbedSource<Int>()
        let values = source.observable.values
        var iterator = values.makeAsyncIterator()
        #expect(source.subscriptionCount == 0)
        let task = Task {
            while source.subscriptionCount == 0 { await Task.yield() }
            source.subject.publish(7)
        }
        let first = try await iterator.next()
        #expect(first == 7)
        #expect(source.subscriptionCount == 1)
        await task.value
    }

    @Test func droppingTheIteratorDisposesTheSubscription() async throws {
        let source = ProbedSource<Int>()
        do {
            var iterator = source.observable.values.makeAsyncIterator()
            let task = Task {
                while source.subscriptionCount == 0 { await Task.yield() }
                source.subject.publish(1)
            }
            _ = try await iterator.next()
            await task.value
        }
        #expect(eventually(timeout: 10) { !source.isSubscribed })
    }
}
