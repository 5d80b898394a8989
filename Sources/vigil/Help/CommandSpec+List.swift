extension CommandSpec {
    /// `vigil list`.
    static let list = CommandSpec(
        name: "list", summary: "list every source and whether this machine has it", usage: ["list [--json]"],
        description:
            "Lists every source Vigil knows, with its availability on this machine and, if it is unavailable, why.",
        options: [
            Option(long: "--json", help: "print one JSON object a source: id, name, argument, available, reason")
        ],
        examples: [("list", "show the sources"), ("list --json | jq -r 'select(.available) | .id'", "available ids")])
}
