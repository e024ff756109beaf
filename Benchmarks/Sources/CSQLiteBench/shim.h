// The system's sqlite3.h, for the benchmark's hand-written raw sqlite3 implementations.
#include <sqlite3.h>

// SQLITE_TRANSIENT / SQLITE_STATIC are macros casting integers to function pointers,
// which Swift cannot import.
static inline sqlite3_destructor_type csqlitebench_transient(void) { return (sqlite3_destructor_type)-1; }
static inline sqlite3_destructor_type csqlitebench_static(void) { return (sqlite3_destructor_type)0; }
