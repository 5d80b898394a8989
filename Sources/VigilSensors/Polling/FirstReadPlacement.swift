/// Where the first read of a run happens.
package enum FirstReadPlacement: Sendable {
    /// On the starting thread, before start returns: the reading is there when it does.
    case atOnce
    /// On the event-loop thread, right after start returns: start never waits for a read that may block (a
    /// `statvfs` of a dead network mount); the reading stays `pending` until then.
    case onLoop
}
