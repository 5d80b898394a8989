"""Fails when a public symbol of a documented module has no doc comment.

Usage: doc-coverage.py SYMBOL_GRAPH_DIR MODULE...

Reads MODULE.symbols.json and MODULE@*.symbols.json (extensions of other modules' types) as SwiftPM's
`dump-symbol-graph --skip-synthesized-members` writes them. A member that implements a protocol requirement
(`description`, `encode(to:)`, …) carries the protocol's doc comment in the graph, as DocC shows it, so it counts as
documented.
"""

import glob
import json
import os
import sys

INHERITED_DOCS = {"requirementOf", "defaultImplementationOf", "overrides"}


def undocumented(path):
    graph = json.load(open(path))
    kinds_by_source = {}
    for relation in graph.get("relationships", []):
        kinds_by_source.setdefault(relation["source"], set()).add(relation["kind"])
    for symbol in graph["symbols"]:
        # An extension block of another module's type (`extension Sequence where …`) is a grouping, not an API.
        if symbol["kind"]["identifier"] == "swift.extension":
            continue
        if symbol.get("docComment", {}).get("lines"):
            continue
        if kinds_by_source.get(symbol["identifier"]["precise"], set()) & INHERITED_DOCS:
            continue
        yield symbol["kind"]["displayName"], ".".join(symbol["pathComponents"])


def main():
    directory, modules = sys.argv[1], sys.argv[2:]
    missing = []
    for module in modules:
        paths = [os.path.join(directory, module + ".symbols.json")]
        paths += glob.glob(os.path.join(directory, module + "@*.symbols.json"))
        for path in paths:
            if not os.path.exists(path):
                sys.exit(f"doc coverage: no symbol graph for {module} at {path}")
            missing += [(module, kind, name) for kind, name in undocumented(path)]
    for module, kind, name in missing:
        print(f"undocumented public {kind}: {module}.{name}")
    if missing:
        sys.exit(f"doc coverage: {len(missing)} public symbols without a doc comment")
    print(f"doc coverage: every public symbol of {', '.join(modules)} is documented")


main()
