/// The pending deadlines of an event loop's timers: a binary min-heap ordered by deadline, then by token (so timers
/// due at the same instant fire in the order they were registered), with an index by token so that cancelling a
/// timer removes its deadline in O(log n) instead of leaving it to expire.
///
/// Deadlines are offsets from the loop's clock origin. A value type with no lock: the loop keeps it in its state.
struct DeadlineHeap {
    struct Element: Equatable {
        var deadline: Duration
        var token: UInt64

        /// Whether `self` fires before `other`.
        func precedes(_ other: Element) -> Bool {
            (deadline, token) < (other.deadline, other.token)
        }
    }

    private var elements: [Element] = []
    /// Where each token's element is in `elements`.
    private var positions: [UInt64: Int] = [:]

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }

    /// The earliest deadline, if any.
    var earliest: Element? { elements.first }

    /// Sets `token`'s deadline, adding it or moving it if it is already in the heap.
    mutating func insert(_ token: UInt64, deadline: Duration) {
        if let position = positions[token] {
            elements[position].deadline = deadline
            restore(from: position)
            return
        }
        elements.append(Element(deadline: deadline, token: token))
        positions[token] = elements.count - 1
        siftUp(elements.count - 1)
    }

    /// Removes `token`'s deadline; does nothing when it has none.
    mutating func remove(_ token: UInt64) {
        guard let position = positions.removeValue(forKey: token) else { return }
        let last = elements.removeLast()
        guard position < elements.count else { return }
        elements[position] = last
        positions[last.token] = position
        restore(from: position)
    }

    /// Removes and returns the earliest element if it is due at `now`.
    mutating func popDue(at now: Duration) -> Element? {
        guard let first = elements.first, first.deadline <= now else { return nil }
        remove(first.token)
        return first
    }

    /// Moves the element at `position` up or down until the heap order holds again.
    private mutating func restore(from position: Int) {
        if position > 0, elements[position].precedes(elements[(position - 1) / 2]) {
            siftUp(position)
        } else {
            siftDown(position)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child].precedes(elements[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < elements.count, elements[left].precedes(elements[first]) { first = left }
            if right < elements.count, elements[right].precedes(elements[first]) { first = right }
            guard first != parent else { return }
            swapAt(parent, first)
            parent = first
        }
    }

    private mutating func swapAt(_ lhs: Int, _ rhs: Int) {
        elements.swapAt(lhs, rhs)
        positions[elements[lhs].token] = lhs
        positions[elements[rhs].token] = rhs
    }
}
