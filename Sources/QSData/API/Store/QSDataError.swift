/// Everything QSData itself can report as wrong. SQLite's own failures arrive as ``SQLiteError``.
///
/// Each case names what failed, and `description` reads as one clear line.
public enum QSDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data model file is malformed: names the file, the object type and the key.
    case invalidModel(file: String, type: String?, key: String?, problem: String)
    /// The model and the database schema disagree; one line per mismatch.
    case schemaMismatch([String])
    /// A Swift type does not match its model description; one line per problem.
    case typeMismatch(type: String, problems: [String])
    /// A migration file name or number is wrong.
    case invalidMigration(file: String, problem: String)
    /// The database file can't be opened or created.
    case cannotOpenDatabase(path: String, reason: String)
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// The file is an SQLite database, but not one this schema made: it lacks a table or column
    /// the schema has at the file's version. Nothing was changed. Apps say what the file is not
    /// ("… is not a Vesper notes database").
    case foreignDatabase(path: String)
    /// The SQLite library is older than the store needs (its change log relies on TEMP triggers
    /// firing while the file's are switched off, which SQLite does from 3.35.0).
    case sqliteTooOld(version: String, needed: String)
    /// The database was written by a newer version of the app: its schema version is higher
    /// than the last migration this app knows. Nothing was written to it.
    case databaseTooNew(path: String, databaseVersion: Int, appVersion: Int)
    /// A file or folder the store needs (the data model, the creation SQL, a migration) can't be read.
    case unreadableFile(path: String, reason: String)
    /// A type was used that was not registered with the store.
    case unregisteredType(String)
    /// A row lacks a column the type asked for.
    case missingColumn(type: String, column: String)
    /// A column holds NULL where the type needs a value.
    case unexpectedNull(type: String, column: String)
    /// A column's value can't become the Swift type asked for (reading).
    case valueConversion(type: String, column: String, expected: String, found: String)
    /// A Swift value can't be stored in a column of the model's type (writing).
    case cannotWrite(type: String, column: String, expected: String, found: String)
    /// A bulk update names a column the type's table does not have in the model.
    case unknownColumn(type: String, column: String)
    /// A relationship was asked for that the model does not declare.
    case unknownRelationship(type: String, relationship: String)
    /// A relationship loaded lazily (child IDs only) was read as an array of children.
    case relationshipNotLoaded(type: String, relationship: String)
    /// A fetch loading `relationship` of `type` eagerly had followed eager relationships `levels`
    /// deep and still found children to load: the objects reach one another in a cycle (a step
    /// that lists a step listing it), or form a chain deeper than a fetch loads at once. The
    /// fetch returns nothing. Load the relationship lazily (``QSLoading/lazy``, in the data model or the
    /// fetch's `loading`), read it as ``QSRelated``, and fetch its children with
    /// ``QSStore/fetchChildren(_:)``.
    case eagerLoadingTooDeep(type: String, relationship: String, levels: Int)
    /// A search was asked of a type whose data model declares no `search` index.
    case notSearchable(type: String)
    /// A delete was refused: the object of `type` still lists children in `relationship`,
    /// whose delete rule is `deny`. Nothing was deleted.
    case deleteDenied(type: String, relationship: String)
    /// A new object of `type` can't be inserted: its table's `column` is NOT NULL without a
    /// default, and the type has no property for it. Save it through a type that has one first.
    case missingRequiredColumn(type: String, column: String)
    /// The store was closed.
    case storeClosed
    /// A read that would have run on a reader connection found every one busy for `waited`
    /// (``QSStoreOptions/readerWaitLimit``): the reads ahead of it took that long. Nothing was read.
    case readersBusy(waited: Duration)

    public var description: String {
        switch self {
        case .invalidModel(let file, let type, let key, let problem):
            let place = [file, type, key.map { "key '\($0)'" }].compactMap { $0 }.joined(separator: ": ")
            return "Invalid data model: \(place): \(problem)"
        case .schemaMismatch(let problems):
            return "The data model does not match the database schema:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .typeMismatch(let type, let problems):
            return "Type \(type) does not match its data model:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .invalidMigration(let file, let problem):
            return "Invalid migration \(file): \(problem)"
        case .cannotOpenDatabase(let path, let reason):
            return "Cannot open the database at \(path): \(reason)"
        case .notADatabase(let path):
            return "The file at \(path) is not an SQLite database"
        case .sqliteTooOld(let version, let needed):
            return "SQLite \(version) is too old: QSData needs \(needed) or later"
        case .foreignDatabase(let path):
            return "The file at \(path) is an SQLite database, but not this app's: it lacks tables the app's schema makes (nothing was changed)"
        case .databaseTooNew(let path, let databaseVersion, let appVersion):
            return "The database at \(path) has schema version \(databaseVersion), newer than this app's latest, \(appVersion): "
                + "it was written by a newer version of the app (nothing was changed)"
        case .unreadableFile(let path, let reason):
            return "Cannot read \(path): \(reason)"
        case .unregisteredType(let type):
            return "Type \(type) is not registered with the store"
        case .missingColumn(let type, let column):
            return "\(type): the row has no column '\(column)'"
        case .unexpectedNull(let type, let column):
            return "\(type): column '\(column)' is NULL but the property is not optional"
        case .valueConversion(let type, let column, let expected, let found):
            return "\(type): column '\(column)' holds \(found), which can't be read as \(expected)"
        case .cannotWrite(let type, let column, let expected, let found):
            return "\(type): can't write \(found) to column '\(column)', which the model declares as \(expected)"
        case .unknownColumn(let type, let column):
            return "\(type): the model has no property '\(column)'"
        case .unknownRelationship(let type, let relationship):
            return "\(type): the model has no relationship '\(relationship)'"
        case .relationshipNotLoaded(let type, let relationship):
            return "\(type): relationship '\(relationship)' was loaded lazily (child IDs only): read it as QSRelated, or fetch it eagerly"
        case .eagerLoadingTooDeep(let type, let relationship, let levels):
            return "\(type): relationship '\(relationship)', loaded eagerly, still had children to load \(levels) levels deep: "
                + "its objects reach one another in a cycle, or form a chain too deep to load at once (the fetch returns nothing). "
                + "Load it lazily ('loading' 'lazy' in the data model, or the fetch's loading), read it as QSRelated, and fetch the children with fetchChildren"
        case .notSearchable(let type):
            return "\(type): the data model declares no full-text search for this type (add a 'search' dictionary)"
        case .deleteDenied(let type, let relationship):
            return "\(type): can't delete an object that still lists children in '\(relationship)' (its delete rule is deny); nothing was deleted"
        case .missingRequiredColumn(let type, let column):
            return "\(type): can't insert a new row: column '\(column)' is NOT NULL without a default and \(type) has no property for it"
        case .storeClosed:
            return "The store is closed"
        case .readersBusy(let waited):
            return "Every reader connection stayed busy for \(waited): the read was given up (raise QSStoreOptions.readerCount or readerWaitLimit)"
        }
    }
}
