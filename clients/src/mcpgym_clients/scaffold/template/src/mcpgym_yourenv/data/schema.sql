-- The yourenv snapshot schema: a stockroom's items and the log of stock changes.
-- data/build_snapshot.py runs this, inserts seed_rows.json and writes snapshot.db.

CREATE TABLE items (
    id INTEGER PRIMARY KEY,
    sku TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    location TEXT NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity >= 0)
);

CREATE TABLE stock_moves (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL REFERENCES items (id),
    old_quantity INTEGER NOT NULL,
    new_quantity INTEGER NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);

CREATE INDEX stock_moves_item ON stock_moves (item_id);
