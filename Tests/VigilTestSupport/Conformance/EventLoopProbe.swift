import Glibc
import Synchronization
import VigilSensors

/// A private ``EventLoop`` for one source under test, and what that loop watches, read from the kernel.
///
/// The loop's epoll descriptor is found by a pipe of the probe's own registered on it: `/proc/self/fdinfo` of an epoll
/// descriptor lists every registered descriptor with its inode, and no other epoll set holds this pipe. So what the
/// loop watches for the source is known exactly, whatever other tests open at the same time. The pipe is also a
/// barrier: its handler runs after every handler already running or ready on the loop has returned.
package final class EventLoopProbe: Sendable {
    /// The loop to give the source.
    package let loop = EventLoop()
    private let pipeEnds: (read: Int32, write: Int32)
    private let registration: EventLoop.Registration
    /// How many bytes the pipe's handler has read: one a barrier.
    private let passes = PassCounter()
    /// The loop's epoll descriptor, nil if it could not be found.
    package let epoll: OpenDescriptor?
    /// The epoll tokens of the loop's own descriptors and of the probe's pipe.
    private let loopTokens: Set<UInt64>

    /// Starts the private loop and finds its epoll descriptor.
    package init() throws {
        guard let made = closeOnExecPipe() else { throw ProbeError.pipeFailed(errno) }
        let ends = [made.read, made.write]
        for end in ends { _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        pipeEnds = (ends[0], ends[1])
        let passes = passes
        let readEnd = ends[0]
        registration = try loop.register(fileDescriptor: readEnd, interest: .readable) { _ in
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 { passes.value.add(count, ordering: .releasing) }
        }
        let pipe = OpenDescriptor.current(readEnd)
        let epoll = OpenDescriptor.all().first { candidate in
            guard candidate.target == "anon_inode:[eventpoll]", let pipe else { return false }
            return Self.watched(by: candidate.number).contains { $0.number == readEnd && $0.inode == pipe.inode }
        }
        self.epoll = epoll
        // The loop's own descriptors (its wake-up eventfd, its timer), there before any source registers.
        loopTokens = Set(epoll.map { Self.watched(by: $0.number).map(\.token) } ?? [])
    }

    /// Ends the loop's thread and closes the probe's pipe.
    package func shutdown() {
        registration.cancel()
        loop.shutdown()
        close(pipeEnds.read)
        close(pipeEnds.write)
    }

    /// One descriptor registered on the loop.
    package struct Watched: Hashable, Sendable {
        package let number: Int32
        package let inode: UInt64
        /// The loop's token for it (`data:` in fdinfo).
        package let token: UInt64
    }

    /// The descriptors the loop watches for others than itself and the probe: the source's registrations and timers.
    package func registrations() -> [OpenDescriptor] {
        guard let epoll else { return [] }
        return Self.watched(by: epoll.number).filter { !loopTokens.contains($0.token) }.compactMap {
            OpenDescriptor.current($0.number)
        }
    }

    /// What the loop holds for others than the probe: the kernel's view (descriptors in its epoll set) and the loop's
    /// own table, which also keeps a registration whose descriptor was closed without cancelling it.
    package func held() -> LoopHoldings {
        LoopHoldings(descriptors: registrations(), tableEntries: loop.registrationCount - 1)
    }

    /// Waits until every handler that was running or ready on the loop has returned; false after `seconds`.
    @discardableResult
    package func barrier(within seconds: Double = 5) -> Bool {
        let target = passes.value.load(ordering: .acquiring) + 1
        var one: UInt8 = 1
        guard write(pipeEnds.write, &one, 1) == 1 else { return false }
        return waitUntil(within: seconds) { passes.value.load(ordering: .acquiring) >= target }
    }

    /// The `tfd:` lines of an epoll descriptor's fdinfo: `tfd: 8 events: 19 data: 1 pos:0 ino:1c7f sdev:e`.
    static func watched(by epoll: Int32) -> [Watched] {
        OpenDescriptor.fdinfo(epoll).compactMap { line in
            guard line.hasPrefix("tfd:") else { return nil }
            var fields: [String: String] = [:]
            let words = line.split { $0 == " " || $0 == "\t" }.map(String.init)
            var index = 0
            while index < words.count {
                let word = words[index]
                if word.hasSuffix(":"), index + 1 < words.count {
                    fields[String(word.dropLast())] = words[index + 1]
                    index += 2
                } else if let colon = word.firstIndex(of: ":") {
                    fields[String(word[..<colon])] = String(word[word.index(after: colon)...])
                    index += 1
                } else {
                    index += 1
                }
            }
            guard let number = fields["tfd"].flatMap({ Int32($0) }),
                let inode = fields["ino"].flatMap({ UInt64($0, radix: 16) }),
                let token = fields["data"].flatMap({ UInt64($0, radix: 16) })
            else { return nil }
            return Watched(number: number, inode: inode, token: token)
        }
    }

    private final class PassCounter: Sendable {
        let value = Atomic<Int>(0)
    }

    package enum ProbeError: Error {
        case pipeFailed(Int32)
    }
}

/// What an ``EventLoopProbe``'s loop holds for the source under test.
package struct LoopHoldings: Equatable, Sendable, CustomStringConvertible {
    /// The descriptors in the loop's epoll set (timers included, while they are descriptors).
    package let descriptors: [OpenDescriptor]
    /// The entries of the loop's table.
    package let tableEntries: Int

    /// Nothing: the source has nothing on the loop.
    package var isEmpty: Bool { descriptors.isEmpty && tableEntries == 0 }

    /// The descriptors by kind (`socket`, `anon_inode:[timerfd]`, a path) and the table's size, to compare two runs.
    package var shape: String {
        let kinds = descriptors.map { descriptor in
            guard let bracket = descriptor.target.firstIndex(of: "["), !descriptor.isAnonymous else {
                return descriptor.target
            }
            return String(descriptor.target[..<bracket])
        }
        return "\(kinds.sorted()) in \(tableEntries) registration(s)"
    }

    package var description: String { "\(descriptors) in \(tableEntries) registration(s)" }
}

/// Polls `condition` every millisecond until it holds or `seconds` pass; returns whether it held. For a thread of its
/// own (see `offThePool`), never for the cooperative pool.
package func waitUntil(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
