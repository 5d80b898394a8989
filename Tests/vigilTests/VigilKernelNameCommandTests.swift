import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

/// Names the kernel hands over that are not UTF-8, end to end: a mount point (`storage`), uevent values (`devices`)
/// and interface names (`network`) are in JSON the arrays of their bytes, in readable lines escaped like `ls -b`;
/// never U+FFFD.
@Suite(
    .timeLimit(.minutes(10)),
    .enabled(if: NetlinkTestNamespace.isRoot, "needs root to mount a file system and create a network namespace"))
struct VigilKernelNameCommandTests {
    @Test func storageWritesAMountPointThatIsNotUTF8AsItsBytes() async throws {
        let directory = TemporaryDirectory()
        let mountPoint = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
        let link = directory.file("link")
        #expect(BytePathFiles.makeDirectory(mountPoint))
        try #require(BytePathFiles.mountTemporaryFileSystem(mountPoint), "mount(2) failed: errno \(errno)")
        #expect(BytePathFiles.makeSymbolicLink(BytePath(link), to: mountPoint))
        defer {
            BytePathFiles.unmount(mountPoint)
            BytePathFiles.removeDirectory(mountPoint)
            BytePathFiles.remove(BytePath(link))
            directory.remove()
        }
        let bytes = mountPoint.bytes.map(Int.init)
        // Through the link, the path asked about is text and the mount point holding it is not.
        let viaLink = try ChildProcess(vigil: ["get", "storage", link, "--json"])
        #expect(await viaLink.waitForExit())
        #expect(viaLink.exitStatus == 0, "\(viaLink.standardError)")
        let linked = try #require(try VigilOutput.objects(viaLink.standardOutput).first?["volumes"] as? [[String: Any]])
        #expect(linked.first?["mountPoint"] as? String == link, "\(viaLink.standardOutput)")
        #expect(linked.first?["mountedOn"] as? [Int] == bytes, "\(viaLink.standardOutput)")
        // The mount point itself, named by an argument a Swift `String` cannot spell (the shell's printf makes the
        // byte E9), by `get` and by `watch`.
        for command in ["get", "watch --once"] {
            let vigil = try ChildProcess(
                vigil: ["\(directory.path)/caf\\0351"],
                wrapper: ["/bin/sh", "-c", #"exec "$0" \#(command) storage "$(printf '%b' "$1")" --json"#])
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 0, "\(command): \(vigil.standardError)")
            let volumes = try VigilOutput.objects(vigil.standardOutput).first?["volumes"] as? [[String: Any]]
            #expect(volumes?.first?["mountPoint"] as? [Int] == bytes, "\(command): \(vigil.standardOutput)")
            #expect(volumes?.first?["mountedOn"] as? [Int] == bytes, "\(command): \(vigil.standardOutput)")
        }
        let human = try ChildProcess(vigil: ["get", "storage", link])
        #expect(await human.waitForExit())
        #expect(
            human.standardOutput.hasPrefix("storage: \(link) on \(directory.path)/caf\\351: "),
            "\(human.standardOutput)")
    }

    @Test func devicesWritesUeventValuesThatAreNotUTF8AsTheirBytes() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        let arguments = ["watch", "devices", "--subsystem", "net", "--netns", namespace.name]
        let json = try ChildProcess(vigil: arguments + ["--json"])
        let human = try ChildProcess(vigil: arguments)
        defer {
            for vigil in [json, human] where vigil.isRunning { vigil.signal(SIGKILL) }
        }
        for vigil in [json, human] {
            #expect(await eventually(within: 20) { vigil.standardError.contains("watching") }, "\(vigil.standardError)")
        }
        // An interface name may be any bytes but `/`, `:`, NUL and white space.
        try namespace.shell(#"ip link add "$(printf 'caf\351')" type veth peer name nu0"#)
        let devpath = Array("/devices/virtual/net/caf".utf8).map(Int.init) + [0xE9]
        #expect(
            await eventually(within: 20) {
                human.standardOutput.contains("devices: add net /devices/virtual/net/caf\\351 ")
            }, "\(human.standardOutput)")
        #expect(
            await eventually(within: 20) { json.standardOutput.contains("[99,97,102,233]") }, "\(json.standardOutput)")
        for vigil in [json, human] {
            vigil.signal(SIGINT)
            #expect(await vigil.waitForExit())
        }
        let added = try VigilOutput.objects(json.standardOutput).filter { $0["event"] as? String == "add" }
        let event = try #require(added.first { $0["devpath"] is [Any] }, "\(json.standardOutput)")
        let properties = try #require(event["properties"] as? [String: Any])
        #expect(event["devpath"] as? [Int] == devpath)
        #expect(properties["INTERFACE"] as? [Int] == [99, 97, 102, 0xE9], "\(properties)")
        #expect(event["subsystem"] as? String == "net")
        #expect(!json.standardOutput.contains("\u{FFFD}") && !human.standardOutput.contains("\u{FFFD}"))
    }

    @Test func networkWritesAnInterfaceNameThatIsNotUTF8AsItsBytes() async throws {
        let namespace = try NetlinkTestNamespace()
        defer { namespace.remove() }
        try namespace.shell(#"ip link add "$(printf 'caf\351')" type veth peer name nu0"#)
        let json = try ChildProcess(vigil: ["get", "network", "--netns", namespace.name, "--json"])
        let human = try ChildProcess(vigil: ["get", "network", "--netns", namespace.name])
        for vigil in [json, human] {
            #expect(await vigil.waitForExit())
            #expect(vigil.exitStatus == 0, "\(vigil.standardError)")
        }
        let interfaces = try #require(
            try VigilOutput.objects(json.standardOutput).first?["interfaces"] as? [[String: Any]])
        #expect(interfaces.contains { $0["name"] as? [Int] == [99, 97, 102, 0xE9] }, "\(json.standardOutput)")
        #expect(interfaces.contains { $0["name"] as? String == "nu0" })
        #expect(human.standardOutput.contains("caf\\351: "), "\(human.standardOutput)")
        #expect(!json.standardOutput.contains("\u{FFFD}") && !human.standardOutput.contains("\u{FFFD}"))
    }
}
