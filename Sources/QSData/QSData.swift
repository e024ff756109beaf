import CSQLite
/// Placeholder until the framework lands.
public enum QSDataVersion { public static var sqlite: String { String(cString: sqlite3_libversion()) } }
