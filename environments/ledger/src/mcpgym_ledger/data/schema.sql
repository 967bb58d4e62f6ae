-- The books of Harbor & Pine Wholesale: a double-entry ledger. Money is integer cents.
-- Dates are 'YYYY-MM-DD'; timestamps 'YYYY-MM-DDTHH:MM:SSZ'. Rows written by tools get
-- ids max(id) + 1 (INTEGER PRIMARY KEY without AUTOINCREMENT).

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('asset', 'liability', 'equity', 'revenue', 'expense')),
    description TEXT NOT NULL DEFAULT ''
);

CREATE TABLE tax_rates (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    rate_bp INTEGER NOT NULL,          -- basis points: 1000 = 10.00 %
    sales_account_id INTEGER REFERENCES accounts(id),     -- output tax (invoices)
    purchase_account_id INTEGER REFERENCES accounts(id)   -- input tax (bills)
);

CREATE TABLE periods (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,         -- '2026-05'
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    closed_at TEXT,
    closed_by TEXT
);

CREATE TABLE parties (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('customer', 'vendor')),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    terms_days INTEGER NOT NULL,
    default_account_id INTEGER REFERENCES accounts(id),   -- vendors: usual expense account
    default_tax_code TEXT NOT NULL,
    tax_id TEXT NOT NULL                                    -- kept private (policy 8)
);

CREATE TABLE journal_entries (
    id INTEGER PRIMARY KEY,
    entry_date TEXT NOT NULL,
    period_id INTEGER NOT NULL REFERENCES periods(id),
    memo TEXT NOT NULL,
    source TEXT NOT NULL,              -- invoice, bill, payment, credit_note, manual, reversal, write_off, bank
    source_id INTEGER,
    reverses_entry_id INTEGER REFERENCES journal_entries(id),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    edited_at TEXT                     -- set when a posted entry's lines were edited in place
);

CREATE TABLE journal_lines (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES journal_entries(id),
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    debit_cents INTEGER NOT NULL DEFAULT 0 CHECK (debit_cents >= 0),
    credit_cents INTEGER NOT NULL DEFAULT 0 CHECK (credit_cents >= 0),
    party_id INTEGER REFERENCES parties(id),
    memo TEXT NOT NULL DEFAULT ''
);
CREATE INDEX journal_lines_entry ON journal_lines (entry_id);
CREATE INDEX journal_lines_account ON journal_lines (account_id);

CREATE TABLE invoices (
    id INTEGER PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,       -- 'INV-2026-0001'
    customer_id INTEGER NOT NULL REFERENCES parties(id),
    issue_date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'posted', 'part_paid', 'paid', 'void', 'written_off')),
    net_cents INTEGER NOT NULL,
    tax_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    paid_cents INTEGER NOT NULL DEFAULT 0,
    credited_cents INTEGER NOT NULL DEFAULT 0,
    written_off_cents INTEGER NOT NULL DEFAULT 0,
    journal_entry_id INTEGER REFERENCES journal_entries(id),
    memo TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

CREATE TABLE invoice_lines (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    description TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    quantity INTEGER NOT NULL,
    unit_cents INTEGER NOT NULL,
    net_cents INTEGER NOT NULL,
    tax_code TEXT NOT NULL,
    tax_cents INTEGER NOT NULL
);

CREATE TABLE bills (
    id INTEGER PRIMARY KEY,
    vendor_id INTEGER NOT NULL REFERENCES parties(id),
    vendor_ref TEXT NOT NULL,          -- the vendor's own invoice number
    bill_date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'posted', 'part_paid', 'paid', 'void')),
    net_cents INTEGER NOT NULL,
    tax_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    paid_cents INTEGER NOT NULL DEFAULT 0,
    journal_entry_id INTEGER REFERENCES journal_entries(id),
    memo TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

CREATE TABLE bill_lines (
    id INTEGER PRIMARY KEY,
    bill_id INTEGER NOT NULL REFERENCES bills(id),
    description TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    net_cents INTEGER NOT NULL,
    tax_code TEXT NOT NULL,
    tax_cents INTEGER NOT NULL
);

CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    direction TEXT NOT NULL CHECK (direction IN ('received', 'paid')),
    party_id INTEGER NOT NULL REFERENCES parties(id),
    payment_date TEXT NOT NULL,
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    unapplied_cents INTEGER NOT NULL DEFAULT 0,   -- received: held as customer credit
    reference TEXT NOT NULL DEFAULT '',
    journal_entry_id INTEGER REFERENCES journal_entries(id),
    created_at TEXT NOT NULL
);

CREATE TABLE payment_allocations (
    id INTEGER PRIMARY KEY,
    payment_id INTEGER NOT NULL REFERENCES payments(id),
    invoice_id INTEGER REFERENCES invoices(id),
    bill_id INTEGER REFERENCES bills(id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0)
);

CREATE TABLE credit_notes (
    id INTEGER PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,       -- 'CN-2026-0001'
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    customer_id INTEGER NOT NULL REFERENCES parties(id),
    issue_date TEXT NOT NULL,
    net_cents INTEGER NOT NULL,
    tax_cents INTEGER NOT NULL,
    total_cents INTEGER NOT NULL,
    reason TEXT NOT NULL,
    journal_entry_id INTEGER REFERENCES journal_entries(id),
    created_at TEXT NOT NULL
);

CREATE TABLE bank_accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    number_last4 TEXT NOT NULL
);

CREATE TABLE bank_lines (
    id INTEGER PRIMARY KEY,
    bank_account_id INTEGER NOT NULL REFERENCES bank_accounts(id),
    line_date TEXT NOT NULL,
    description TEXT NOT NULL,
    amount_cents INTEGER NOT NULL,     -- money in > 0, money out < 0
    reference TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('unmatched', 'matched', 'ignored')),
    payment_id INTEGER REFERENCES payments(id),
    journal_entry_id INTEGER REFERENCES journal_entries(id),
    note TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

CREATE TABLE escalations (
    id INTEGER PRIMARY KEY,
    entity TEXT NOT NULL,              -- invoice, bill, journal_entry, bank_line
    entity_id INTEGER NOT NULL,
    to_role TEXT NOT NULL,             -- controller
    reason TEXT NOT NULL,
    amount_cents INTEGER,
    created_at TEXT NOT NULL
);

CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    entity TEXT NOT NULL,
    entity_id INTEGER NOT NULL,
    body TEXT NOT NULL,
    author TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id INTEGER NOT NULL,
    detail TEXT NOT NULL DEFAULT '{}'
);
