import VesperServerCommand

// The command lives in VesperServerCommand, so that tests run the same command in-process.
await VesperServerCommand.runAsProcess()
