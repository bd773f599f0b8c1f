//! The listing harness: the SQL the app shows, run in a real PostgreSQL in the model's order.
//!
//! For each variant, the default run and the failing path of every mistake (followed by action
//! key on the fixes) are replayed step by step. Each actor (lane) is its own session; a step's
//! statements are exactly the displayed listing's SQL (the text up to each `;` that starts with
//! an SQL keyword, so a `broker.publish(…)` line beside it is left to the model); a crash
//! closes the actor's session, which rolls back what it had not committed. After every step the
//! rows of each table the app draws as the database's are read by an observer session and
//! compared with the step's committed rows (faint rows are uncommitted: invisible to others).
#![cfg(not(target_arch = "wasm32"))]

#[path = "common/pg.rs"]
mod pg;

use effectively_once::scenarios;
use effectively_once::sim::{decode_path, MarkKind, Trace};
use std::collections::BTreeMap;

/// One scenario's database: its schema, and for each table the app draws, the query that reads
/// it in the drawing's column order and as its cells print.
struct Db {
    slug: &'static str,
    schema: &'static str,
    tables: &'static [(&'static str, &'static str)],
}

const DUAL_WRITE: Db = Db {
    slug: "dual-write",
    schema: "CREATE TABLE orders (id int PRIMARY KEY, status text NOT NULL);
             CREATE TABLE outbox (event_id text PRIMARY KEY, aggregate_id int NOT NULL,
                                  type text NOT NULL, payload jsonb, status text NOT NULL,
                                  created_at timestamptz NOT NULL DEFAULT clock_timestamp());",
    tables: &[
        ("orders", "SELECT id::text, status FROM orders ORDER BY id"),
        (
            "outbox",
            "SELECT event_id, aggregate_id::text, status FROM outbox ORDER BY event_id",
        ),
    ],
};

const SQL_WORDS: [&str; 8] = [
    "BEGIN", "COMMIT", "ROLLBACK", "INSERT", "UPDATE", "DELETE", "SELECT", "WITH",
];

/// The SQL statements of a displayed listing, in order, each as displayed.
fn statements(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in code.lines() {
        let starts_sql = SQL_WORDS.iter().any(|w| line.trim_start().starts_with(w));
        if current.is_empty() && !starts_sql {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        // A statement ends at a `;` outside a trailing `--` comment.
        if line
            .split("--")
            .next()
            .is_some_and(|l| l.trim_end().ends_with(';'))
        {
            out.push(std::mem::take(&mut current));
        }
    }
    out
}

fn rows_of(client: &mut postgres::Client, query: &str) -> Vec<Vec<String>> {
    let rows = client.query(query, &[]).expect("read a table");
    rows.iter()
        .map(|r| (0..r.len()).map(|i| r.get::<_, String>(i)).collect())
        .collect()
}

fn drawn(trace: &Trace, step: usize, key: &str) -> Vec<Vec<String>> {
    let view = &trace.steps[step].view;
    let table = view.tables.iter().find(|t| t.key == key);
    let mut rows: Vec<Vec<String>> = table
        .map(|t| t.rows.iter().filter(|r| !r.faint))
        .into_iter()
        .flatten()
        .map(|r| r.cells.iter().map(|c| c.en.clone()).collect())
        .collect();
    rows.sort();
    rows
}

/// Replays `trace` against a fresh database and compares every step; returns how many
/// statements ran and how many rows were compared.
fn check(cluster: &pg::Cluster, db: &Db, what: &str, trace: &Trace) -> (usize, usize) {
    let (mut ran, mut rows) = (0, 0);
    let mut admin = cluster.connect();
    admin
        .batch_execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        .expect("reset");
    admin.batch_execute(db.schema).expect("schema");
    let mut sessions: BTreeMap<usize, postgres::Client> = BTreeMap::new();
    for (k, step) in trace.steps.iter().enumerate().skip(1) {
        let info = &step.info;
        let code = info.code.as_deref().unwrap_or("");
        for sql in statements(code) {
            let s = sessions
                .entry(info.lane)
                .or_insert_with(|| cluster.connect());
            if let Err(e) = s.batch_execute(&sql) {
                panic!("{what}, step {k} ({}): {sql}\nfailed: {e}", info.title.en);
            }
            ran += 1;
        }
        for m in info.marks.iter().filter(|m| m.kind == MarkKind::Crash) {
            sessions.remove(&m.lane);
        }
        for (key, query) in db.tables {
            let mut got = rows_of(&mut admin, query);
            got.sort();
            let want = drawn(trace, k, key);
            rows += want.len();
            assert_eq!(
                got, want,
                "{what}, step {k} ({}), table {key}: PostgreSQL (left) and the drawing (right) \
                 differ after\n{code}",
                info.title.en
            );
        }
    }
    (ran, rows)
}

/// The runs to replay on each variant: the default run, and every mistake's failing path
/// (by action key, so that a fix takes the same moves as far as they go).
fn runs(db: &Db) -> Vec<(String, Trace)> {
    let i = scenarios::index_of(db.slug).expect("a registered slug");
    let s = scenarios::all()[i];
    let meta = s.meta();
    let failing: Vec<Vec<String>> = meta
        .variants
        .iter()
        .enumerate()
        .filter_map(|(v, m)| Some(s.trace(v, &decode_path(m.fails?).0).keys()))
        .collect();
    let mut out = Vec::new();
    for (v, m) in meta.variants.iter().enumerate() {
        out.push((
            format!("{} {} default run", db.slug, m.slug),
            s.trace(v, &[]),
        ));
        for keys in &failing {
            let path = s.follow(v, keys);
            let what = format!("{} {} path {}", db.slug, m.slug, keys.join(" "));
            out.push((what, s.trace(v, &path)));
        }
    }
    out
}

#[test]
fn dual_write_listings_produce_the_tables_drawn() {
    let cluster = pg::Cluster::start("dual-write");
    let runs = runs(&DUAL_WRITE);
    assert!(runs.len() >= 6, "{} runs", runs.len());
    let (mut ran, mut rows) = (0, 0);
    for (what, trace) in &runs {
        let (r, n) = check(&cluster, &DUAL_WRITE, what, trace);
        (ran, rows) = (ran + r, rows + n);
    }
    // Pinned, so that a listing that stops being found (or a table that stops being drawn)
    // cannot pass by comparing nothing.
    assert_eq!((runs.len(), ran, rows), (9, 65, 138));
}

#[test]
fn a_drawing_that_disagrees_with_postgresql_fails() {
    let cluster = pg::Cluster::start("dual-write-wrong");
    let wrong = Db {
        tables: &[("orders", "SELECT id::text, 'sent' FROM orders ORDER BY id")],
        ..DUAL_WRITE
    };
    let (what, trace) = &runs(&DUAL_WRITE)[0];
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check(&cluster, &wrong, what, trace)
    }));
    assert!(caught.is_err(), "a wrong table passed");
}

#[test]
fn the_statement_splitter_keeps_sql_and_drops_the_rest() {
    let code = "SELECT a FROM t\n  WHERE b;\nbroker.publish({ key: '17' })\nCOMMIT;  -- done";
    assert_eq!(
        statements(code),
        ["SELECT a FROM t\n  WHERE b;\n", "COMMIT;  -- done\n"]
    );
    assert!(statements("inventory.consume({ id: 'e-17' })").is_empty());
}
