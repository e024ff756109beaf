import RSSCommands

// The command lives in RSSCommands, so that tests run the same command in-process.
await RSSCommand.runAsProcess()
