import Glibc
import Testing
import VigilTestSupport

@testable import VigilSensors

@Suite(.timeLimit(.minutes(10))) struct SysfsFileTests {
    @Test func readsTextIntegersAndDoubles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeFile(directory.file("text"), "Charging\n")
        writeFile(directory.file("int"), "-4200\n")
        writeFile(directory.file("double"), " 0.000598 \n")
        #expect(try SysfsFile.readText(directory.file("text")) == "Charging")
        #expect(try SysfsFile.readInteger(directory.file("int")) == -4200)
        #expect(try SysfsFile.readDouble(directory.file("double")) == 0.000598)
    }

    @Test func readsFilesLargerThanOneChunk() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let long = String(repeating: "abcdefgh", count: 2000)
        writeFile(directory.file("long"), long)
        #expect(try SysfsFile.readText(directory.file("long")) == long)
    }

    @Test func malformedValuesNameThePathAndText() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeFile(directory.file("bad"), "12abc\n")
        #expect(throws: SensorError.malformedValue(path: directory.file("bad"), text: "12abc", expected: "an integer"))
        {
            try SysfsFile.readInteger(directory.file("bad"))
        }
        #expect(throws: SensorError.self) { try SysfsFile.readDouble(directory.file("bad")) }
    }

    @Test func missingPathsAreNotFound() {
        #expect(throws: SensorError.notFound(path: "/nonexistent/vigil")) {
            try SysfsFile.readText("/nonexistent/vigil")
        }
        #expect(throws: SensorError.notFound(path: "/nonexistent/dir")) {
            try SysfsFile.listDirectory("/nonexistent/dir")
        }
        #expect(!SysfsFile.exists("/nonexistent/vigil"))
    }

    @Test func writesAndListsSorted() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        writeFile(directory.file("b"))
        writeFile(directory.file("a"))
        mkdir(directory.file("c"), 0o755)
        try SysfsFile.write("42", to: directory.file("a"))
        #expect(try SysfsFile.readInteger(directory.file("a")) == 42)
        #expect(try SysfsFile.listDirectory(directory.path) == ["a", "b", "c"])
        #expect(SysfsFile.isDirectory(directory.file("c")))
        #expect(!SysfsFile.isDirectory(directory.file("a")))
    }

    @Test func fileDescriptorClosesOnce() {
        let raw = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let descriptor = FileDescriptor(raw)
        descriptor.close()
        descriptor.close()
        #expect(descriptor.isClosed)
        #expect(descriptor.rawValue == -1)
    }

    @Test func retryingOnInterruptThrowsErrno() {
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try retryingOnInterrupt { open("/nonexistent/vigil", O_RDONLY) }
        }
        #expect((try? retryingOnInterrupt { Int32(7) }) == 7)
    }
}
