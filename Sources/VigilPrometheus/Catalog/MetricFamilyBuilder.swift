/// Collects samples into families by name, in the order names first appear: how readings become metrics.
struct MetricFamilyBuilder {
    private(set) var families: [MetricFamily] = []
    private var indexes: [String: Int] = [:]

    /// Adds a gauge sample; a nil or absent value adds nothing.
    mutating func gauge(_ name: String, _ help: String, _ value: Double?, _ labels: [String: String] = [:]) {
        add(name, help, .gauge, value, labels)
    }

    /// Adds a gauge sample of 1 or 0.
    mutating func gauge(_ name: String, _ help: String, _ flag: Bool?, _ labels: [String: String] = [:]) {
        add(name, help, .gauge, flag.map { $0 ? 1 : 0 }, labels)
    }

    /// Adds a counter sample; a nil value adds nothing.
    mutating func counter(_ name: String, _ help: String, _ value: Double?, _ labels: [String: String] = [:]) {
        add(name, help, .counter, value, labels)
    }

    private mutating func add(
        _ name: String, _ help: String, _ type: MetricType, _ value: Double?, _ labels: [String: String]
    ) {
        guard let value else { return }
        let sample = MetricSample(labels: labels, value: value)
        if let index = indexes[name] {
            families[index].samples.append(sample)
        } else {
            indexes[name] = families.count
            families.append(MetricFamily(name: name, help: help, type: type, samples: [sample]))
        }
    }
}
