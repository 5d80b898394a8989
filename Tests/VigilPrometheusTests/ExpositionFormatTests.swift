import Testing
import VigilPrometheus

@Suite(.timeLimit(.minutes(10)))
struct ExpositionFormatTests {
    @Test func writesHelpTypeAndSamples() {
        let text = ExpositionFormat.render([
            MetricFamily(
                name: "a_total", help: "A.", type: .counter,
                samples: [
                    MetricSample(labels: ["kind": "x"], value: 3), MetricSample(labels: ["kind": "y"], value: 0.5),
                ])
        ])
        #expect(text == "# HELP a_total A.\n# TYPE a_total counter\na_total{kind=\"x\"} 3\na_total{kind=\"y\"} 0.5\n")
    }

    @Test func escapesLabelValuesAndHelp() {
        let text = ExpositionFormat.render([
            MetricFamily(
                name: "m", help: "back\\slash\nnewline \"quoted\"", type: .gauge,
                samples: [MetricSample(labels: ["v": "a\\b\"c\nd"], value: 1)])
        ])
        #expect(text.contains("# HELP m back\\\\slash\\nnewline \"quoted\"\n"))
        #expect(text.contains("m{v=\"a\\\\b\\\"c\\nd\"} 1\n"))
    }

    @Test(arguments: [
        (Double.nan, "NaN"), (.infinity, "+Inf"), (-.infinity, "-Inf"), (0, "0"), (-0.0, "0"), (42, "42"),
        (-7, "-7"), (0.25, "0.25"), (1e-5, "1e-05"), (1e300, "1e+300"),
        (9_007_199_254_740_992, "9007199254740992.0"),
    ])
    func formatsValuesAsPrometheusReadsThem(value: Double, expected: String) {
        #expect(ExpositionFormat.formatted(value) == expected)
    }

    @Test(arguments: [
        ("vigil_ok_total", "vigil_ok_total"), ("a:b", "a:b"), ("9lives", "_9lives"), ("temp-1 °C", "temp_1__C"),
        ("", "_"), ("é", "_"),
    ])
    func repairsMetricNames(name: String, expected: String) {
        #expect(MetricName.sanitized(name) == expected)
        #expect(MetricName.isValid(MetricName.sanitized(name)))
    }

    @Test(arguments: [("ok", "ok"), ("a:b", "a_b"), ("__reserved", "_reserved"), ("1x", "_1x"), ("a b", "a_b")])
    func repairsLabelNames(name: String, expected: String) {
        #expect(MetricName.sanitizedLabel(name) == expected)
    }

    @Test func mergesFamiliesOfOneNameAndWritesARepeatedLabelSetOnce() {
        let text = ExpositionFormat.render([
            MetricFamily(name: "m", help: "First.", type: .gauge, samples: [MetricSample(value: 1)]),
            MetricFamily(name: "other", help: "O.", type: .gauge, samples: [MetricSample(value: 2)]),
            MetricFamily(
                name: "m", help: "Second.", type: .gauge,
                samples: [MetricSample(value: 3), MetricSample(labels: ["a": "b"], value: 4)]),
            MetricFamily(
                name: "m", help: "Counter.", type: .counter, samples: [MetricSample(labels: ["c": "d"], value: 5)]),
            MetricFamily(name: "empty", help: "E.", type: .gauge),
        ])
        #expect(
            text == """
                # HELP m First.
                # TYPE m gauge
                m 1
                m{a="b"} 4
                # HELP other O.
                # TYPE other gauge
                other 2

                """)
    }

    @Test func sortsLabelsAndRepairsTheirNames() {
        let sample = MetricSample(labels: ["z": "1", "a-b": "2", "__c": "3"], value: 0)
        #expect(sample.labels.map(\.name) == ["_c", "a_b", "z"])
    }
}
