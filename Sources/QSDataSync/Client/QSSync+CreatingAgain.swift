import QSData

extension QSSync {
    /// Makes the next save of each of these objects a creation, though this replica knows the
    /// object was deleted: for an app whose uniqueIDs come from content (a feed's address), to
    /// make such an object again. Call it just before the save that inserts the objects.
    ///
    /// A delete wins over every edit, so a row inserted for an object this replica knows was
    /// deleted is otherwise no creation: the store inserts one when the app saves an instance it
    /// held from before the deletion arrived, or a parent that still lists it. Sync sends nothing
    /// of such a row and removes it at the next ``sync()`` (observers hear of it as a change from
    /// sync), and the object stays deleted everywhere. A creation made after this call is stamped
    /// after the deletion and brings the object back everywhere, with the values it was saved with.
    ///
    /// ```swift
    /// try await sync.allowCreatingAgain([.string(feed.uniqueID)], in: "feeds")
    /// try await store.save(feed).committed()
    /// ```
    ///
    /// - Parameters:
    ///   - ids: the uniqueIDs; an ID that is not of a deleted object is allowed too, for a
    ///     deletion that arrives before the save.
    ///   - table: the table their type is stored in; a table that doesn't sync is ignored.
    public func allowCreatingAgain(_ ids: [SyncID], in table: String) async throws {
        guard applier.schema.tables[table] != nil else { return }
        let values = ids.map(\.sqlValue)
        try await Self.syncTransaction("sync: allow creating deleted objects again", on: store) { connection in
            try ReinsertedRows.allowCreation(of: values, table: table, on: connection)
        }
    }
}
