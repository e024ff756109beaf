/// The open connection and the registered types: what work on the database queue needs to read
/// rows and make instances of any type (a relationship reaches its child type through the registry).
struct ConnectionAndTypes {
    let connection: SQLiteConnection
    let registry: TypeRegistry
}
