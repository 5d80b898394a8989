/// A generic netlink family as the kernel's controller (`nlctrl`) describes it: its id, version and multicast groups.
///
/// Ids of families and groups are given out when a family registers (a module loads), so they differ between
/// machines and boots: they are always looked up by name, never written down.
package struct GenericNetlinkFamily: Hashable, Sendable {
    /// The family's name, for example `nl80211` or `ethtool`.
    package var name: String
    /// The id requests and replies carry as their netlink message type.
    package var id: UInt16
    /// The family's interface version (`CTRL_ATTR_VERSION`).
    package var version: UInt32
    /// The multicast groups, by name, with the number to join.
    package var groups: [String: UInt32]

    /// Creates a family record.
    package init(name: String, id: UInt16, version: UInt32, groups: [String: UInt32]) {
        self.name = name
        self.id = id
        self.version = version
        self.groups = groups
    }

    /// The controller's own family id (`GENL_ID_CTRL`), the only fixed one.
    package static let controllerID: UInt16 = 0x10

    // Controller commands and attributes (linux/genetlink.h).
    static let newFamilyCommand: UInt8 = 1
    static let getFamilyCommand: UInt8 = 3
    static let familyIDAttribute: UInt16 = 1
    static let familyNameAttribute: UInt16 = 2
    static let versionAttribute: UInt16 = 3
    static let groupsAttribute: UInt16 = 7
    static let groupNameAttribute: UInt16 = 1
    static let groupIDAttribute: UInt16 = 2

    /// Decodes a `CTRL_CMD_NEWFAMILY` message; `nil` when it is another command, lacks the id or name, or an
    /// attribute lies about its length. A malformed group is left out, not the family.
    package init?(_ message: GenericNetlinkMessage) {
        guard message.header.type == Self.controllerID, message.command == Self.newFamilyCommand else { return nil }
        let decoded = message.withAttributes { attributes -> GenericNetlinkFamily? in
            guard let id = attributes.integer(Self.familyIDAttribute, as: UInt16.self),
                let name = attributes.string(Self.familyNameAttribute)
            else { return nil }
            var groups: [String: UInt32] = [:]
            for entry in attributes.nestedList(Self.groupsAttribute) {
                guard let group = entry.string(Self.groupNameAttribute),
                    let number = entry.uint32(Self.groupIDAttribute)
                else { continue }
                groups[group] = number
            }
            return GenericNetlinkFamily(
                name: name, id: id, version: attributes.uint32(Self.versionAttribute) ?? 0, groups: groups)
        }
        guard let decoded else { return nil }
        self = decoded
    }
}
