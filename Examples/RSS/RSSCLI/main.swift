import Foundation
import RSSCommands

// Everything lives in RSSCommands, so that tests run the same commands in-process.
let status = await RSSCommand.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
