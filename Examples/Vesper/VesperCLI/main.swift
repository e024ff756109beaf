import Foundation
import VesperCommands

// Everything happens in VesperRunner, which the tests drive in-process too.
let result = await VesperRunner.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.output.utf8))
FileHandle.standardError.write(Data(result.errorOutput.utf8))
exit(result.exitCode)
