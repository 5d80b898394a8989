import Synchronization
import Testing
import Vigil
import VigilPrometheus

@Suite(.timeLimit(.minutes(10)))
struct MetricsExporterTests {
    @Test func exportsTheLatestValueOfAnObservableAsAGauge() throws {
        let exporter = MetricsExporter()
        let level = BehaviorSubject(0.5)
        try exporter.add(level, name: "app_level_ratio", help: "Level.", labels: ["tank": "a"])
        #expect(exporter.render().contains("app_level_ratio{tank=\"a\"} 0.5\n"))
        level.publish(0.75)
        #expect(exporter.render().contains("app_level_ratio{tank=\"a\"} 0.75\n"))
        #expect(exporter.render().hasPrefix("# HELP app_level_ratio Level.\n# TYPE app_level_ratio gauge\n"))
    }

    @Test func exportsIntegersAsACounterAndOmitsAMetricWithNoValueYet() throws {
        let exporter = MetricsExporter()
        let jobs = PublishSubject<Int>()
        try exporter.add(jobs, name: "app_jobs_total", help: "Jobs.", type: .counter)
        #expect(exporter.render().isEmpty)
        jobs.publish(3)
        #expect(exporter.render() == "# HELP app_jobs_total Jobs.\n# TYPE app_jobs_total counter\napp_jobs_total 3\n")
    }

    @Test func seriesOfOneNameShareOneFamily() throws {
        let exporter = MetricsExporter()
        try exporter.add(BehaviorSubject(1), name: "m", help: "M.", labels: ["q": "a"])
        try exporter.add(BehaviorSubject(2), name: "m", help: "M.", labels: ["q": "b"])
        #expect(exporter.render() == "# HELP m M.\n# TYPE m gauge\nm{q=\"a\"} 1\nm{q=\"b\"} 2\n")
    }

    @Test func refusesAnotherTypeOrTheSameLabelsUnderOneName() throws {
        let exporter = MetricsExporter()
        try exporter.add(BehaviorSubject(1), name: "m", help: "M.", labels: ["q": "a"])
        #expect(throws: MetricRegistrationError.conflictingType(name: "m", existing: .gauge)) {
            try exporter.add(BehaviorSubject(1), name: "m", help: "M.", type: .counter)
        }
        #expect(throws: MetricRegistrationError.duplicate(name: "m", labels: ["q": "a"])) {
            try exporter.add(BehaviorSubject(2), name: "m", help: "M.", labels: ["q": "a"])
        }
    }

    @Test func removingAMetricDisposesItsSubscription() throws {
        let exporter = MetricsExporter()
        let probe = SubscriptionProbe()
        let metric = try exporter.add(probe.observable, name: "m", help: "M.")
        #expect(probe.active == 1)
        metric.remove()
        #expect(probe.active == 0)
        #expect(exporter.render().isEmpty)
        metric.remove()
    }

    @Test func releasingTheExporterDisposesEverySubscription() throws {
        let probe = SubscriptionProbe()
        var exporter: MetricsExporter? = MetricsExporter()
        try exporter?.add(probe.observable, name: "a", help: "A.")
        try exporter?.add(probe.observable, name: "b", help: "B.")
        #expect(probe.active == 2)
        weak let released = exporter
        exporter = nil
        #expect(released == nil)
        #expect(probe.active == 0)
    }

    @Test func collectorsRunAtEachRender() {
        let exporter = MetricsExporter()
        let calls = Atomic(0)
        let collector = exporter.add(collector: {
            let count = calls.add(1, ordering: .relaxed).newValue
            return [
                MetricFamily(name: "calls", help: "C.", type: .counter, samples: [MetricSample(value: Double(count))])
            ]
        })
        #expect(exporter.render().contains("calls 1\n"))
        #expect(exporter.render().contains("calls 2\n"))
        collector.remove()
        #expect(exporter.render().isEmpty)
    }
}

/// An observable of numbers that counts its live subscriptions.
final class SubscriptionProbe: Sendable {
    private let count = Atomic(0)

    var active: Int { count.load(ordering: .acquiring) }

    var observable: Observable<Double> {
        Observable { _, onNext, _ in
            self.count.add(1, ordering: .acquiringAndReleasing)
            onNext(1)
            return Subscription(onDispose: { self.count.subtract(1, ordering: .acquiringAndReleasing) })
        }
    }
}
