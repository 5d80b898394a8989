import Glibc
import Testing

@testable import VigilSensors

@Suite(.timeLimit(.minutes(5))) struct ErrnoTests {
    @Test(arguments: [
        (ENOENT, "ENOENT (No such file or directory)"), (EINVAL, "EINVAL (Invalid argument)"),
        (EAGAIN, "EAGAIN (Resource temporarily unavailable)"),
        (EHWPOISON, "EHWPOISON (Memory page has hardware error)"),
        (EPERM, "EPERM (Operation not permitted)"), (ECONNREFUSED, "ECONNREFUSED (Connection refused)"),
    ])
    func describesByNameAndText(number: Int32, expected: String) {
        #expect(Errno(rawValue: number).description == expected)
    }

    @Test func everyNumberLinuxDefinesHasItsName() {
        for number in Int32(1)...EHWPOISON where number != 41 && number != 58 {
            let name = Errno(rawValue: number).name
            #expect(name?.hasPrefix("E") == true, "errno \(number) has no name")
        }
        #expect(Errno(rawValue: EWOULDBLOCK).name == "EAGAIN")
        #expect(Errno(rawValue: ENOTSUP).name == "EOPNOTSUPP")
    }

    @Test(arguments: [Int32(0), 41, 200, -1])
    func describesAnUnknownNumberAsItself(number: Int32) {
        #expect(Errno(rawValue: number).name == nil)
        #expect(Errno(rawValue: number).description.hasPrefix("errno \(number) ("))
    }

    @Test func aFailedCallSaysWhichErrorByName() {
        let error = SensorError.systemCall(name: "write", target: "/proc/pressure/memory", errno: .invalidArgument)
        #expect(error.description == "write(/proc/pressure/memory) failed: EINVAL (Invalid argument)")
    }
}
