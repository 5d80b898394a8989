import Testing
import VigilPrometheus

@Suite(.timeLimit(.minutes(10)))
struct ExpositionFormatTests {
    @Test func writesHelpTypeAndSamples() {
        let text = ExpositionFormat.render([
            MetricFamily(name: "a_total", help: "A.", type: .counter, samples: [MetricSample(value: 3)])
        ])
        #expect(text == "# HELP a_total A.\n# TYPE a_total counter\na_total 3\n")
    }
}
