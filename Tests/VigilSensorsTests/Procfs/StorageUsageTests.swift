import Foundation
import Glibc
import Testing
import VigilSensors
import VigilTestSupport

@Suite(.timeLimit(.minutes(10))) struct StorageUsageTests {
    @Test func blocksAreConvertedToBytesLikeDf() {
        let usage = StorageUsage(
            mountPoint: "/data", fragmentSize: 4096, blocks: 1000, freeBlocks: 300, availableBlocks: 250)
        #expect(usage.totalBytes == 4_096_000)
        #expect(usage.freeBytes == 1_228_800)
        #expect(usage.availableBytes == 1_024_000)
        #expect(usage.usedFraction == 700.0 / 950.0)
        #expect(usage.description == "/data: 73.7 % used, 1000.0 KiB available of 3.9 MiB")
    }

    @Test func inconsistentCountsNeverTrap() {
        let usage = StorageUsage(
            mountPoint: "/x", fragmentSize: .max, blocks: .max, freeBlocks: .max, availableBlocks: .max)
        #expect(usage.totalBytes == .max)
        #expect((0...1).contains(usage.usedFraction))
        let empty = StorageUsage(mountPoint: "/y", fragmentSize: 0, blocks: 0, freeBlocks: 0, availableBlocks: 0)
        #expect(empty.usedFraction == 0)
    }

    @Test func realRootFileSystem() throws {
        let usage = try StorageUsage.read(mountPoint: "/")
        #expect(usage.totalBytes > 0)
        #expect(usage.availableBytes <= usage.freeBytes)
        #expect((0...1).contains(usage.usedFraction))
    }

    /// Latin-1 `café` as a mount point: read by its bytes, shown escaped like `ls -b`, and in JSON the array of its
    /// bytes, never a look-alike string.
    @Test(.enabled(if: getuid() == 0, "mounting a file system needs root"))
    func aMountPointThatIsNotUTF8KeepsItsBytes() throws {
        let directory = TemporaryDirectory()
        let mountPoint = BytePathFiles.path(directory.path, BytePathFiles.latin1Cafe)
        #expect(BytePathFiles.makeDirectory(mountPoint))
        try #require(BytePathFiles.mountTemporaryFileSystem(mountPoint), "mount(2) failed: errno \(errno)")
        defer {
            BytePathFiles.unmount(mountPoint)
            BytePathFiles.removeDirectory(mountPoint)
            directory.remove()
        }
        let usage = try StorageUsage.read(mountPoint: mountPoint.appending("."))
        #expect(usage.mountedOn == mountPoint)
        #expect(usage.description.hasPrefix("\(directory.path)/caf\\351/. on \(directory.path)/caf\\351: "))
        let json = String(decoding: try JSONEncoder().encode(usage), as: UTF8.self)
        let bytes = mountPoint.bytes.map(String.init).joined(separator: ",")
        #expect(
            json.contains(#""mountedOn":[\#(bytes)]"#) && json.contains(#""mountPoint":[\#(bytes),47,46]"#), "\(json)")
    }

    @Test func missingMountPointIsNotFound() {
        #expect(throws: SensorError.notFound(path: "/no/such/mount")) {
            try StorageUsage.read(mountPoint: "/no/such/mount")
        }
    }
}
