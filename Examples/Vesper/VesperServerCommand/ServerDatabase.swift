import CommandLineTool

/// `vesper-server`'s `--database`: the shared option, with the default file
/// `vesper-server/vesper-server.sqlite` in the data folder, or a PostgreSQL URL.
enum ServerDatabase: ToolDatabase {
    static let name = "vesper-server"
    static let note = """
        Or a postgres://user:password@host:port/database URL, for any number of instances on one \
        database. Without --database, the DATABASE_URL setting comes before the default.
        """
}
