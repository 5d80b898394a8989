import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

/// Sound cards from `/proc/asound/cards` and `class/sound`, joined by number; hostile `cards` files.
@Suite(.timeLimit(.minutes(10))) struct SoundCardTests {
    static let twoCards = """
         0 [PCH            ]: HDA-Intel - HDA Intel PCH
                              HDA Intel PCH at 0xf7f10000 irq 32
         1 [Device         ]: USB-Audio - USB Audio Device - Rev 2
                              C-Media Electronics Inc. USB Audio Device at usb-0000:00:14.0-1, full speed

        """

    @Test func parsesTwoLinesACard() {
        let parsed = SoundCard.parseProcfs(Self.twoCards)
        #expect(parsed.problems.isEmpty)
        #expect(
            parsed.entries == [
                SoundCard.ProcfsEntry(
                    number: 0, id: "PCH", driver: "HDA-Intel", shortName: "HDA Intel PCH",
                    longName: "HDA Intel PCH at 0xf7f10000 irq 32"),
                SoundCard.ProcfsEntry(
                    number: 1, id: "Device", driver: "USB-Audio", shortName: "USB Audio Device - Rev 2",
                    longName: "C-Media Electronics Inc. USB Audio Device at usb-0000:00:14.0-1, full speed"),
            ])
    }

    @Test func noSoundcardsIsNone() {
        let parsed = SoundCard.parseProcfs("--- no soundcards ---\n")
        #expect(parsed.entries.isEmpty && parsed.problems.isEmpty)
    }

    @Test func aBadLineHidesOnlyItself() {
        let text = "garbage here\n" + Self.twoCards + "x [\n"
        let parsed = SoundCard.parseProcfs(text)
        #expect(parsed.entries.map(\.number) == [0, 1])
        #expect(parsed.problems.count == 2, "\(parsed.problems)")
    }

    @Test func cardsPastTheKernelsLimitAreOneProblem() {
        let text = (0..<300).map { " \($0) [C\($0)             ]: Dummy - Dummy \($0)\n   long\n" }.joined()
        let parsed = SoundCard.parseProcfs(text)
        #expect(parsed.entries.count == SoundCard.maximumCards)
        #expect(parsed.problems == ["more than 256 cards; the rest is ignored"])
    }

    @Test func joinsSysfsAndProcfsByNumber() throws {
        let machine = FakeMachine.empty()
        machine.addInventory()
        // A USB card sysfs has and procfs does not list yet, and a procfs card without a sysfs entry.
        machine.sys.classDevice("sound", "card2", parent: nil, ["id": "Headset", "number": "2"])
        machine.proc.write("asound/cards", Self.twoCards)
        let read = try SoundCard.read(sysfsRoot: machine.sys.root, procfsRoot: machine.proc.root)
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.devices.map(\.number) == [0, 1, 2])
        let pch = read.devices[0]
        #expect(pch.id == "PCH" && pch.driver == "HDA-Intel" && pch.shortName == "HDA Intel PCH")
        #expect(
            pch.parent == ParentDevice(path: "/devices/pci0000:00/0000:00:1f.3", driver: "snd_hda_intel", bus: "pci"))
        #expect(pch.description == "card0 PCH (HDA Intel PCH)")
        #expect(read.devices[1].parent == nil && read.devices[1].driver == "USB-Audio")
        #expect(read.devices[2].id == "Headset" && read.devices[2].driver == nil)
    }

    /// What stands where `/proc/asound/cards` should be: a FIFO (never opened, so nothing blocks), `/dev/zero` (an
    /// endless device), a directory, a dangling link, an over-long file.
    enum Hostile: String, CaseIterable, Sendable {
        case fifo, zero, directory, dangling, huge
    }

    @Test(arguments: Hostile.allCases) func aHostileCardsFileIsOneProblemAndSysfsStillCounts(_ hostile: Hostile) throws
    {
        let machine = FakeMachine.empty()
        machine.addInventory()
        let path = machine.proc.root + "/asound/cards"
        unlink(path)
        switch hostile {
        case .fifo: #expect(mkfifo(path, 0o644) == 0)
        case .zero: machine.proc.link("asound/cards", to: "/dev/zero")
        case .directory: machine.proc.makeDirectory("asound/cards")
        case .dangling: machine.proc.link("asound/cards", to: "nowhere")
        case .huge: machine.proc.write("asound/cards", String(repeating: " 0 [PCH ]: A - B\n  long\n", count: 8000))
        }
        let read = try SoundCard.read(sysfsRoot: machine.sys.root, procfsRoot: machine.proc.root)
        #expect(read.devices.map(\.number) == [0])
        #expect(read.devices.first?.id == "PCH")
        #expect(read.devices.first?.driver == nil)
        if hostile == .dangling {
            #expect(read.problems.isEmpty, "a dangling link is no cards file: \(read.problems)")
        } else {
            #expect(read.problems.count == 1, "\(read.problems)")
            #expect(read.problems.first?.contains("asound/cards") == true, "\(read.problems)")
        }
    }
}
