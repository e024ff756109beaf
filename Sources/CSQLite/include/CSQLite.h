// The one place SQLite enters QSData: the system's sqlite3.h (Debian: libsqlite3-dev).
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return (sqlite3_destructor_type)-1; }

// sqlite3_db_config is variadic, which Swift cannot call: whether triggers stored in the
// database file fire on this connection (TEMP triggers always do, from SQLite 3.35.0).
static inline int csqlite_enable_file_triggers(sqlite3 *db, int enabled) {
    int result = 0;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled, &result);
}
