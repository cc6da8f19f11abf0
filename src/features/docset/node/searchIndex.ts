/**
 * The docset's search index, `docSet.dsidx`: the SQLite database Dash and Zeal read, written
 * with sql.js (SQLite compiled to WebAssembly; no native build, no install script).
 *
 * One table, as Dash documents it: `searchIndex(id, name, type, path)`, `path` relative to
 * `Contents/Resources/Documents/`, with its anchor (`controllers.html#route-parameters`).
 */
import initSqlJs from 'sql.js';

/** The entry types the docset uses (Dash's names). */
export type EntryType =
  | 'Guide'
  | 'Section'
  | 'Decorator'
  | 'Class'
  | 'Interface'
  | 'Function'
  | 'Enum';

export interface IndexEntry {
  readonly name: string;
  readonly type: EntryType;
  /** `controllers.html` or `controllers.html#route-parameters`. */
  readonly path: string;
}

/** The SQLite file of `entries` (duplicates of name, type and path are kept once). */
export async function searchIndexFile(entries: readonly IndexEntry[]): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    db.run('CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);');
    db.run('CREATE UNIQUE INDEX anchor ON searchIndex (name, type, path);');
    const insert = db.prepare(
      'INSERT OR IGNORE INTO searchIndex(name, type, path) VALUES (?, ?, ?)',
    );
    db.run('BEGIN');
    for (const entry of entries) insert.run([entry.name, entry.type, entry.path]);
    db.run('COMMIT');
    insert.free();
    return db.export();
  } finally {
    db.close();
  }
}
