import QSData

extension QSSync {
    /// The server's token for the next pull of `space` (a group's ID, or nil for the account's
    /// own objects), as the file keeps it.
    func storedToken(_ space: String?) async throws -> String? {
        try await store.read { connection in try PullTokens.token(of: space, on: connection) }
    }

    /// Pulls everything new of `space`, page by page, merging each page in its own transaction.
    func pull(_ space: String?, into report: inout QSSyncReport) async throws {
        var token = try await storedToken(space)
        while true {
            let response: SyncPullResponse
            do {
                response = try await transport.pull(since: token, limit: pullLimit, replica: replicaID, group: space)
            } catch QSSyncError.server(status: 400, code: "invalidToken", _) where token != nil {
                // A token the server no longer knows (its database was replaced): everything is
                // pulled again, which merges to nothing where nothing changed.
                token = nil
                continue
            } catch QSSyncError.server(status: 410, code: "resyncRequired", _) {
                return try await resync(space, into: &report)
            }
            try await merge(response, space: space, into: &report)
            token = response.token
            guard response.more else { return }
        }
    }

    /// Pulls everything the server holds (a pull without a token includes this replica's own
    /// writes, and says which of its pushes arrived), then removes what
    /// the server no longer holds and this replica did not just make: the server collected it
    /// (deleted on another device while this one was away), and an object or list child that
    /// comes back here would come back everywhere. What waits to be pushed stays.
    ///
    /// The new token is kept only with the removal, in its transaction. A resync cut off before
    /// it (a page that fails, the app stopped) leaves the old token, which the server refuses
    /// again, so the next sync starts the resync over rather than skipping the removal.
    func resync(_ space: String?, into report: inout QSSyncReport) async throws {
        report.resyncs += 1
        var inventory = PulledInventory()
        var token: String?
        while true {
            let response = try await transport.pull(since: token, limit: pullLimit, replica: replicaID, group: space)
            inventory.note(response.changes)
            try await merge(response, space: space, keepingToken: false, into: &report)
            token = response.token
            guard response.more else { break }
        }
        let capture = self.capture, cleanup = ResyncCleanup(schema: applier.schema), pulled = inventory, finalToken = token
        report.objectsRemovedByResync += try await Self.syncTransaction("sync: remove what the server collected", on: store) { connection in
            try capture.capture(on: connection)
            let removed = try cleanup.run(keeping: pulled, space: space, on: connection)
            try capture.skipToEnd(on: connection)
            if let finalToken { try PullTokens.keep(finalToken, of: space, on: connection) }
            return removed
        }
    }

    /// Merges one pulled page of `space` and, unless told not to (a resync's page), keeps its
    /// token, in one transaction.
    private func merge(_ response: SyncPullResponse, space: String?, keepingToken: Bool = true, into report: inout QSSyncReport) async throws {
        report.pullRequests += 1
        report.pulledObjects += response.changes.reduce(0) { $0 + $1.ids.count }
        let capture = self.capture, applier = self.applier, outbox = self.outbox
        let outcome = try await Self.syncTransaction("sync: merge pulled changes", on: store) { connection in
            // Local edits not yet queued (another process's) are stamped before the merge.
            try capture.capture(on: connection)
            // Pushes the server took whose answers were lost are done with.
            if let last = response.lastPush { try outbox.acknowledge(through: last, space: space, on: connection) }
            let outcome = try applier.apply(response.changes, space: space, on: connection)
            try capture.skipToEnd(on: connection)
            if keepingToken { try PullTokens.keep(response.token, of: space, on: connection) }
            try SyncStateTables.set(.clock, to: .text(capture.clock.reading.text), on: connection)
            return outcome
        }
        report.appliedObjects += outcome.applied
        report.incompleteObjects += outcome.incomplete
        report.unknownTables.formUnion(outcome.unknownTables)
    }
}
