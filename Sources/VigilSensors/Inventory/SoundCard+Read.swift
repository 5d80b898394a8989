extension SoundCard {
    /// The most cards read from `/proc/asound/cards`: the kernel allows at most 256 (`SNDRV_CARDS` with dynamic
    /// minors), so more lines than that are not a kernel's.
    package static let maximumCards = 256

    /// What one card's two lines of `/proc/asound/cards` say.
    package struct ProcfsEntry: Equatable {
        package var number: Int
        package var id: String
        package var driver: String
        package var shortName: String
        package var longName: String?

        package init(number: Int, id: String, driver: String, shortName: String, longName: String? = nil) {
            self.number = number
            self.id = id
            self.driver = driver
            self.shortName = shortName
            self.longName = longName
        }
    }

    /// Reads the cards of `<sysfsRoot>/class/sound` and `<procfsRoot>/asound/cards` and joins them by number.
    ///
    /// Either source alone is enough: a card sysfs lists without a procfs line (no procfs, a card that just came)
    /// has no driver or names; one procfs lists without a sysfs entry has no parent. A bad line or entry hides only
    /// itself; an unreadable `cards` file (a FIFO, a device, an endless file: it is read up to 64 KiB) is one problem
    /// line and the sysfs cards are still listed.
    ///
    /// - Throws: A ``SensorError`` when `sysfsRoot` is gone.
    static func read(sysfsRoot: String, procfsRoot: String) throws(SensorError) -> SysfsClass.Devices<SoundCard> {
        var result = SysfsClass.Devices<SoundCard>()
        do {
            result = try SysfsClass.read(
                root: sysfsRoot, className: "sound", include: { isNodeName($0, prefix: "card") },
                attributes: { _ in ["id", "number"] },
                parseAt: { (name, read, directory) throws(SensorError) in
                    let number = read.texts["number"].flatMap { Int($0.trimmingWhitespace()) }
                    return SoundCard(
                        number: number ?? Int(name.dropFirst("card".count)) ?? 0,
                        id: read.texts["id"]?.trimmingWhitespace(),
                        parent: ParentDevice.read(directory, root: sysfsRoot))
                })
        } catch {
            // The class cannot be listed: procfs alone, unless the root itself is gone.
            guard SysfsFile.isDirectory(sysfsRoot) else { throw error }
            result.problems.append(error.description)
        }
        let path = procfsRoot + "/asound/cards"
        var entries: [ProcfsEntry] = []
        do {
            let parsed = parseProcfs(try SysfsFile.readText(path))
            entries = parsed.entries
            result.problems += parsed.problems.map { "\(path): \($0)" }
        } catch .notFound {
            // No ALSA in procfs (no sound support, or procfs not mounted): sysfs alone.
        } catch {
            result.problems.append(error.description)
        }
        result.devices = join(sysfs: result.devices, procfs: entries)
        return result
    }

    /// Joins the sysfs cards with the procfs entries by number, in number order.
    static func join(sysfs: [SoundCard], procfs: [ProcfsEntry]) -> [SoundCard] {
        var cards: [Int: SoundCard] = [:]
        for card in sysfs { cards[card.number] = card }
        for entry in procfs {
            let known = cards[entry.number]
            cards[entry.number] = SoundCard(
                number: entry.number, id: known?.id ?? entry.id, driver: entry.driver, shortName: entry.shortName,
                longName: entry.longName, parent: known?.parent)
        }
        return cards.keys.sorted().compactMap { cards[$0] }
    }

    /// Parses `/proc/asound/cards`: two lines a card, ` 0 [PCH            ]: HDA-Intel - HDA Intel PCH` and the long
    /// name indented below it; `--- no soundcards ---` when there is none.
    ///
    /// A line that is neither is a problem and hides only itself; past ``maximumCards`` cards the rest is one
    /// problem.
    package static func parseProcfs(_ text: String) -> (entries: [ProcfsEntry], problems: [String]) {
        var entries: [ProcfsEntry] = []
        var problems: [String] = []
        var expectingLongName = false
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingWhitespaceSubstring()
            if trimmed.isEmpty || trimmed == "--- no soundcards ---" { continue }
            if let entry = parseHeading(trimmed) {
                guard entries.count < maximumCards else {
                    problems.append("more than \(maximumCards) cards; the rest is ignored")
                    break
                }
                entries.append(entry)
                expectingLongName = true
            } else if expectingLongName, !entries.isEmpty, line.first == " " || line.first == "\t" {
                entries[entries.count - 1].longName = String(trimmed)
                expectingLongName = false
            } else {
                problems.append("line \(offset + 1) is not a card: \(String(trimmed.prefix(64)))")
                expectingLongName = false
            }
        }
        return (entries, problems)
    }

    /// The first line of a card: `N [ID             ]: DRIVER - SHORT NAME`; nil when the line is not one.
    private static func parseHeading(_ line: Substring) -> ProcfsEntry? {
        guard let open = line.firstIndex(of: "["), let number = Int(line[..<open].trimmingWhitespaceSubstring()),
            number >= 0, let close = line[open...].firstIndex(of: "]")
        else { return nil }
        let rest = line[line.index(after: close)...]
        guard rest.hasPrefix(":") else { return nil }
        let names = rest.dropFirst().trimmingWhitespaceSubstring()
        let id = line[line.index(after: open)..<close].trimmingWhitespaceSubstring()
        guard !id.isEmpty else { return nil }
        let driver: Substring
        let shortName: Substring
        if let separator = names.firstRange(of: " - ") {
            driver = names[..<separator.lowerBound]
            shortName = names[separator.upperBound...]
        } else {
            driver = names
            shortName = ""
        }
        return ProcfsEntry(
            number: number, id: String(id), driver: String(driver.trimmingWhitespaceSubstring()),
            shortName: String(shortName.trimmingWhitespaceSubstring()))
    }
}

extension Substring {
    /// The substring without leading and trailing spaces, tabs and carriage returns.
    func trimmingWhitespaceSubstring() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[start...end]
    }
}
