import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 12 is the last release that runs on Node 20, but on Node 24.19 and later its
 * statements abort the process (`Assertion failed: (env) != nullptr`) when they are garbage
 * collected, a change in Node's ObjectWrap that release 13 (Node-API) no longer uses. Release 13
 * needs Node 22, so both are installed (13 under the alias `better-sqlite3-13`) and each Node
 * loads the one that runs on it. Their APIs are the same.
 */
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
const require = createRequire(import.meta.url);

/**
 * The package this Node loads. Two copies of SQLite in one process do not see each other's file
 * locks, so anything else in the process that opens the same file must load this one too.
 */
export const SQLITE_DRIVER_MODULE = NODE_MAJOR >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

export const SqliteDatabase: typeof BetterSqlite3 = require(SQLITE_DRIVER_MODULE);
export type SqliteDatabase = BetterSqlite3.Database;
