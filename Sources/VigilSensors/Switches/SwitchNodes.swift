import Glibc
import Vigil

/// The evdev nodes a running ``SwitchMonitor`` holds open, where their switches stand, and the devices that could
/// not be opened.
///
/// Only the loop thread reads an open node (its registration's handler) or asks it for its state again; a node is
/// closed only after its registration is cancelled, which waits for a running handler, so no call ever meets a closed
/// descriptor. Decisions are taken under the lock and every system call runs after it.
final class SwitchNodes: Sendable {
    private struct OpenNode {
        let candidate: SwitchCandidate
        let descriptor: FileDescriptor
        let registration: EventLoop.Registration
        let clock: EvdevClock?
        var stream = EvdevStream()
        var states: [SwitchState]
    }

    private enum Slot {
        case open(OpenNode)
        /// Not readable: the device as the reading shows it (with its problem), and whether permission is why.
        case failed(SwitchDevice, permission: Bool)

        var device: SwitchDevice {
            switch self {
            case .open(let node):
                return SwitchDevice(
                    node: node.candidate.node, name: node.candidate.name, path: node.candidate.path,
                    supported: node.candidate.supported, states: node.states)
            case .failed(let device, _): return device
            }
        }

        var openNode: OpenNode? {
            if case .open(let node) = self { return node }
            return nil
        }

        /// This slot, with the change time of each switch that stands as it did in `old`, the same device's slot
        /// before it was opened again.
        func keepingChangeTimes(of old: Slot?) -> Slot {
            guard case .open(var node) = self, case .open(let before)? = old, before.candidate == node.candidate else {
                return self
            }
            node.states = node.states.map { state in
                before.states.first { $0.kind == state.kind && $0.isOn == state.isOn } ?? state
            }
            return .open(node)
        }

        /// Whether the device was refused for want of permission.
        var isRefused: Bool {
            if case .failed(_, let permission) = self { return permission }
            return false
        }
    }

    private struct State {
        var generation: UInt64?
        var order: [String] = []
        var slots: [String: Slot] = [:]
        var problems: [String] = []
    }

    /// Where a node's read ended.
    private enum ReadOutcome {
        case nothing
        case actions([EvdevStream.Action], FileDescriptor, EvdevClock?)
        case gone(String)
    }

    private let root: String
    private let devRoot: String
    private let access: EvdevAccess
    private let eventLoop: EventLoop
    private let state = FutexMutex(State())
    /// Publishes the current states after a node changed them; set once by the monitor.
    let onChange = SharedValue<(@Sendable () -> Void)?>(nil)

    init(root: String, devRoot: String, access: EvdevAccess, eventLoop: EventLoop) {
        self.root = root
        self.devRoot = devRoot
        self.access = access
        self.eventLoop = eventLoop
    }

    deinit { end() }

    /// Begins `generation`'s run: rescans open nodes for it from now on.
    func begin(_ generation: UInt64) {
        state.withLock { $0.generation = generation }
    }

    /// Ends the run: cancels every registration, then closes every node.
    func end() {
        let closing = state.withLock { state -> [OpenNode] in
            state.generation = nil
            defer {
                state.slots = [:]
                state.order = []
                state.problems = []
            }
            return state.slots.values.compactMap(\.openNode)
        }
        for node in closing { Self.close(node) }
    }

    // MARK: - Scanning

    /// Lists the devices with switches, opens the new ones and those that failed before, closes those gone, and
    /// returns where every switch stands.
    ///
    /// - Parameter reopening: Whether to open every device again, also those open now, and read its switches afresh
    ///   with `EVIOCGSW` (after a wake). A fresh node replaces the old, which is closed after it; a switch that stands
    ///   as before keeps the time it changed.
    /// - Throws: A ``SensorError`` when `<root>/class/input` cannot be listed, when every device is refused for
    ///   want of permission (naming the group to join), or when the run is over.
    func rescan(reopening: Bool = false) throws(SensorError) -> SwitchStates {
        guard let generation = state.withLock({ $0.generation }) else {
            throw .unavailable(source: "Switches", reason: "the monitor is stopped")
        }
        let scan = try SwitchCandidate.scan(root: root, devRoot: devRoot)
        let keep = reopening ? [] : stillOpen(scan.devices)
        var opened: [String: Slot] = [:]
        for candidate in scan.devices where !keep.contains(candidate.node) {
            opened[candidate.node] = open(candidate)
        }
        let (installed, closing) = state.withLock { state -> (Bool, [OpenNode]) in
            guard state.generation == generation else {
                return (false, opened.values.compactMap(\.openNode))
            }
            var closing: [OpenNode] = []
            var slots: [String: Slot] = [:]
            for candidate in scan.devices {
                if keep.contains(candidate.node), let slot = state.slots[candidate.node] {
                    slots[candidate.node] = slot
                } else if let slot = opened[candidate.node] {
                    slots[candidate.node] = slot.keepingChangeTimes(of: state.slots[candidate.node])
                }
            }
            for (name, slot) in state.slots where !keep.contains(name) {
                if let node = slot.openNode { closing.append(node) }
            }
            state.slots = slots
            state.order = scan.devices.map(\.node)
            state.problems = scan.problems
            return (true, closing)
        }
        for node in closing { Self.close(node) }
        guard installed else { throw .unavailable(source: "Switches", reason: "the monitor is stopped") }
        return try snapshot()
    }

    /// The nodes of `devices` open now for the same device, which a rescan keeps as they are.
    private func stillOpen(_ devices: [SwitchCandidate]) -> Set<String> {
        state.withLock { state in
            Set(
                devices.compactMap { candidate -> String? in
                    guard case .open(let node) = state.slots[candidate.node], node.candidate == candidate else {
                        return nil
                    }
                    return candidate.node
                })
        }
    }

    /// Opens `candidate`'s node, reads its switches and watches it; a failure is the device with its problem.
    private func open(_ candidate: SwitchCandidate) -> Slot {
        let failed = { (problem: String, permission: Bool) -> Slot in
            .failed(
                SwitchDevice(
                    node: candidate.node, name: candidate.name, path: candidate.path, supported: candidate.supported,
                    problem: problem), permission: permission)
        }
        let descriptor: FileDescriptor
        do {
            descriptor = try access.open(candidate.path)
        } catch .permissionDenied(let path) {
            return failed("\(path): \(Evdev.permissionAdvice(for: path))", true)
        } catch {
            return failed("\(error)", false)
        }
        let clock = access.setClock(descriptor)
        let set: [Int]
        do {
            set = try access.readSwitches(descriptor)
        } catch {
            descriptor.close()
            return failed("\(SensorError.from(error, call: "ioctl(EVIOCGSW)", path: candidate.path))", false)
        }
        let node = candidate.node
        let registration: EventLoop.Registration
        do {
            registration = try eventLoop.register(fileDescriptor: descriptor.rawValue, interest: .readable) {
                [weak self] _ in self?.readable(node, descriptor: descriptor)
            }
        } catch {
            descriptor.close()
            return failed("\(error)", false)
        }
        let states = candidate.supported.map { SwitchState(kind: $0, isOn: set.contains($0.code)) }
        return .open(
            OpenNode(
                candidate: candidate, descriptor: descriptor, registration: registration, clock: clock, states: states))
    }

    private static func close(_ node: OpenNode) {
        node.registration.cancel()
        node.descriptor.close()
    }

    /// Where every switch stands now.
    ///
    /// - Throws: ``SensorError/unavailable(source:reason:)`` when there are devices and every one is refused for want
    ///   of permission: the reason names the group to join.
    func snapshot() throws(SensorError) -> SwitchStates {
        let (devices, problems, refused) = state.withLock { state in
            let slots = state.order.compactMap { state.slots[$0] }
            let refused = !slots.isEmpty && slots.allSatisfy(\.isRefused)
            return (slots.map(\.device), state.problems, refused)
        }
        if refused, let first = devices.first {
            throw .unavailable(source: "Switches", reason: "\(first.name) (\(first.node)): \(first.problem ?? "")")
        }
        return SwitchStates(devices: devices, problems: problems)
    }

    // MARK: - Events

    /// Reads what `node` holds (on the loop thread) and applies it frame by frame, publishing after each.
    private func readable(_ node: String, descriptor: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: InputEvent.size * 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
        let errno = count < 0 ? Errno.current : nil
        let outcome = state.withLock { state -> ReadOutcome in
            guard case .open(var current) = state.slots[node], current.descriptor === descriptor else {
                return .nothing
            }
            if let errno {
                if errno == .wouldBlock || errno == .interrupted { return .nothing }
                return .gone("\(SensorError.from(errno, call: "read", path: current.candidate.path))")
            }
            if count == 0 { return .gone("\(current.candidate.path): the device went away (end of file)") }
            let actions = current.stream.consume(buffer[0..<count])
            state.slots[node] = .open(current)
            return .actions(actions, descriptor, current.clock)
        }
        switch outcome {
        case .nothing:
            return
        case .gone(let reason):
            remove(node, descriptor: descriptor, reason: reason)
        case .actions(let actions, let descriptor, let clock):
            for action in actions {
                switch action {
                case .changes(let events):
                    let changes = events.map { ($0, EvdevClock.time(of: $0.timestamp, on: clock)) }
                    apply(node, descriptor: descriptor) { states in
                        for (event, time) in changes {
                            let kind = SwitchKind(code: Int(event.code))
                            guard let index = states.firstIndex(where: { $0.kind == kind }) else { continue }
                            states[index] = SwitchState(kind: kind, isOn: event.value != 0, changed: time)
                        }
                    }
                case .resynchronize:
                    guard resynchronize(node, descriptor: descriptor) else { return }
                }
                onChange.value?()
            }
        }
    }

    /// Reads every switch of `node` again after lost events; false when the device is gone (then reported).
    private func resynchronize(_ node: String, descriptor: FileDescriptor) -> Bool {
        let set: [Int]
        do {
            set = try access.readSwitches(descriptor)
        } catch {
            let path = state.withLock { state in state.slots[node]?.openNode?.candidate.path ?? node }
            let reason = SensorError.from(error, call: "ioctl(EVIOCGSW)", path: path)
            remove(node, descriptor: descriptor, reason: "\(reason)")
            return false
        }
        apply(node, descriptor: descriptor) { states in
            for (index, old) in states.enumerated() {
                let isOn = set.contains(old.kind.code)
                if isOn != old.isOn { states[index] = SwitchState(kind: old.kind, isOn: isOn) }
            }
        }
        return true
    }

    /// Changes the states of `node` when `descriptor` is still its open node.
    private func apply(_ node: String, descriptor: FileDescriptor, _ change: (inout [SwitchState]) -> Void) {
        state.withLock { state in
            guard case .open(var current) = state.slots[node], current.descriptor === descriptor else { return }
            change(&current.states)
            state.slots[node] = .open(current)
        }
    }

    /// Reports `node` as gone with `reason`, then cancels its registration and closes it.
    private func remove(_ node: String, descriptor: FileDescriptor, reason: String) {
        let removed = state.withLock { state -> OpenNode? in
            guard case .open(let current) = state.slots[node], current.descriptor === descriptor else { return nil }
            let candidate = current.candidate
            state.slots[node] = .failed(
                SwitchDevice(
                    node: candidate.node, name: candidate.name, path: candidate.path, supported: candidate.supported,
                    problem: reason), permission: false)
            return current
        }
        guard let removed else { return }
        Self.close(removed)
        onChange.value?()
    }
}
