extension RadioSwitch {
    /// The attributes of an rfkill class device that a switch is read from.
    static let attributeNames = ["name", "type", "soft", "hard", "state", "index", "hard_block_reasons"]

    /// A switch and what was wrong with its attributes.
    struct Parsed {
        var radioSwitch: RadioSwitch
        /// One line per attribute that exists but could not be read or parsed, naming its path.
        var problems: [String]
    }

    /// Builds the switch of class entry `name` from its attribute texts (`origin` is its directory, for messages).
    ///
    /// One bad attribute hides only its own field: `soft` and `hard` fall back to `state` (0 soft-blocked, 1
    /// unblocked, 2 hard-blocked; the only attribute of kernels before 2.6.34), the index to the entry's number, and
    /// what cannot be parsed is nil with a problem line. Texts that are not UTF-8 arrive with replacement characters.
    static func parse(name: String, read: AttributeTexts, origin: String) -> Parsed {
        var problems = read.failures.sorted { $0.key < $1.key }.map { "\($0.value)" }
        func text(_ attribute: String) -> String? {
            read.texts[attribute].map { $0.trimmingWhitespace() }
        }
        func malformed(_ attribute: String, expected: String) {
            guard let value = text(attribute) else { return }
            problems.append(
                "\(SensorError.malformedValue(path: origin + "/" + attribute, text: value, expected: expected))")
        }
        let state = text("state").flatMap(UInt8.init)
        if text("state") != nil, state.map({ $0 > 2 }) ?? true { malformed("state", expected: "0, 1 or 2") }
        var soft = flag(text("soft"))
        if soft == nil {
            malformed("soft", expected: "0 or 1")
            soft = state.flatMap { [0: true, 1: false][$0] }
        }
        var hard = flag(text("hard"))
        if hard == nil {
            malformed("hard", expected: "0 or 1")
            hard = state.flatMap { $0 <= 2 ? $0 == 2 : nil }
        }
        let index = text("index").flatMap { UInt32($0) } ?? UInt32(name.dropFirst("rfkill".count))
        if text("index").flatMap({ UInt32($0) }) == nil { malformed("index", expected: "a number") }
        let reasons = text("hard_block_reasons").flatMap(parseReasons)
        if reasons == nil { malformed("hard_block_reasons", expected: "a hexadecimal byte such as 0x1") }
        let label = text("name").flatMap { $0.isEmpty ? nil : $0 }
        let type = text("type").flatMap { $0.isEmpty ? nil : $0 }
        return Parsed(
            radioSwitch: RadioSwitch(
                name: name, label: label, type: type, softBlocked: soft, hardBlocked: hard, index: index,
                hardBlockReasons: reasons),
            problems: problems)
    }

    /// `1` is true, `0` false, anything else unknown.
    static func flag(_ text: String?) -> Bool? {
        switch text?.trimmingWhitespace() ?? "" {
        case "1": true
        case "0": false
        default: nil
        }
    }

    /// The kernel prints the reasons as `0x%lx`; a byte's worth of bits, with or without the prefix.
    private static func parseReasons(_ text: String) -> HardBlockReasons? {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
        guard !digits.isEmpty, digits.count <= 2, let bits = UInt8(digits, radix: 16) else { return nil }
        return HardBlockReasons(rawValue: bits)
    }

    /// Every switch under `<root>/class/rfkill`, with `locate` adding where each sits (its directory as bytes), and
    /// a problem line per unreadable entry or attribute.
    ///
    /// - Throws: A ``SensorError`` when the class directory exists but cannot be listed, or `root` is gone.
    static func readAll<Located>(
        root: String, locate: (RadioSwitch, BytePath) -> Located
    ) throws(SensorError) -> SysfsClass.Devices<Located> {
        let parsed = try SysfsClass.read(
            root: root, className: "rfkill", include: { isNodeName($0, prefix: "rfkill") },
            attributes: { _ in attributeNames },
            parseAt: { (name, read, directory) throws(SensorError) in
                let parsed = parse(name: name, read: read, origin: directory.displayText)
                return (locate(parsed.radioSwitch, directory), parsed.problems)
            })
        return SysfsClass.Devices(
            devices: parsed.devices.map(\.0), problems: parsed.problems + parsed.devices.flatMap(\.1))
    }
}
