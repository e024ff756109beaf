import VesperCommands

// The command lives in VesperCommands, so that tests run the same command in-process.
await Vesper.runAsProcess()
