#ifndef CSQLITECONFIG_SHIM_H
#define CSQLITECONFIG_SHIM_H
// The connection options of sqlite3_db_config, which Swift cannot call: it is variadic.
#include <sqlite3.h>

/// Leaves the WAL as it is when the connection, the last to its databases, closes, rather than
/// checkpointing it. Returns an SQLite result code.
static inline int csqlite_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
