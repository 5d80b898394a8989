import Testing
import VigilSensors
import VigilTestSupport

/// The `edid` fuzz corpus replayed through the decoder its fuzzer feeds, each input with the EDID or the notes it
/// must give; `Fuzz/run.sh edid` is where random bytes go.
@Suite(.timeLimit(.minutes(5))) struct EDIDFuzzCorpusTests {
    static func decode(_ name: String) throws -> EDID {
        try EDID.decode(try #require(FuzzCorpus.input("edid", name)))
    }

    @Test func everyCorpusInputHasAnExpectation() {
        #expect(FuzzCorpus.names("edid") == ["auo-bad-week-displayid", "dell-u2719d-cta", "lg-tv-truncated-extension"])
    }

    @Test func aMonitorWithACTAExtension() throws {
        let edid = try Self.decode("dell-u2719d-cta")
        #expect(edid.manufacturer == "DEL" && edid.name == "DELL U2719D")
        #expect(edid.extensions.map(\.kind) == ["CTA-861"])
        #expect(edid.notes.isEmpty)
    }

    @Test func aPanelWithAnInvalidWeek() throws {
        let edid = try Self.decode("auo-bad-week-displayid")
        #expect(edid.manufactured.week == nil)
        #expect(edid.extensions.map(\.kind) == ["DisplayID"])
        #expect(edid.notes.count == 1)
    }

    @Test func aTVCutInsideItsExtensionBlock() throws {
        let edid = try Self.decode("lg-tv-truncated-extension")
        #expect(edid.name == "LG TV")
        #expect(edid.extensions.isEmpty)
        #expect(edid.notes.contains("truncated: 0 of 1 extension blocks present"))
    }
}
