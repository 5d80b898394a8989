extension SourceCatalog {
    /// Host reachability: `reach TARGET…`, the targets as one argument separated by white space (`example.org:443
    /// 10.0.0.1`), in ``Options/networkNamespace`` when set.
    static var reachEntries: [Entry] {
        [
            Entry(
                id: "reach", name: reachName, argumentName: "TARGET…",
                availability: { options in
                    ReachabilityMonitor(targets: [], namespace: options.networkNamespacePath).availability
                },
                checkArgument: { (argument) throws(SensorError) in
                    let words = argument.lossyString.split(whereSeparator: \.isWhitespace)
                    guard !words.isEmpty else {
                        throw .invalidArgument(name: "reach", value: "", reason: "it needs at least one TARGET")
                    }
                    for word in words { _ = try ReachTarget(parsing: String(word)) }
                },
                build: { options, argument in
                    let monitor = ReachabilityMonitor(
                        targets: reachTargets(argument), mark: options.firewallMark,
                        namespace: options.networkNamespacePath, root: options.sysfsRoot, etcRoot: options.etcRoot,
                        eventLoop: options.eventLoop)
                    return CatalogSource(id: "reach", name: reachName, source: monitor)
                })
        ]
    }

    private static let reachName = "Host reachability (route lookup, carrier, TCP probe)"

    /// The targets of an argument; the entry's `make` has checked that each parses.
    static func reachTargets(_ argument: BytePath?) -> [ReachTarget] {
        (argument?.lossyString ?? "").split(whereSeparator: \.isWhitespace).compactMap { word in
            try? ReachTarget(parsing: String(word))
        }
    }
}
