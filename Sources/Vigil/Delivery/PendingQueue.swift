/// A first-in first-out queue that reuses its storage: appends at the back, pops at the front in O(1).
///
/// A popped value is released at once (its slot is cleared), and the storage in front of the head is reclaimed once
/// it outgrows what is still queued, so a queue that never empties holds only what it still holds.
@usableFromInline
struct PendingQueue<Element> {
    @usableFromInline var items: ContiguousArray<Element?> = []
    @usableFromInline var head = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { head == items.count }

    @inlinable
    var count: Int { items.count - head }

    /// The oldest item, left in place.
    @inlinable
    var first: Element? { isEmpty ? nil : items[head] }

    @inlinable
    mutating func append(_ item: Element) {
        items.append(item)
    }

    @inlinable
    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }

    /// How many queued items satisfy `predicate`.
    @inlinable
    func count(where predicate: (Element) -> Bool) -> Int {
        var count = 0
        for index in head..<items.count where predicate(items[index]!) { count += 1 }
        return count
    }

    /// Drops the oldest item, if any.
    @inlinable
    mutating func dropFirst() {
        _ = popFirst()
    }

    /// Removes every item, keeping the storage.
    @inlinable
    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        head = 0
    }

    /// Moves every item into `batch` (whose old contents are discarded), keeping both storages for reuse.
    @inlinable
    mutating func moveAll(into batch: inout ContiguousArray<Element?>) {
        batch.removeAll(keepingCapacity: true)
        if head == 0 {
            swap(&items, &batch)
        } else {
            batch.append(contentsOf: items[head...])
            items.removeAll(keepingCapacity: true)
        }
        head = 0
    }
}

extension PendingQueue: Sendable where Element: Sendable {}
