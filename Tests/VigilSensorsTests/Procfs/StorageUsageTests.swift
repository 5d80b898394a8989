import Testing
import VigilSensors

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

    @Test func missingMountPointIsNotFound() {
        #expect(throws: SensorError.notFound(path: "/no/such/mount")) {
            try StorageUsage.read(mountPoint: "/no/such/mount")
        }
    }
}
