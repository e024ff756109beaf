import Foundation
import QSData

/// Groups on SQLite: `groups` (each group's space, ID, name and owner) and `groupMembers`.
extension SQLiteSyncStorage {
    public func createGroup(id: String, name: String, ownerID: Int64) throws -> StoredGroup {
        try connection.transaction {
            try connection.execute(
                "INSERT INTO accounts (username, passwordHash) VALUES (?, '')", [.text(StoredGroup.spaceUsername(id))])
            guard case .integer(let space) = try connection.fetchValue("SELECT last_insert_rowid()") else {
                throw SyncStorageError.unreadableRecord(table: "groups", id: id)
            }
            try connection.execute(
                "INSERT INTO groups (space, publicID, name, ownerID) VALUES (?, ?, ?, ?)",
                [.integer(space), .text(id), .text(name), .integer(ownerID)])
            try connection.execute("INSERT INTO groupMembers (space, accountID) VALUES (?, ?)", [.integer(space), .integer(ownerID)])
        }
        guard let group = try group(id: id) else { throw SyncStorageError.unreadableRecord(table: "groups", id: id) }
        return group
    }

    public func group(id: String) throws -> StoredGroup? {
        try readGroups("WHERE g.publicID = ?", [.text(id)]).first
    }

    public func groups(memberID accountID: Int64) throws -> [StoredGroup] {
        try readGroups("JOIN groupMembers AS m ON m.space = g.space WHERE m.accountID = ? ORDER BY g.publicID", [.integer(accountID)])
    }

    public func members(ofGroup space: Int64) throws -> [String] {
        try connection.fetchRows(
            "SELECT a.username FROM groupMembers AS m JOIN accounts AS a ON a.id = m.accountID WHERE m.space = ? ORDER BY a.username",
            [.integer(space)]
        ).compactMap { row -> String? in if case .text(let name) = row[0] { name } else { nil } }
    }

    public func isMember(_ accountID: Int64, ofGroup space: Int64) throws -> Bool {
        try connection.fetchValue("SELECT 1 FROM groupMembers WHERE space = ? AND accountID = ?", [.integer(space), .integer(accountID)]) != nil
    }

    public func addMember(_ accountID: Int64, toGroup space: Int64) throws {
        try connection.execute("INSERT OR IGNORE INTO groupMembers (space, accountID) VALUES (?, ?)", [.integer(space), .integer(accountID)])
    }

    public func removeMember(_ accountID: Int64, fromGroup space: Int64) throws {
        try connection.transaction {
            try connection.execute("DELETE FROM groupMembers WHERE space = ? AND accountID = ?", [.integer(space), .integer(accountID)])
            // A replica pulls its own account's objects before any group's: its place there names it.
            try connection.execute(
                "DELETE FROM replicas WHERE accountID = ? AND replica IN (SELECT replica FROM replicas WHERE accountID = ?)",
                [.integer(space), .integer(accountID)])
        }
    }

    private func readGroups(_ condition: String, _ arguments: [SQLValue]) throws -> [StoredGroup] {
        let rows = try connection.fetchRows(
            "SELECT g.space, g.publicID, g.name, g.ownerID, o.username FROM groups AS g JOIN accounts AS o ON o.id = g.ownerID " + condition,
            arguments)
        return rows.compactMap { row in
            guard case .integer(let space) = row[0], case .text(let id) = row[1], case .text(let name) = row[2],
                  case .integer(let ownerID) = row[3], case .text(let owner) = row[4]
            else { return nil }
            return StoredGroup(space: space, id: id, name: name, ownerID: ownerID, owner: owner)
        }
    }
}
