import CLinuxSupport
import Testing

@testable import VigilSensors

/// The dump protocol's decisions, driven by hand-made kernel replies (the kernel rarely marks a dump interrupted on
/// demand, so this is where `NLM_F_DUMP_INTR` is exercised).
@Suite(.timeLimit(.minutes(10))) struct NetworkMonitorStateMachineTests {
    private static let port: UInt32 = 4242
    private typealias Machine = NetworkMonitorStateMachine

    private func envelopes(_ build: (inout NetlinkMessageBuilder) -> Void) -> [RouteEnvelope] {
        var builder = NetlinkMessageBuilder()
        build(&builder)
        return RouteMessageParser.parse(builder.bytes).envelopes.map { envelope in
            var reply = envelope
            if reply.header.sequence != 0 { reply.header.port = Self.port }
            return reply
        }
    }

    private func feed(_ machine: inout Machine, _ build: (inout NetlinkMessageBuilder) -> Void) -> [Machine.Action] {
        envelopes(build).flatMap { machine.receive($0) }
    }

    private func sequence(of actions: [Machine.Action]) -> UInt32? {
        guard case .request(_, let sequence)? = actions.first else { return nil }
        return sequence
    }

    /// Runs a whole dump (links, addresses, routes) with one link in it; returns the last sequence used.
    private func completeDump(_ machine: inout Machine, starting actions: [Machine.Action], link: String) -> Bool {
        guard let links = sequence(of: actions) else { return false }
        let addresses = feed(&machine) {
            $0.link(index: 2, name: link, flags: 0x10043, sequence: links, messageFlags: 2)
            $0.done(sequence: links)
        }
        guard let addressSequence = sequence(of: addresses) else { return false }
        let routes = feed(&machine) { $0.done(sequence: addressSequence) }
        guard let routeSequence = sequence(of: routes) else { return false }
        return feed(&machine) { $0.done(sequence: routeSequence) }.isEmpty
    }

    @Test func dumpsLinksThenAddressesThenRoutesAndPublishesAtTheEnd() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        let first = machine.synchronize()
        #expect(first.count == 1 && machine.publishablePath == nil && machine.isSynchronizing)
        #expect(completeDump(&machine, starting: first, link: "eth0"))
        #expect(!machine.isSynchronizing)
        #expect(machine.publishablePath?.interfaces.map(\.name) == ["eth0"])
    }

    @Test func linkComingUpOrRegainingCarrierRedoesTheDump() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        #expect(completeDump(&machine, starting: machine.synchronize(), link: "eth0"))
        // 0x10043 is up, running and lower-up; 0x1002 is down, without carrier.
        #expect(feed(&machine) { $0.link(index: 2, name: "eth0", flags: 0x1002) }.isEmpty, "down: nothing to redo")
        #expect(feed(&machine) { $0.link(index: 2, name: "eth0", flags: 0x1002, mtu: 9000) }.isEmpty)
        let up = feed(&machine) { $0.link(index: 2, name: "eth0", flags: 0x1003) }
        guard case .request(.links, _)? = up.first else {
            Issue.record("coming up should dump again, got \(up)")
            return
        }
        #expect(completeDump(&machine, starting: up, link: "eth0"))
        #expect(feed(&machine) { $0.link(index: 2, name: "eth0", flags: 0x1003) }.isEmpty, "carrier lost")
        let carrier = feed(&machine) { $0.link(index: 2, name: "eth0", flags: 0x10043) }
        guard case .request(.links, _)? = carrier.first else {
            Issue.record("regaining carrier should dump again, got \(carrier)")
            return
        }
        #expect(feed(&machine) { $0.link(index: 3, name: "new0", flags: 0x10043) }.isEmpty, "a new link has no routes")
    }

    @Test func redoesADumpTheKernelMarkedInterrupted() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        let links = try #require(sequence(of: machine.synchronize()))
        let redo = feed(&machine) {
            $0.link(index: 2, name: "eth0", flags: 0x10043, sequence: links, messageFlags: 0x2 | 0x10)
            $0.done(sequence: links, flags: 0x2 | 0x10)
        }
        guard case .request(.links, let again)? = redo.first else {
            Issue.record("an interrupted dump must start over with links, got \(redo)")
            return
        }
        #expect(again != links && machine.isSynchronizing)
        #expect(completeDump(&machine, starting: redo, link: "eth1"))
        #expect(machine.publishablePath?.interfaces.map(\.name) == ["eth1"])
    }

    @Test func overflowDuringADumpRedoesItAndHoldsPublishing() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        #expect(completeDump(&machine, starting: machine.synchronize(), link: "eth0"))
        let links = try #require(sequence(of: machine.overflow()))
        #expect(machine.publishablePath == nil, "after ENOBUFS the live mirror may be stale")
        #expect(machine.overflow().isEmpty, "a second overflow waits for the running dump")
        let redo = feed(&machine) {
            $0.link(index: 2, name: "eth0", flags: 0x10043, sequence: links, messageFlags: 2)
            $0.done(sequence: links)
        }
        guard case .request(.links, _)? = redo.first else {
            Issue.record("the dump must start over, got \(redo)")
            return
        }
        #expect(completeDump(&machine, starting: redo, link: "eth7"))
        #expect(machine.publishablePath?.interfaces.map(\.name) == ["eth7"], "the old eth0 is gone after resync")
    }

    @Test func notificationsDuringADumpReachTheNewMirrorAndStaleRepliesAreIgnored() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        let links = try #require(sequence(of: machine.synchronize()))
        let stale = envelopes { $0.link(index: 9, name: "old", flags: 1, sequence: links &+ 100, messageFlags: 2) }
        #expect(stale.flatMap { machine.receive($0) }.isEmpty)
        // A change another process caused carries its own sequence and port: a notification, not a reply.
        var builder = NetlinkMessageBuilder()
        builder.link(index: 3, name: "new0", flags: 0x10043, sequence: 77)
        let notification = RouteMessageParser.parse(builder.bytes).envelopes.map { envelope in
            var other = envelope
            other.header.port = 999
            return other
        }
        #expect(notification.flatMap { machine.receive($0) }.isEmpty)
        let addresses = feed(&machine) { $0.done(sequence: links) }
        let addressSequence = try #require(sequence(of: addresses))
        let routes = feed(&machine) { $0.done(sequence: addressSequence) }
        let routeSequence = try #require(sequence(of: routes))
        #expect(feed(&machine) { $0.done(sequence: routeSequence) }.isEmpty)
        #expect(machine.publishablePath?.interfaces.map(\.name) == ["new0"])
    }

    @Test func repeatedKernelErrorsFailTheMonitor() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        var actions = machine.synchronize()
        for _ in 0..<Machine.failureLimit {
            let links = try #require(sequence(of: actions))
            actions = feed(&machine) { $0.error(sequence: links, errno: ENOMEM) }
            #expect(sequence(of: actions) != nil, "an error restarts the dump")
        }
        let links = try #require(sequence(of: actions))
        #expect(feed(&machine) { $0.error(sequence: links, errno: ENOMEM) } == [.fail(errno: ENOMEM)])
    }

    @Test func busyIsNoFailureTheWatchdogAsksAgain() throws {
        // EBUSY means an earlier dump (whose end was lost in an overflow) still runs on the socket.
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        let actions = machine.synchronize()
        let links = try #require(sequence(of: actions))
        for _ in 0...Machine.failureLimit {
            #expect(feed(&machine) { $0.error(sequence: links, errno: EBUSY) }.isEmpty)
        }
        #expect(machine.pendingSequence == links, "the request stays pending for its watchdog")
        let retry = machine.restart()
        #expect(try #require(sequence(of: retry)) != links)
        #expect(completeDump(&machine, starting: retry, link: "eth0"))
    }

    @Test func requestBytesAreADumpRequest() {
        let bytes = Machine.requestBytes(.addresses, sequence: 9)
        #expect(bytes.count == 24)
        let header = bytes.withUnsafeBytes { raw in
            (
                raw.loadUnaligned(as: UInt32.self), raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self),
                raw.loadUnaligned(fromByteOffset: 6, as: UInt16.self),
                raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            )
        }
        #expect(header.0 == 24 && header.1 == UInt16(RTM_GETADDR) && header.3 == 9)
        #expect(header.2 == UInt16(NLM_F_REQUEST | NLM_F_DUMP))
    }

    /// A refresh of the counters is a link dump of its own whose replies give counters only: a reply that says
    /// another MTU, another name or an unknown link changes nothing else, so the mirror stays what the notifications
    /// and full dumps made it.
    @Test func aCounterRefreshTakesOnlyTheCountersOfLinksTheMirrorKnows() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        #expect(completeDump(&machine, starting: machine.synchronize(), link: "eth0"))
        let refresh = machine.refreshCounters()
        guard case .request(.counters, let counterSequence)? = refresh.first else {
            Issue.record("expected a counter refresh, got \(refresh)")
            return
        }
        #expect(
            Machine.requestBytes(.counters, sequence: counterSequence)
                == Machine.requestBytes(.links, sequence: counterSequence))
        let stats = NetlinkMessageBuilder.statistics([10, 20, 1000, 2000, 0, 0, 0, 0])
        let replies = feed(&machine) {
            $0.link(
                index: 2, name: "eth0", flags: 0x1002, mtu: 9000, sequence: counterSequence, messageFlags: 2,
                attributes: stats)
            $0.link(
                index: 3, name: "new0", flags: 0x10043, sequence: counterSequence, messageFlags: 2, attributes: stats)
            $0.done(sequence: counterSequence)
        }
        #expect(replies.isEmpty && machine.pendingSequence == nil && machine.completedCounterRefreshes == 1)
        let path = try #require(machine.publishablePath)
        #expect(path.interfaces.map(\.name) == ["eth0"], "a refresh adds no link")
        let eth0 = try #require(path.interface(named: "eth0"))
        #expect(eth0.mtu == 1500 && eth0.isUp, "nor changes one")
        #expect(eth0.traffic?.receive.bytes == 1000 && eth0.traffic?.transmit.packets == 20)

        let renamed = try #require(sequence(of: machine.refreshCounters()))
        _ = feed(&machine) {
            $0.link(index: 2, name: "wan0", flags: 0x10043, sequence: renamed, messageFlags: 2, attributes: [])
            $0.done(sequence: renamed)
        }
        #expect(machine.publishablePath?.interface(named: "eth0")?.traffic?.receive.bytes == 1000)
    }

    @Test func aCounterRefreshWaitsForNoDumpAndADumpAskedMeanwhileFollowsIt() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        let dump = machine.synchronize()
        #expect(machine.refreshCounters().isEmpty, "a full dump brings the counters anyway")
        #expect(completeDump(&machine, starting: dump, link: "eth0"))
        let refresh = try #require(sequence(of: machine.refreshCounters()))
        #expect(machine.refreshCounters().isEmpty && machine.synchronize().isEmpty)
        let next = feed(&machine) { $0.done(sequence: refresh) }
        guard case .request(.links, _)? = next.first else {
            Issue.record("the dump asked for during the refresh did not start: \(next)")
            return
        }
        #expect(completeDump(&machine, starting: next, link: "eth0"))
    }

    @Test func aRefusedCounterRefreshIsNoFailedDump() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        #expect(completeDump(&machine, starting: machine.synchronize(), link: "eth0"))
        for _ in 0...Machine.failureLimit {
            let refresh = try #require(sequence(of: machine.refreshCounters()))
            #expect(feed(&machine) { $0.error(sequence: refresh, errno: EINVAL) }.isEmpty)
            #expect(machine.pendingSequence == nil)
        }
        #expect(machine.completedCounterRefreshes == 0 && machine.publishablePath != nil)
    }

    /// Dropped messages may have taken a refresh's end with them: it is given up at once for the full dump.
    @Test func droppedMessagesGiveUpACounterRefreshForAFullDump() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        #expect(completeDump(&machine, starting: machine.synchronize(), link: "eth0"))
        let refresh = try #require(sequence(of: machine.refreshCounters()))
        let dump = machine.overflow()
        guard case .request(.links, let links)? = dump.first else {
            Issue.record("no full dump after the overflow: \(dump)")
            return
        }
        #expect(links != refresh && machine.publishablePath == nil)
        #expect(completeDump(&machine, starting: dump, link: "eth0"))
        #expect(machine.publishablePath?.interfaces.map(\.name) == ["eth0"])
    }

    /// A refresh nobody answers (no watchdog timer watches it) holds the next ones back only so long, then one is
    /// sent again; a full dump asked for while it hung starts then instead.
    @Test func anUnansweredCounterRefreshIsGivenUpAfterSomeMore() throws {
        var machine = Machine(port: Self.port, sysfsRoot: nil)
        #expect(completeDump(&machine, starting: machine.synchronize(), link: "eth0"))
        let first = try #require(sequence(of: machine.refreshCounters()))
        for _ in 0..<Machine.counterRefreshPatience { #expect(machine.refreshCounters().isEmpty) }
        let second = try #require(sequence(of: machine.refreshCounters()))
        #expect(second != first && machine.pendingSequence == second)
        #expect(machine.synchronize().isEmpty)
        for _ in 0..<Machine.counterRefreshPatience { #expect(machine.refreshCounters().isEmpty) }
        let dump = machine.refreshCounters()
        guard case .request(.links, _)? = dump.first else {
            Issue.record("the full dump did not start: \(dump)")
            return
        }
        #expect(completeDump(&machine, starting: dump, link: "eth0"))
    }
}
