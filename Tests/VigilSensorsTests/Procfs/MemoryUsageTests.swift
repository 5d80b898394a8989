import Testing
import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct MemoryUsageTests {
    @Test func meminfoIsConvertedToBytes() throws {
        let text = """
            MemTotal:        8000000 kB
            MemFree:         1000000 kB
            MemAvailable:    6000000 kB
            Buffers:          200000 kB
            Cached:          3000000 kB
            SwapCached:            0 kB
            SwapTotal:       2000000 kB
            SwapFree:        1500000 kB
            HugePages_Total:       0
            Hugepagesize:       2048 kB
            """
        let memory = try MemoryUsage.parse(text)
        #expect(memory.totalBytes == 8_192_000_000)
        #expect(memory.freeBytes == 1_024_000_000)
        #expect(memory.availableBytes == 6_144_000_000)
        #expect(memory.cacheBytes == 3_276_800_000)
        #expect(memory.swapTotalBytes == 2_048_000_000)
        #expect(memory.swapFreeBytes == 1_536_000_000)
        #expect(memory.usedFraction == 0.25)
        #expect(memory.description == "memory 25.0 % used, 5.7 GiB available of 7.6 GiB")
    }

    @Test func kernelWithoutMemAvailableUsesFreePlusCache() throws {
        let memory = try MemoryUsage.parse("MemTotal: 1000 kB\nMemFree: 100 kB\nBuffers: 50 kB\nCached: 250 kB")
        #expect(memory.availableBytes == 400 * 1024)
    }

    @Test(arguments: ["", "MemTotal: 1000 kB", "MemTotal: lots kB\nMemFree: 1 kB", "MemTotal: 1 MB\nMemFree: 1 kB"])
    func malformedMeminfoIsAnError(text: String) {
        #expect(throws: SensorError.self) { try MemoryUsage.parse(text) }
    }

    @Test func realMeminfoParses() throws {
        let memory = try MemoryUsage.parse(try readProcFile("/proc/meminfo"))
        #expect(memory.totalBytes > 0)
        #expect(memory.availableBytes <= memory.totalBytes)
        #expect((0...1).contains(memory.usedFraction))
    }
}
