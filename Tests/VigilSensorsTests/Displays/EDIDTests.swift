import Testing
import VigilSensors
import VigilTestSupport

/// The EDID decoder against real displays' EDIDs (`Tests/Fixtures/edid`; the expected values are its README's).
@Suite(.timeLimit(.minutes(5))) struct EDIDTests {
    /// One fixture's expected identity.
    struct Expected: Sendable, CustomStringConvertible {
        let file: String
        let version: String
        let manufacturer: String
        let product: Int
        let serial: UInt32?
        let week: Int?
        let year: Int
        let size: (Int, Int)?
        let name: String?
        let serialText: String?
        let extensions: [String]
        var description: String { file }
    }

    static let expected: [Expected] = [
        Expected(
            file: "laptop-boe-nv156fhm-n4g.bin", version: "1.4", manufacturer: "BOE", product: 0x07AF, serial: nil,
            week: 1, year: 2018, size: nil, name: nil, serialText: nil, extensions: []),
        Expected(
            file: "laptop-auo-b140qan06s-cta-displayid.bin", version: "1.4", manufacturer: "AUO", product: 31910,
            serial: nil, week: 30, year: 2022, size: (30, 19), name: "B140QAN06.S", serialText: nil,
            extensions: ["CTA-861", "DisplayID"]),
        Expected(
            file: "laptop-auo-87a8-displayid-bad-week.bin", version: "1.4", manufacturer: "AUO", product: 34728,
            serial: nil, week: nil, year: 2022, size: (34, 22), name: nil, serialText: nil, extensions: ["DisplayID"]),
        Expected(
            file: "tv-lg-hdmi-160x90.bin", version: "1.3", manufacturer: "GSM", product: 1, serial: 16_843_009,
            week: 1, year: 2018, size: (160, 90), name: "LG TV", serialText: nil, extensions: ["CTA-861"]),
        Expected(
            file: "tv-lg-hdmi-doubled-512.bin", version: "1.3", manufacturer: "GSM", product: 1, serial: 16_843_009,
            week: 1, year: 2015, size: (160, 90), name: "LG TV", serialText: nil, extensions: ["CTA-861"]),
        Expected(
            file: "monitor-dell-u2719d-dp-cta.bin", version: "1.4", manufacturer: "DEL", product: 16730,
            serial: 1_144_075_351, week: 47, year: 2019, size: (60, 34), name: "DELL U2719D", serialText: "H07VSS2",
            extensions: ["CTA-861"]),
        Expected(
            file: "monitor-dell-1907fp-dvi-edid13.bin", version: "1.3", manufacturer: "DEL", product: 16405,
            serial: 808_801_868, week: 23, year: 2006, size: (38, 30), name: "DELL 1907FP",
            serialText: "6418066505VL", extensions: []),
        Expected(
            file: "crt-compaq-v700-vga-edid11.bin", version: "1.1", manufacturer: "CPQ", product: 4928,
            serial: 1_211_709_237, week: 22, year: 1999, size: (32, 24), name: "COMPAQ V700",
            serialText: "922CF03TH975", extensions: []),
        Expected(
            file: "monitor-lg-ultrafine-tiled-displayid.bin", version: "1.4", manufacturer: "GSM", product: 23313,
            serial: 18138, week: 9, year: 2018, size: (60, 34), name: "LG UltraFine", serialText: "809NTDV0J138",
            extensions: ["DisplayID", "DisplayID"]),
        Expected(
            file: "vr-sony-psvr2-aspect-cta-displayid.bin", version: "1.4", manufacturer: "SNY", product: 49671,
            serial: nil, week: 25, year: 2022, size: nil, name: "PS VR2", serialText: nil,
            extensions: ["CTA-861", "DisplayID"]),
        Expected(
            file: "dummy-plug-fitheadless-hdmi.bin", version: "1.4", manufacturer: "CLB", product: 4660,
            serial: 1_234_567_899, week: nil, year: 2016, size: nil, name: "fitHeadlessGS", serialText: nil,
            extensions: ["CTA-861"]),
    ]

    static func decode(_ file: String) throws -> EDID {
        let bytes = try #require(Fixtures.edid(file), "no fixture \(file)")
        return try EDID.decode(bytes)
    }

    @Test(arguments: expected) func decodesTheIdentityOfARealDisplay(_ expected: Expected) throws {
        let edid = try Self.decode(expected.file)
        #expect(edid.version == expected.version)
        #expect(edid.manufacturer == expected.manufacturer)
        #expect(edid.productCode == expected.product)
        #expect(edid.serialNumber == expected.serial)
        #expect(edid.manufactured.week == expected.week)
        #expect(edid.manufactured.year == expected.year)
        #expect(edid.size.widthCentimetres == expected.size?.0)
        #expect(edid.size.heightCentimetres == expected.size?.1)
        #expect(edid.name == expected.name)
        #expect(edid.serialText == expected.serialText)
        #expect(edid.extensions.map(\.kind) == expected.extensions)
        #expect(edid.extensionCount == expected.extensions.count)
        #expect(edid.extensions.allSatisfy { $0.checksumIsValid })
    }

    @Test func inputsAreDigitalWithTheirInterfaceOrAnalog() throws {
        let dell = try Self.decode("monitor-dell-u2719d-dp-cta.bin").input
        #expect(dell.isDigital && dell.bitsPerColor == 8 && dell.interface == "DisplayPort")
        #expect(try Self.decode("laptop-auo-b140qan06s-cta-displayid.bin").input.bitsPerColor == 10)
        #expect(try Self.decode("dummy-plug-fitheadless-hdmi.bin").input.interface == "HDMI-a")
        // EDID 1.3 has no depth or interface field.
        let tv = try Self.decode("tv-lg-hdmi-160x90.bin").input
        #expect(tv.isDigital && tv.bitsPerColor == nil && tv.interface == nil)
        #expect(try Self.decode("crt-compaq-v700-vga-edid11.bin").input.isDigital == false)
    }

    @Test func laptopPanelsNameThemselvesInTextDescriptors() throws {
        let boe = try Self.decode("laptop-boe-nv156fhm-n4g.bin")
        #expect(boe.texts == ["BOE HF", "NV156FHM-N4G"])
        #expect(boe.description.hasPrefix("BOE NV156FHM-N4G, product 0x07AF"))
        #expect(try Self.decode("laptop-auo-b140qan06s-cta-displayid.bin").texts == ["AUO"])
        let bare = try Self.decode("laptop-auo-87a8-displayid-bad-week.bin")
        #expect(bare.texts.isEmpty && bare.name == nil && bare.serialText == nil)
    }

    @Test func anInvalidWeekIsDroppedAndNoted() throws {
        let edid = try Self.decode("laptop-auo-87a8-displayid-bad-week.bin")
        #expect(edid.manufactured.week == nil && edid.manufactured.year == 2022 && !edid.manufactured.isModelYear)
        #expect(edid.notes.contains { $0.contains("week of manufacture 239") })
    }

    @Test func week255MakesTheYearAModelYear() throws {
        let edid = try Self.decode("dummy-plug-fitheadless-hdmi.bin")
        #expect(edid.manufactured.week == nil && edid.manufactured.year == 2016 && edid.manufactured.isModelYear)
        #expect(edid.description.contains("model year 2016"))
    }

    @Test func sizeBytesMayHoldAnAspectRatio() throws {
        for file in ["laptop-boe-nv156fhm-n4g.bin", "vr-sony-psvr2-aspect-cta-displayid.bin"] {
            let size = try Self.decode(file).size
            #expect(size.kind == .aspectRatio)
            #expect(size.aspectRatio == 1.78)
            #expect(size.orientation == .landscape)
            #expect(size.description == "aspect ratio 1.78 (landscape), no size")
        }
        let plug = try Self.decode("dummy-plug-fitheadless-hdmi.bin").size
        #expect(plug.kind == .aspectRatio && plug.aspectRatio == 1.0 && plug.orientation == .portrait)
    }

    @Test func aTVWritingItsAspectRatioAsASizeIsFlagged() throws {
        let edid = try Self.decode("tv-lg-hdmi-160x90.bin")
        #expect(edid.size.kind == .measured)
        #expect(edid.size.isPlausible == false)
        #expect(edid.notes.contains { $0.contains("160 × 90 cm looks like the aspect ratio 16:9") })
        let dell = try Self.decode("monitor-dell-u2719d-dp-cta.bin")
        #expect(dell.size.isPlausible && dell.notes.isEmpty)
        #expect(dell.size.diagonalInches == 27.2)
    }

    @Test func extensionRevisionsAreRead() throws {
        let auo = try Self.decode("laptop-auo-b140qan06s-cta-displayid.bin").extensions
        #expect(auo.map(\.tag) == [0x02, 0x70])
        #expect(auo.map(\.revision) == ["3", "2.0"])
        let lg = try Self.decode("monitor-lg-ultrafine-tiled-displayid.bin").extensions
        #expect(lg.map(\.revision) == ["1.2", "1.2"])
    }

    @Test func bytesPastTheCountedBlocksAreIgnored() throws {
        let edid = try Self.decode("tv-lg-hdmi-doubled-512.bin")
        #expect(edid.extensions.count == 1)
        #expect(edid.notes.contains("256 bytes after the last extension block ignored"))
    }

    @Test func aMissingExtensionBlockIsNotedNotFatal() throws {
        let bytes = try #require(Fixtures.edid("laptop-auo-b140qan06s-cta-displayid.bin"))
        let edid = try EDID.decode(bytes.prefix(256 + 60))
        #expect(edid.extensions.map(\.kind) == ["CTA-861"])
        #expect(edid.extensionCount == 2)
        #expect(edid.notes.contains("truncated: 1 of 2 extension blocks present"))
    }

    @Test func aWrongExtensionChecksumIsNoted() throws {
        var bytes = try #require(Fixtures.edid("monitor-dell-u2719d-dp-cta.bin"))
        bytes[200] &+= 1
        let edid = try EDID.decode(bytes)
        #expect(edid.extensions.first?.checksumIsValid == false)
        #expect(edid.notes.contains("extension block 1 has a wrong checksum"))
    }

    @Test func aWrongBaseChecksumIsATypedError() throws {
        var bytes = try #require(Fixtures.edid("monitor-dell-1907fp-dvi-edid13.bin"))
        bytes[100] &+= 3
        #expect(throws: EDIDError.badChecksum(sum: 3)) { try EDID.decode(bytes) }
    }

    @Test(arguments: [0, 1, 8, 127]) func aTruncatedBaseBlockIsATypedError(length: Int) throws {
        let bytes = try #require(Fixtures.edid("monitor-dell-u2719d-dp-cta.bin"))
        #expect(throws: EDIDError.truncated(length: length)) { try EDID.decode(bytes.prefix(length)) }
    }

    @Test func bytesWithoutTheHeaderAreNotAnEDID() {
        #expect(throws: EDIDError.badHeader) { try EDID.decode([UInt8](repeating: 0, count: 128)) }
        #expect(throws: EDIDError.badHeader) { try EDID.decode([UInt8](repeating: 0xFF, count: 256)) }
    }

    @Test func oversizedInputIsReadOnlyUpToTheLargestEDID() throws {
        var bytes = try #require(Fixtures.edid("monitor-dell-1907fp-dvi-edid13.bin"))
        bytes += [UInt8](repeating: 0, count: 1 << 20)
        let edid = try EDID.decode(bytes)
        #expect(edid.name == "DELL 1907FP")
        #expect(edid.notes.contains("at least 32641 bytes after the last extension block ignored"))
    }

    @Test func letterBytesOutOfRangeShowAsQuestionMarks() throws {
        var bytes = try #require(Fixtures.edid("monitor-dell-1907fp-dvi-edid13.bin"))
        // 0x7FFF packs 31, 31, 31: no letters. Keep the checksum by taking the difference off the checksum byte.
        let delta = (0x7F &- bytes[8]) &+ (0xFF &- bytes[9])
        bytes[8] = 0x7F
        bytes[9] = 0xFF
        bytes[127] &-= delta
        let edid = try EDID.decode(bytes)
        #expect(edid.manufacturer == "???")
        #expect(edid.notes.contains { $0.contains("0x7FFF are not three letters") })
    }

    @Test func everyPrefixAndEveryOneByteChangeDecodesOrThrowsATypedError() throws {
        // Seeded, so a failure repeats; the Fuzz/ target `edid` searches further.
        let bytes = try #require(Fixtures.edid("laptop-auo-b140qan06s-cta-displayid.bin"))
        for length in 0...bytes.count { _ = try? EDID.decode(bytes.prefix(length)) }
        var random = SeededRandom(seed: 24)
        for _ in 0..<2000 {
            var changed = bytes
            changed[Int(random.next() % UInt64(changed.count))] = UInt8(truncatingIfNeeded: random.next())
            changed[126] = UInt8(truncatingIfNeeded: random.next() % 4)
            // Keep the base block's checksum right, so the decode goes past it.
            changed[127] = 0 &- changed[0..<127].reduce(0, &+)
            let headerIntact = changed[0..<8].elementsEqual(bytes[0..<8])
            do throws(EDIDError) {
                let edid = try EDID.decode(changed)
                #expect(edid.extensions.count == min(edid.extensionCount, 2))
            } catch {
                #expect(error == .badHeader && !headerIntact)
            }
        }
    }
}
