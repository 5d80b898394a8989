import Testing

@testable import VigilSensors

/// The mount point holding a path, from mountinfo text: the deepest mount of the path's device above it.
@Suite(.timeLimit(.minutes(5))) struct MountTableTests {
    /// Lines of this CI machine's `/proc/self/mountinfo`, with a bind mount, a name with a space (the kernel's
    /// `\040`) and a second file system of the root's device added.
    static let mountinfo = """
        22 27 0:21 / /proc rw,relatime - proc proc rw
        27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard
        24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12358824k,mode=755
        25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24731408k
        30 27 254:0 /srv/data /mnt/data rw,relatime - ext4 /dev/vda rw
        31 27 0:40 / /mnt/my\\040disk rw,relatime - ext4 /dev/vdb rw
        malformed
        """

    /// A tmpfs mounted on Latin-1 `/mnt/café`: the kernel writes the byte E9 as it is, unescaped.
    static let latin1Line: [UInt8] = Array("32 27 0:41 / /mnt/caf".utf8) + [0xE9] + Array(" rw - tmpfs none rw\n".utf8)

    @Test(arguments: [
        ("/tmp", "254:0", "/"), ("/", "254:0", "/"), ("/dev/shm/x", "0:23", "/dev/shm"), ("/dev/null", "0:6", "/dev"),
        ("/mnt/data/file", "254:0", "/mnt/data"), ("/mnt/database", "254:0", "/"),
        ("/mnt/my disk/a", "0:40", "/mnt/my disk"), ("/proc/self", "0:99", nil),
    ])
    func findsTheDeepestMountOfTheDevice(path: String, device: String, mountPoint: String?) {
        let found = MountTable.mountPoint(
            holding: BytePath(path), device: device, mountinfo: Array(Self.mountinfo.utf8))
        #expect(found == mountPoint.map { BytePath($0) })
    }

    @Test func aMountPointThatIsNotUTF8KeepsItsBytes() {
        let mountinfo = Array(Self.mountinfo.utf8) + [UInt8(ascii: "\n")] + Self.latin1Line
        let cafe = BytePath(bytes: Array("/mnt/caf".utf8) + [0xE9])
        let found = MountTable.mountPoint(holding: cafe.appending("a"), device: "0:41", mountinfo: mountinfo)
        #expect(found?.bytes == cafe.bytes)
        // The look-alike path with U+FFFD is another path, on no mount of that device.
        #expect(MountTable.mountPoint(holding: BytePath(cafe.lossyString), device: "0:41", mountinfo: mountinfo) == nil)
        #expect(MountTable.unescaped(ArraySlice(#"caf\351"#.utf8)) == cafe.parentAndName.name)
    }

    @Test(arguments: [
        ("a\\040b", "a b"), ("tab\\011", "tab\t"), ("back\\134slash", "back\\slash"), ("\\04", "\\04"),
        ("no\\999", "no\\999"), ("end\\", "end\\"),
    ])
    func unescapesTheKernelsOctalEscapes(field: String, text: String) {
        #expect(MountTable.unescaped(ArraySlice(field.utf8)) == BytePath(text))
    }
}
