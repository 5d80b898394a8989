import Glibc
import VigilMQTT
import VigilPrometheus
import VigilSensors

/// libFuzzer's entry point: runs the selected target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.selected?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// One parser of outside bytes, fed whatever libFuzzer generates.
struct FuzzTarget: Sendable {
    let run: @Sendable (UnsafeRawBufferPointer) -> Void

    /// The target named by `VIGIL_FUZZ_TARGET` (under libFuzzer, whose main owns the arguments) or by the first
    /// argument (replaying files without libFuzzer).
    static let selected: FuzzTarget? = {
        if let name = getenv("VIGIL_FUZZ_TARGET") { return all[String(cString: name)] }
        return CommandLine.arguments.count >= 2 ? all[CommandLine.arguments[1]] : nil
    }()

    /// Every target, by the name `Fuzz/run.sh` takes (and the name of its seed corpus folder in `Fuzz/Corpus`).
    static let all: [String: FuzzTarget] = [
        "rtnetlink": FuzzTarget { bytes in
            // Parse a datagram as if the kernel sent it, and apply it to a mirror that reads no sysfs.
            var mirror = NetworkMirror(sysfsRoot: nil)
            mirror.apply(RouteMessageParser.parse(bytes).envelopes.map(\.message))
            _ = mirror.path
        },
        "route-lookup": FuzzTarget { bytes in
            // A datagram on the reach source's lookup socket, taken as addressed to the port its first header names.
            let port = bytes.count >= 16 ? bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self) : 0
            for reply in RouteLookup.parse(bytes, port: port).replies { _ = "\(reply.lookup)" }
        },
        "nmea": FuzzTarget { bytes in
            // A receiver's bytes, fed in two reads split where the first byte says, so a sentence may be cut.
            guard let first = bytes.first else { return }
            let split = min(bytes.count, Int(first) + 1)
            var decoder = NMEADecoder(receiver: "/dev/gnss0")
            for fix in decoder.consume(bytes[1..<split]) + decoder.consume(bytes[split...]) { _ = fix.description }
            precondition(decoder.pendingByteCount <= NMEAStream.maximumLength)
        },
        "nl80211": FuzzTarget { bytes in
            // A generic netlink datagram, each message decoded as every nl80211 reply and event Vigil reads, and as
            // the controller's family record.
            for case .message(let message) in GenericNetlinkParser.parse(bytes).parts {
                _ = NL80211.event(from: message)?.description
                _ = GenericNetlinkFamily(message)
                for command in [
                    NL80211.Command.newInterface, NL80211.Command.newScanResults, NL80211.Command.newStation,
                ] {
                    var decoded = message
                    decoded.command = command
                    _ = NL80211.interface(from: decoded)?.description
                    _ = NL80211.scannedBSS(from: decoded)?.ssid?.description
                    _ = NL80211.station(from: decoded)
                }
            }
        },
        "uevent": FuzzTarget { bytes in
            _ = UeventParser.parse(bytes)
        },
        "inotify": FuzzTarget { bytes in
            _ = try? InotifyEvent.parse(bytes)
        },
        "iio-scan": FuzzTarget { bytes in
            // Scan-element types, one per line, then a NUL, then scan bytes to decode with that layout.
            let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
            let text = String(decoding: bytes[..<split], as: UTF8.self)
            var channels: [(name: String, index: Int, type: ScanElementType)] = []
            for (index, line) in text.split(separator: "\n").enumerated() {
                guard let type = try? ScanElementType(parsing: String(line)) else { return }
                channels.append(("in_fuzz\(index)", index, type))
            }
            guard let layout = try? ScanLayout(channels: channels) else { return }
            let scans = split < bytes.endIndex ? bytes[(split + 1)...] : bytes[bytes.endIndex...]
            _ = try? layout.decodeScans(Array(scans))
        },
        "procfs": FuzzTarget { bytes in
            // The first byte picks the file: /proc/stat, /proc/meminfo or a PSI file; the rest is its text.
            guard let selector = bytes.first else { return }
            let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
            switch selector % 3 {
            case 0: _ = try? CPUTimes.parse(text)
            case 1: _ = try? MemoryUsage.parse(text)
            default: _ = try? PressureStall.parse(text)
            }
        },
        "sysfs": FuzzTarget { bytes in
            // `name=value` lines, as a device directory's attributes, through every class parser; and the same
            // text as a power-supply uevent.
            let text = String(decoding: bytes, as: UTF8.self)
            var attributes: [String: String] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                attributes[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            _ = try? PowerSupply.parse(name: "BAT0", attributes: attributes, origin: "/fuzz/BAT0")
            _ = try? HwmonChip.parse(name: "hwmon0", attributes: attributes, origin: "/fuzz/hwmon0")
            _ = try? Backlight.parse(name: "panel", attributes: attributes, origin: "/fuzz/panel")
            _ = try? ThermalZone.parse(name: "thermal_zone0", attributes: attributes, origin: "/fuzz/zone")
            let uevent = PowerSupply.attributes(fromUevent: text)
            _ = try? PowerSupply.parse(name: uevent.name ?? "BAT0", attributes: uevent.attributes, origin: "/fuzz")
        },
        "mqtt": FuzzTarget { bytes in
            // Bytes as a broker would send them, fed in two chunks (split by the first byte) through the streaming
            // decoder with a small packet limit, and whole through decodeAll.
            var decoder = MQTTPacketDecoder(maximumPacketSize: 4096)
            let split = min(Int(bytes.first ?? 0), bytes.count)
            for chunk in [bytes[..<split], bytes[split...]] {
                decoder.append(chunk)
                do {
                    while try decoder.next() != nil {}
                } catch {
                    break
                }
            }
            _ = try? MQTTPacketDecoder.decodeAll(bytes)
        },
        "http-request": FuzzTarget { bytes in
            // Bytes a scraper sent, parsed under small limits (so the limits are reached too), request after request
            // as a keep-alive connection would; each step must consume bytes, so this cannot loop forever.
            let limits = HTTPRequestParser.Limits(headBytes: 512, headerCount: 8, bodyBytes: 64)
            var rest = Array(bytes)[...]
            while case .request(let request, let consumed) = HTTPRequestParser.parse(rest, limits: limits) {
                precondition(consumed > 0 && consumed <= rest.count, "the parser consumed \(consumed) bytes")
                _ = (request.path, request.keepsAlive)
                // What basic authentication takes from a hostile client's header before any password check.
                _ = request.header("Authorization").flatMap(BasicAuthenticator.credentials)
                rest = rest.dropFirst(consumed)
            }
        },
        "web-config": FuzzTarget { bytes in
            // A web configuration file (YAML's block mappings and scalars, node_exporter's settings) as serve reads it.
            _ = try? MetricsServer.WebConfiguration(
                parsing: String(decoding: bytes, as: UTF8.self), path: "/fuzz/web.yml", directory: "/fuzz")
        },
        "os-release": FuzzTarget { bytes in
            // An os-release or machine-info file, parsed as the device source parses it; the same bytes as a DMI
            // attribute.
            let file = EnvironmentFile(parsing: String(decoding: bytes, as: UTF8.self))
            _ = OperatingSystem(path: "/fuzz/os-release", file: file).displayName
            _ = DMIText.value(Array(bytes))
        },
        "edid": FuzzTarget { bytes in
            // Bytes as a DRM connector's `edid` attribute gives them; a decoded EDID must describe and encode itself.
            guard let edid = try? EDID.decode(bytes) else { return }
            precondition(edid.extensions.count <= edid.extensionCount, "more extension blocks than counted")
            _ = edid.description
        },
        "evdev": FuzzTarget { bytes in
            // Bytes as an evdev node gives them, in two reads split by the first byte; whatever they hold, no more
            // than one partial event is kept. The same bytes as the text of a capability bitmap.
            var stream = EvdevStream()
            let split = min(Int(bytes.first ?? 0), bytes.count)
            for chunk in [bytes[..<split], bytes[split...]] {
                _ = stream.consume(chunk)
                precondition(stream.pendingByteCount < InputEvent.size, "kept \(stream.pendingByteCount) bytes")
            }
            let bitmap = try? CapabilityBitmap(text: String(decoding: bytes, as: UTF8.self), path: "/fuzz")
            precondition((bitmap?.words.count ?? 0) <= CapabilityBitmap.maximumBits / 64, "kept more than its bound")
        },
        "inventory": FuzzTarget { bytes in
            // The device inventory's kernel texts: the bytes as /proc/asound/cards, as a uevent attribute, and their
            // first six lines as an input device's bitmaps (ev, key, rel, abs, sw, properties) with the kind they make.
            let text = String(decoding: bytes, as: UTF8.self)
            let cards = SoundCard.parseProcfs(text)
            precondition(cards.entries.count <= SoundCard.maximumCards, "more cards than a kernel has")
            _ = UeventFile.properties(text)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(6).map(String.init)
            let bitmaps = lines.compactMap { try? CapabilityBitmap(text: $0, path: "/fuzz") }
            guard bitmaps.count == lines.count else { return }
            let padded = bitmaps + Array(repeating: CapabilityBitmap(), count: 6 - bitmaps.count)
            _ =
                InputCapabilities(
                    events: padded[0], keys: padded[1], relativeAxes: padded[2], absoluteAxes: padded[3],
                    switches: padded[4], properties: padded[5]
                ).kind
        },
        "rfkill": FuzzTarget { bytes in
            // Bytes as /dev/rfkill gives them, one event per read: the first byte picks the read size (0 to 15 bytes,
            // so truncated, 8-byte, 9-byte and longer events), the rest is cut into reads of that size, each applied
            // to two switches as the radios source applies them. Nothing may grow beyond the switches it started with.
            guard let first = bytes.first else { return }
            let size = Int(first % 16)
            var stream = RfkillStream(eventSize: max(size, 1))
            var reading = RadioSwitches(switches: [
                RadioSwitch(
                    name: "rfkill0", label: "hci0", type: "bluetooth", softBlocked: false, hardBlocked: false, index: 0),
                RadioSwitch(
                    name: "rfkill1", label: "phy0", type: "wlan", softBlocked: true, hardBlocked: false, index: 1),
            ])
            var rest = bytes.dropFirst()
            while !rest.isEmpty {
                let read = rest.prefix(max(size, 1))
                rest = rest.dropFirst(read.count)
                if case .apply(let event) = stream.consume(read), let next = reading.applying(event) {
                    _ = next.description
                    reading = next
                }
            }
            _ = stream.drained()
            precondition(reading.switches.count <= 2, "an event added a switch sysfs never showed")
        },
        "mount-matrix": FuzzTarget { bytes in
            _ = try? MountMatrix(parsing: String(decoding: bytes, as: UTF8.self))
        },
    ]
}
