import Glibc

// Every measured loop lives in a function: top-level variables here are globals, whose slower access would distort
// the figures.
let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
await runSuite(options)
