import QSData

/// Groups: objects shared between accounts. A type whose model names a `syncGroup` property
/// puts each object in the group that property names (NULL: the account's own); the server
/// syncs a group's objects with every member's devices and no one else's.
///
/// ```swift
/// let family = try await sync.createGroup(named: "Family")
/// try await sync.addMember("bob", to: family.id)
/// try await store.write { db in
///     try db.execute("INSERT INTO lists (uniqueID, name, team) VALUES (?, ?, ?)", [.integer(1), .text("Groceries"), .text(family.id)])
/// }.committed()
/// ```
extension QSSync {
    /// Makes a group owned by this account, and syncs it from now on.
    public func createGroup(named name: String) async throws -> SyncGroup {
        let group = try await transport.createGroup(named: name)
        try await Self.syncTransaction("sync: a group made", on: store) { connection in
            try GroupSpaces.add(group.id, on: connection)
        }
        return group
    }

    /// The groups the account belongs to, as the server lists them.
    public func groups() async throws -> [SyncGroup] {
        try await transport.groups()
    }

    /// Adds the account `username` to the group (the owner's call). Its devices pull the
    /// group's objects at their next sync.
    @discardableResult
    public func addMember(_ username: String, to group: String) async throws -> SyncGroup {
        try await transport.addMember(username, to: group)
    }

    /// Takes the account `username` out of the group (the owner's call, or a member's about
    /// itself). Its devices remove the group's objects at their next sync, this one included.
    @discardableResult
    public func removeMember(_ username: String, from group: String) async throws -> SyncGroup {
        try await transport.removeMember(username, from: group)
    }

    /// Reads the account's groups from the server, removes here the objects of every group it
    /// no longer belongs to, and returns the groups to sync, in order.
    func followMembership(into report: inout QSSyncReport) async throws -> [String] {
        let listed = Set(try await transport.groups().map(\.id))
        let schema = applier.schema, capture = self.capture
        report.objectsRemovedWithGroups += try await Self.syncTransaction("sync: follow group membership", on: store) { connection in
            try capture.capture(on: connection)
            let known = Set(try GroupSpaces.syncedGroups(on: connection).map(\.group)).union(try GroupSpaces.groupsHeld(on: connection))
            var removed = 0
            for group in known.subtracting(listed).sorted() { removed += try GroupSpaces.remove(group, schema: schema, on: connection) }
            for group in listed { try GroupSpaces.add(group, on: connection) }
            try capture.skipToEnd(on: connection)
            return removed
        }
        return listed.sorted()
    }

    /// Removes here the objects of a group the server says the account is not a member of.
    func leave(_ group: String, into report: inout QSSyncReport) async throws {
        let schema = applier.schema, capture = self.capture
        report.objectsRemovedWithGroups += try await Self.syncTransaction("sync: leave a group", on: store) { connection in
            try capture.capture(on: connection)
            let removed = try GroupSpaces.remove(group, schema: schema, on: connection)
            try capture.skipToEnd(on: connection)
            return removed
        }
    }
}
