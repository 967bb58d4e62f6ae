-- Ridgeline Outfitters support back office: schema of the helpdesk snapshot.
--
-- Conventions
--   * Money is always INTEGER cents; such columns end in `_cents`.
--   * Timestamps are TEXT, ISO 8601 UTC, `YYYY-MM-DDTHH:MM:SSZ`; dates of birth are `YYYY-MM-DD`.
--   * Flags are INTEGER 0/1.
--   * The store's "now" is meta.snapshot_time = 2026-06-15T09:00:00Z. Everything in the snapshot
--     happened strictly before it; every row written during an episode has a timestamp after it
--     (the episode clock starts there and moves 30 s per tool call).
--   * Ids are INTEGER PRIMARY KEYs; new rows get the next id (deterministic). Id ranges make
--     kinds easy to tell apart: customers 1001.., product_variants 201.., orders 100001..,
--     order_items 300001.., payments 700001.., shipments 800001.., refunds 900001..,
--     returns 40001.., exchanges 60001.., tickets 5001.. (AUTOINCREMENT tables).
--   * Rows written by agent tools carry actor 'agent' in audit_log; historical rows carry
--     'system' or 'agent:<name>' (a human agent of the past).

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE customers (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    email         TEXT NOT NULL UNIQUE,
    phone         TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,             -- YYYY-MM-DD (never returned by find_customers)
    zip           TEXT NOT NULL,             -- billing ZIP on file, used for identity checks
    created_at    TEXT NOT NULL
);
CREATE INDEX customers_name ON customers(last_name, first_name);

CREATE TABLE addresses (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    label       TEXT NOT NULL,               -- home | work | other
    name        TEXT NOT NULL,               -- recipient
    line1       TEXT NOT NULL,
    line2       TEXT,
    city        TEXT NOT NULL,
    state       TEXT NOT NULL,               -- two-letter US state code
    zip         TEXT NOT NULL,
    country     TEXT NOT NULL DEFAULT 'US',
    is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at  TEXT NOT NULL
);
CREATE INDEX addresses_customer ON addresses(customer_id);

CREATE TABLE products (
    id          INTEGER PRIMARY KEY,
    sku         TEXT NOT NULL UNIQUE,        -- e.g. RO-TEN-0003
    name        TEXT NOT NULL,
    category    TEXT NOT NULL,               -- tents | sleeping-bags | backpacks | footwear |
                                             -- jackets | apparel | climbing | camp-kitchen | accessories
    description TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    final_sale  INTEGER NOT NULL DEFAULT 0 CHECK (final_sale IN (0, 1)),
    active      INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1))
);

CREATE TABLE product_variants (
    id          INTEGER PRIMARY KEY,
    product_id  INTEGER NOT NULL REFERENCES products(id),
    sku         TEXT NOT NULL UNIQUE,        -- product sku + size/colour suffix
    size        TEXT NOT NULL,               -- 'One Size' when the product has no sizes
    colour      TEXT NOT NULL,
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    stock       INTEGER NOT NULL CHECK (stock >= 0)
);
CREATE INDEX product_variants_product ON product_variants(product_id);

CREATE TABLE orders (
    id                       INTEGER PRIMARY KEY AUTOINCREMENT,   -- order number, 100001..
    customer_id              INTEGER NOT NULL REFERENCES customers(id),
    status                   TEXT NOT NULL CHECK (status IN
                               ('pending', 'paid', 'shipped', 'delivered', 'cancelled', 'returned')),
    placed_at                TEXT NOT NULL,
    shipping_name            TEXT NOT NULL,
    shipping_line1           TEXT NOT NULL,
    shipping_line2           TEXT,
    shipping_city            TEXT NOT NULL,
    shipping_state           TEXT NOT NULL,
    shipping_zip             TEXT NOT NULL,
    shipping_country         TEXT NOT NULL DEFAULT 'US',
    subtotal_cents           INTEGER NOT NULL,      -- sum(quantity * unit_price_cents)
    shipping_cents           INTEGER NOT NULL,
    tax_cents                INTEGER NOT NULL,
    total_cents              INTEGER NOT NULL,      -- subtotal + shipping + tax
    shipped_at               TEXT,
    delivered_at             TEXT,
    cancelled_at             TEXT,
    replacement_for_order_id INTEGER REFERENCES orders(id), -- set on no-charge exchange/replacement orders
    updated_at               TEXT NOT NULL
);
CREATE INDEX orders_customer ON orders(customer_id);
CREATE INDEX orders_status ON orders(status);

CREATE TABLE order_items (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id         INTEGER NOT NULL REFERENCES orders(id),
    variant_id       INTEGER NOT NULL REFERENCES product_variants(id),
    quantity         INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents >= 0),
    status           TEXT NOT NULL DEFAULT 'ok' CHECK (status IN
                       ('ok', 'cancelled', 'return_requested', 'returned', 'refunded',
                        'exchanged', 'replaced'))
);
CREATE INDEX order_items_order ON order_items(order_id);

-- Payments. status: authorized (pending orders, not captured yet), captured, partially_refunded,
-- refunded, voided (authorisation released). refunded_cents = sum of original-payment refunds.
-- A duplicate charge is a second captured card payment of the same amount on the same order.
CREATE TABLE payments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id       INTEGER NOT NULL REFERENCES orders(id),
    method         TEXT NOT NULL CHECK (method IN ('card', 'store_credit')),
    card_brand     TEXT,                     -- Visa | Mastercard | Amex | Discover (cards only)
    card_last4     TEXT,                     -- cards only
    amount_cents   INTEGER NOT NULL CHECK (amount_cents > 0),
    refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
    status         TEXT NOT NULL CHECK (status IN
                     ('authorized', 'captured', 'partially_refunded', 'refunded', 'voided')),
    created_at     TEXT NOT NULL
);
CREATE INDEX payments_order ON payments(order_id);

CREATE TABLE shipments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id        INTEGER NOT NULL REFERENCES orders(id),
    carrier         TEXT NOT NULL CHECK (carrier IN ('UPS', 'FedEx', 'USPS', 'DHL')),
    service         TEXT NOT NULL,           -- e.g. Ground, Priority Mail, Express
    tracking_number TEXT NOT NULL UNIQUE,
    status          TEXT NOT NULL CHECK (status IN
                      ('label_created', 'in_transit', 'out_for_delivery', 'delivered',
                       'exception', 'returned_to_sender')),
    shipped_at      TEXT,
    estimated_delivery TEXT,                 -- YYYY-MM-DD
    delivered_at    TEXT
);
CREATE INDEX shipments_order ON shipments(order_id);

CREATE TABLE tickets (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,     -- 5001..
    customer_id     INTEGER NOT NULL REFERENCES customers(id),
    order_id        INTEGER REFERENCES orders(id),
    subject         TEXT NOT NULL,
    channel         TEXT NOT NULL CHECK (channel IN ('email', 'chat', 'phone', 'web')),
    status          TEXT NOT NULL CHECK (status IN ('open', 'pending', 'escalated', 'closed')),
    priority        TEXT NOT NULL CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
    resolution_code TEXT CHECK (resolution_code IN
                      ('refunded', 'replaced', 'exchanged', 'return_started',
                       'store_credit_issued', 'cancelled', 'address_updated', 'account_updated',
                       'information_provided', 'request_declined', 'no_action')),
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    closed_at       TEXT
);
CREATE INDEX tickets_customer ON tickets(customer_id);
CREATE INDEX tickets_status ON tickets(status);

CREATE TABLE ticket_messages (
    id         INTEGER PRIMARY KEY,
    ticket_id  INTEGER NOT NULL REFERENCES tickets(id),
    author     TEXT NOT NULL CHECK (author IN ('customer', 'agent', 'note')), -- note = internal
    body       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX ticket_messages_ticket ON ticket_messages(ticket_id);

-- method original_payment: payment_id is the payment refunded (card, or a store-credit payment,
-- which is credited back to the ledger). method store_credit: payment_id is NULL and a
-- store_credit_ledger row with refund_id = this id exists.
CREATE TABLE refunds (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id      INTEGER NOT NULL REFERENCES orders(id),
    payment_id    INTEGER REFERENCES payments(id),
    order_item_id INTEGER REFERENCES order_items(id),
    amount_cents  INTEGER NOT NULL CHECK (amount_cents > 0),
    method        TEXT NOT NULL CHECK (method IN ('original_payment', 'store_credit')),
    reason        TEXT NOT NULL,
    created_at    TEXT NOT NULL
);
CREATE INDEX refunds_order ON refunds(order_id);

-- Signed: positive = credit granted, negative = credit spent on an order. Balance = SUM(amount_cents).
CREATE TABLE store_credit_ledger (
    id           INTEGER PRIMARY KEY,
    customer_id  INTEGER NOT NULL REFERENCES customers(id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents <> 0),
    reason       TEXT NOT NULL,
    order_id     INTEGER REFERENCES orders(id),
    refund_id    INTEGER REFERENCES refunds(id),
    created_at   TEXT NOT NULL
);
CREATE INDEX store_credit_ledger_customer ON store_credit_ledger(customer_id);

CREATE TABLE returns (
    id                     INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id               INTEGER NOT NULL REFERENCES orders(id),
    order_item_id          INTEGER NOT NULL REFERENCES order_items(id),
    quantity               INTEGER NOT NULL CHECK (quantity > 0),
    status                 TEXT NOT NULL CHECK (status IN ('requested', 'received', 'rejected')),
    reason                 TEXT NOT NULL,
    return_carrier         TEXT NOT NULL,   -- prepaid return label
    return_tracking_number TEXT NOT NULL UNIQUE,
    created_at             TEXT NOT NULL,
    received_at            TEXT
);
CREATE INDEX returns_order ON returns(order_id);

-- Exchanges (other size/colour of the same product) and replacements (same variant, for damaged
-- or defective items). Both ship a no-charge replacement order (orders.replacement_for_order_id).
CREATE TABLE exchanges (
    id                   INTEGER PRIMARY KEY AUTOINCREMENT,
    kind                 TEXT NOT NULL CHECK (kind IN ('exchange', 'replacement')),
    order_id             INTEGER NOT NULL REFERENCES orders(id),
    order_item_id        INTEGER NOT NULL REFERENCES order_items(id),
    old_variant_id       INTEGER NOT NULL REFERENCES product_variants(id),
    new_variant_id       INTEGER NOT NULL REFERENCES product_variants(id),
    replacement_order_id INTEGER NOT NULL REFERENCES orders(id),
    reason               TEXT NOT NULL,
    created_at           TEXT NOT NULL
);

CREATE TABLE escalations (
    id         INTEGER PRIMARY KEY,
    ticket_id  INTEGER NOT NULL REFERENCES tickets(id),
    team       TEXT NOT NULL CHECK (team IN ('billing', 'returns', 'fraud', 'management')),
    reason     TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
    created_at TEXT NOT NULL
);

-- Successful identity checks made in the current conversation. Empty in the snapshot: a
-- verification is only valid for the conversation (episode) that made it. Failed attempts are
-- not in the database at all: verify_identity refuses them with a tool error, and the runtime
-- rolls back every write of a failed call. They are only in the framework's tool-call log of the
-- episode (status 'tool_error').
CREATE TABLE identity_verifications (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    method      TEXT NOT NULL CHECK (method IN ('email_zip', 'email_dob')),
    verified_at TEXT NOT NULL
);

-- Every mutating tool writes one row per action. detail is JSON with sorted keys.
CREATE TABLE audit_log (
    id        INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    actor     TEXT NOT NULL,                 -- 'agent' (tools), 'system', 'agent:<name>' (history)
    action    TEXT NOT NULL,                 -- e.g. 'refund.create', 'order.cancel'
    entity    TEXT NOT NULL,                 -- table-ish name: order, refund, ticket, ...
    entity_id INTEGER NOT NULL,
    detail    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_entity ON audit_log(entity, entity_id);
