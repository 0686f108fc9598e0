// The store's write operations, shared by the database (db.ts) and its undo log (undo.ts).

export type Bytes = Uint8Array;

export type BatchOp = { type: 'put'; key: Bytes; value: Bytes } | { type: 'del'; key: Bytes };
