import Foundation
import PostgresNIO

/// Groups on PostgreSQL: `sync_groups` (each group's space, ID, name and owner) and
/// `sync_group_members`.
extension PostgresSyncStorage {
    public func createGroup(id: String, name: String, ownerID: Int64) async throws -> StoredGroup {
        let username = StoredGroup.spaceUsername(id)
        // One statement: the space, the group and its first member are made together or not at all.
        try await client.query(
                """
                WITH space AS (INSERT INTO sync_accounts (username, password_hash) VALUES (\(username), '') RETURNING id),
                made AS (INSERT INTO sync_groups (space, public_id, name, owner_id) SELECT id, \(id), \(name), \(ownerID) FROM space RETURNING space)
                INSERT INTO sync_group_members (space, account_id) SELECT space, \(ownerID) FROM made
                """, logger: logger)
        guard let group = try await group(id: id) else { throw SyncStorageError.unreadableRecord(table: "sync_groups", id: id) }
        return group
    }

    public func group(id: String) async throws -> StoredGroup? {
        try await readGroups(
            """
            SELECT g.space, g.public_id, g.name, g.owner_id, o.username FROM sync_groups AS g
            JOIN sync_accounts AS o ON o.id = g.owner_id WHERE g.public_id = \(id)
            """).first
    }

    public func groups(memberID accountID: Int64) async throws -> [StoredGroup] {
        try await readGroups(
            """
            SELECT g.space, g.public_id, g.name, g.owner_id, o.username FROM sync_groups AS g
            JOIN sync_accounts AS o ON o.id = g.owner_id JOIN sync_group_members AS m ON m.space = g.space
            WHERE m.account_id = \(accountID) ORDER BY g.public_id
            """)
    }

    public func members(ofGroup space: Int64) async throws -> [String] {
        var names: [String] = []
        for try await name in try await client.query(
            """
            SELECT a.username FROM sync_group_members AS m JOIN sync_accounts AS a ON a.id = m.account_id
            WHERE m.space = \(space) ORDER BY a.username
            """, logger: logger).decode(String.self) {
            names.append(name)
        }
        return names
    }

    public func isMember(_ accountID: Int64, ofGroup space: Int64) async throws -> Bool {
        for try await _ in try await client.query(
            "SELECT 1 FROM sync_group_members WHERE space = \(space) AND account_id = \(accountID)", logger: logger).decode(Int.self) {
            return true
        }
        return false
    }

    public func addMember(_ accountID: Int64, toGroup space: Int64) async throws {
        try await client.query(
            "INSERT INTO sync_group_members (space, account_id) VALUES (\(space), \(accountID)) ON CONFLICT DO NOTHING", logger: logger)
    }

    public func removeMember(_ accountID: Int64, fromGroup space: Int64) async throws {
        try await transaction { connection in
            try await connection.query(
                "DELETE FROM sync_group_members WHERE space = \(space) AND account_id = \(accountID)", logger: logger)
            // A replica pulls its own account's objects before any group's: its place there names it.
            try await connection.query(
                """
                DELETE FROM sync_replicas WHERE account_id = \(space)
                AND replica IN (SELECT replica FROM sync_replicas WHERE account_id = \(accountID))
                """, logger: logger)
        }
    }

    private func readGroups(_ query: PostgresQuery) async throws -> [StoredGroup] {
        var groups: [StoredGroup] = []
        for try await (space, id, name, ownerID, owner) in try await client.query(query, logger: logger)
            .decode((Int64, String, String, Int64, String).self) {
            groups.append(StoredGroup(space: space, id: id, name: name, ownerID: ownerID, owner: owner))
        }
        return groups
    }
}
