//! The schema both SQL backends share, as steps applied in order (`latch_schema` counts them).

/// Schema steps, applied once each in order; append, never edit. Written in
/// PostgreSQL's types, which SQLite accepts too (it maps type names to its own
/// affinities), so both backends share one schema; a step whose DDL differs
/// (generated keys, table options) spells out each dialect.
pub(super) const MIGRATIONS: &[Step] = &[
    Step::both(
        "CREATE TABLE projects (
        id TEXT PRIMARY KEY NOT NULL,
        allowed_origins TEXT NOT NULL,
        created_at BIGINT NOT NULL
    )",
    ),
    Step::both("ALTER TABLE projects ADD COLUMN analytics_enabled BOOLEAN NOT NULL DEFAULT TRUE"),
    Step::both(
        "CREATE TABLE analytics_events (
        project_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        event TEXT NOT NULL,
        kind TEXT NOT NULL,
        address TEXT,
        domain TEXT NOT NULL,
        url TEXT NOT NULL,
        occurred_at BIGINT NOT NULL,
        received_at BIGINT NOT NULL,
        properties TEXT,
        PRIMARY KEY (project_id, event_id)
    )",
    ),
    Step::both("CREATE INDEX analytics_events_by_time ON analytics_events (project_id, occurred_at)"),
    Step::both(
        "CREATE TABLE wallets (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        position BIGINT NOT NULL,
        data TEXT NOT NULL
    )",
    ),
    // BYTEA: PostgreSQL's binary type; SQLite stores the bound blob as is.
    Step::both(
        "CREATE TABLE images (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        content_type TEXT NOT NULL,
        data BYTEA NOT NULL,
        etag TEXT NOT NULL,
        PRIMARY KEY (kind, id)
    )",
    ),
    Step::both(
        "CREATE TABLE names (
        name TEXT PRIMARY KEY NOT NULL,
        attributes TEXT NOT NULL,
        registered_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
    )",
    ),
    // address_key: the address lower-cased, for reverse lookups whatever the checksum case.
    Step::both(
        "CREATE TABLE name_addresses (
        name TEXT NOT NULL REFERENCES names (name),
        coin_type BIGINT NOT NULL,
        address TEXT NOT NULL,
        address_key TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (name, coin_type)
    )",
    ),
    Step::both("CREATE INDEX name_addresses_by_address ON name_addresses (address_key)"),
    Step::both(
        "CREATE TABLE indexed_blocks (
        chain TEXT NOT NULL,
        number BIGINT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (chain, number)
    )",
    ),
    Step::both(
        "CREATE TABLE transfers (
        chain TEXT NOT NULL,
        block_number BIGINT NOT NULL,
        tx_index BIGINT NOT NULL,
        log_index BIGINT NOT NULL,
        tx_hash TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT,
        token_id TEXT,
        sender TEXT NOT NULL,
        recipient TEXT NOT NULL,
        amount TEXT NOT NULL,
        mined_at BIGINT NOT NULL,
        success BOOLEAN NOT NULL,
        nonce BIGINT NOT NULL,
        tx_from TEXT NOT NULL,
        tx_to TEXT,
        PRIMARY KEY (chain, block_number, tx_index, log_index)
    )",
    ),
    Step::both("CREATE INDEX transfers_by_sender ON transfers (sender, block_number)"),
    Step::both("CREATE INDEX transfers_by_recipient ON transfers (recipient, block_number)"),
    // The relay mailbox (crate::relay): a message per (topic, sha256 of it), and who acked it.
    Step::both(
        "CREATE TABLE relay_messages (
        topic TEXT NOT NULL,
        hash TEXT NOT NULL,
        message TEXT NOT NULL,
        tag BIGINT NOT NULL,
        publisher TEXT NOT NULL,
        published_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (topic, hash)
    )",
    ),
    Step::both("CREATE INDEX relay_messages_by_expiry ON relay_messages (expires_at)"),
    Step::both(
        "CREATE TABLE relay_acks (
        topic TEXT NOT NULL,
        hash TEXT NOT NULL,
        client_id TEXT NOT NULL,
        PRIMARY KEY (topic, hash, client_id)
    )",
    ),
    // Sign in with X (crate::siwx).
    Step::both(
        "CREATE TABLE siwx_nonces (
        nonce TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        domain TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        used INTEGER NOT NULL
    )",
    ),
    Step::both(
        "CREATE TABLE siwx_sessions (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        account TEXT NOT NULL,
        chain_id TEXT NOT NULL,
        domain TEXT NOT NULL,
        message TEXT NOT NULL,
        signature TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        revoked_at BIGINT
    )",
    ),
    Step::both("CREATE INDEX siwx_sessions_by_account ON siwx_sessions (project_id, account)"),
    // History pages read an address's newest transactions straight off these, in order, without
    // collecting and sorting all of them (the first indexes lacked tx_index and chain).
    Step::both("DROP INDEX transfers_by_sender"),
    Step::both("DROP INDEX transfers_by_recipient"),
    Step::both("CREATE INDEX transfers_by_sender_tx ON transfers (sender, block_number, tx_index, chain)"),
    Step::both("CREATE INDEX transfers_by_recipient_tx ON transfers (recipient, block_number, tx_index, chain)"),
    // The mailbox keyed by a sequence number: messages are appended in storage order and acks
    // name (message id, client), so a commit's acks land at the end of their B-tree instead of
    // on one random page each (random (topic, hash, client) keys kept the writer busy rewriting
    // pages). Ids are never reused, so a late ack cannot settle a newer message.
    Step {
        sqlite: "CREATE TABLE relay_messages_v2 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            topic TEXT NOT NULL,
            hash TEXT NOT NULL,
            message TEXT NOT NULL,
            tag BIGINT NOT NULL,
            publisher TEXT NOT NULL,
            published_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL
        )",
        postgres: "CREATE TABLE relay_messages_v2 (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            topic TEXT NOT NULL,
            hash TEXT NOT NULL,
            message TEXT NOT NULL,
            tag BIGINT NOT NULL,
            publisher TEXT NOT NULL,
            published_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL
        )",
    },
    // Pending messages keep their order (oldest first) and their acks.
    Step::both(
        "INSERT INTO relay_messages_v2 (topic, hash, message, tag, publisher, published_at, expires_at)
        SELECT topic, hash, message, tag, publisher, published_at, expires_at FROM relay_messages
        ORDER BY published_at, hash",
    ),
    // WITHOUT ROWID: the primary key is the table, one B-tree instead of a table and its index.
    Step {
        sqlite: "CREATE TABLE relay_acks_v2 (
            message_id BIGINT NOT NULL,
            client_id TEXT NOT NULL,
            PRIMARY KEY (message_id, client_id)
        ) WITHOUT ROWID",
        postgres: "CREATE TABLE relay_acks_v2 (
            message_id BIGINT NOT NULL,
            client_id TEXT NOT NULL,
            PRIMARY KEY (message_id, client_id)
        )",
    },
    Step::both(
        "INSERT INTO relay_acks_v2 (message_id, client_id)
        SELECT m.id, a.client_id FROM relay_acks a JOIN relay_messages_v2 m ON m.topic = a.topic AND m.hash = a.hash",
    ),
    Step::both("DROP TABLE relay_acks"),
    Step::both("DROP TABLE relay_messages"),
    Step::both("ALTER TABLE relay_messages_v2 RENAME TO relay_messages"),
    Step::both("ALTER TABLE relay_acks_v2 RENAME TO relay_acks"),
    // De-duplication by sha256(message) within a topic.
    Step::both("CREATE UNIQUE INDEX relay_messages_by_hash ON relay_messages (topic, hash)"),
    Step::both("CREATE INDEX relay_messages_by_expiry ON relay_messages (expires_at)"),
    // SQLite keeps the mailbox as a journal, a row per group commit (`store::journal`); its
    // first use moves what the tables above hold into it. Postgres, shared by several nodes,
    // keeps the tables.
    Step {
        sqlite: "CREATE TABLE relay_journal (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            expires_at BIGINT NOT NULL,
            body BLOB NOT NULL
        )",
        postgres: "SELECT 1",
    },
    Step {
        sqlite: "CREATE INDEX relay_journal_by_expiry ON relay_journal (expires_at)",
        postgres: "SELECT 1",
    },
    // The relay's per-publisher quota counts a publisher's messages (SQLite counts in its journal's index).
    Step {
        sqlite: "SELECT 1",
        postgres: "CREATE INDEX relay_messages_by_publisher ON relay_messages (publisher, expires_at)",
    },
    // Sign-in sessions answer a short-lived access token and a rotating one-time refresh
    // token (crate::siwx); the long-lived session token only travels in the HTTP-only cookie.
    // Sessions made before have neither (empty, matching no token).
    Step::both("ALTER TABLE siwx_sessions ADD COLUMN access_hash TEXT NOT NULL DEFAULT ''"),
    Step::both("ALTER TABLE siwx_sessions ADD COLUMN access_expires_at BIGINT NOT NULL DEFAULT 0"),
    Step::both("ALTER TABLE siwx_sessions ADD COLUMN refresh_hash TEXT NOT NULL DEFAULT ''"),
    Step::both("ALTER TABLE siwx_sessions ADD COLUMN refresh_used_hash TEXT"),
    Step::both("CREATE INDEX siwx_sessions_by_access ON siwx_sessions (access_hash)"),
    Step::both("CREATE INDEX siwx_sessions_by_refresh ON siwx_sessions (refresh_hash)"),
    Step::both("CREATE INDEX siwx_sessions_by_used_refresh ON siwx_sessions (refresh_used_hash)"),
    // Pruning (crate::siwx) finds expired rows by these.
    Step::both("CREATE INDEX siwx_nonces_by_expiry ON siwx_nonces (expires_at)"),
    Step::both("CREATE INDEX siwx_sessions_by_expiry ON siwx_sessions (expires_at)"),
    // Embedded-wallet login (crate::embedded; the tables are described in store::embedded).
    Step::both(super::embedded::USERS),
    Step::both(super::embedded::DEVICES),
    Step::both(super::embedded::CODES),
    Step::both(super::embedded::CODES_BY_HASH),
    Step::both(super::embedded::COUNTERS),
    Step::both(super::embedded::SESSIONS),
    Step::both(super::embedded::WALLETS),
    // On-ramp purchases delivered (crate::onramp): the history marks their transactions.
    Step::both(
        "CREATE TABLE onramp_purchases (
        tx_hash TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        recorded_at BIGINT NOT NULL
    )",
    ),
];

/// One schema step in each backend's dialect (the same text for most).
pub(super) struct Step {
    /// The statement for SQLite.
    pub sqlite: &'static str,
    /// The statement for PostgreSQL.
    pub postgres: &'static str,
}

impl Step {
    /// A statement both backends accept as is.
    const fn both(sql: &'static str) -> Self {
        Self {
            sqlite: sql,
            postgres: sql,
        }
    }
}
