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

use crate::common::pg;

use effectively_once::scenarios;
use effectively_once::scenarios::{
    Approval, Backpressure, Cancellation, CheckpointReplay, DeadLetter, DualWrite, DuplicateCharge,
    EventOrder, LeaseFencing, OrderApi, OutboxRelay, RefundCap, RetryLayers, SemaphoreScope,
    UnknownOutcome,
};
use effectively_once::sim::{
    action_key, decode_path, MarkKind, Model, Present, Scenario, StepInfo, Trace,
};
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::path::Path;

/// How the drawing words a statement's answer, from its first word, row count and rows.
type Answer = fn(&str, u64, &[postgres::Row]) -> String;

/// One scenario's database: its schema, and for each table the app draws, the query that reads
/// it in the drawing's column order and as its cells print.
struct Db {
    slug: &'static str,
    schema: &'static str,
    /// SQL run after the schema for one variant (a variant that lacks a constraint).
    variant_schema: &'static [(&'static str, &'static str)],
    tables: &'static [(&'static str, &'static str)],
    /// SQL run as the world, not as an actor, before the step of an action (the clock moves).
    world: &'static [(&'static str, &'static str)],
    /// The drawn table whose last row records what a step's statements answered (a
    /// transaction's row counts, "1, 0 → ROLLBACK", or with `answer`, the last statement's
    /// answer), and its column.
    counts: Option<(&'static str, usize)>,
    /// How the drawing words a statement's answer: its first word, its row count, its rows.
    answer: Option<Answer>,
    /// Whose session a step's statements run on (by default, the lane of the step's actor).
    session: fn(&StepInfo) -> usize,
    /// Interleavings and faults to replay besides the mistakes' failing paths (action keys).
    paths: &'static [&'static [&'static str]],
    /// The actions of a variant whose step shows SQL in some reachable state ([`shown`]).
    shown: fn(usize) -> BTreeMap<String, Vec<String>>,
    /// A request's statement runs as the database's own step, which the model withholds while
    /// the statement waits for a lock ([`waits`]): PostgreSQL must block it there.
    waits: bool,
    /// For a statement with a `$1` (by its first line), the query, `$1` being the process the
    /// listing names, whose rows are the values that process has in hand (the jobs it runs).
    in_hand: &'static [(&'static str, &'static str)],
}

/// A listing that summarises a loop (`-- instance-1/p1, 5 times:`): the process it names and
/// how many times its statements run.
fn repeated(code: &str) -> Option<(&str, usize)> {
    let line = code.lines().next()?.strip_prefix("-- ")?;
    let (who, times) = line.strip_suffix(" times:")?.split_once(", ")?;
    Some((who, times.parse().ok()?))
}

/// The states in which the model holds a sent statement waiting: for each step `j` whose
/// statements run on session `lane`, from the step whose arrow sent them (the last arrow from
/// `lane` to `j`'s lane) until `j`, every state that does not offer `j`'s action. Returns
/// (state, lane, j).
fn waits(db: &Db, trace: &Trace) -> Vec<(usize, usize, usize)> {
    let keys = trace.keys();
    let mut out = Vec::new();
    for j in 1..trace.steps.len() {
        let info = &trace.steps[j].info;
        if statements(info.code.as_deref().unwrap_or("")).is_empty() {
            continue;
        }
        let lane = (db.session)(info);
        let sends = |i: &usize| {
            let arrows = &trace.steps[*i].info.arrows;
            arrows.iter().any(|a| a.from == lane && a.to == info.lane)
        };
        let Some(sent) = (1..j).rev().find(sends) else {
            continue;
        };
        for m in sent..j {
            if !trace.steps[m].choices.iter().any(|c| c.key == keys[j - 1]) {
                out.push((m, lane, j));
            }
        }
    }
    out
}

/// The actions whose step shows SQL in some state of `variant` reachable at the player's
/// fault budget, each with the shortest path (action keys) that ends by taking it: what the
/// replayed runs must take between them, and a run that takes it when no other does.
fn shown<S: Scenario>(variant: usize) -> BTreeMap<String, Vec<String>> {
    let model = S::model_of(variant, None, &[]);
    let start = (model.init(), 0u8);
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start, Vec::new())]);
    let mut found = BTreeMap::new();
    let mut actions = Vec::new();
    while let Some(((state, faults), path)) = queue.pop_front() {
        actions.clear();
        model.actions(&state, &mut actions);
        actions.retain(|a| faults < model.fault_budget() || !model.is_fault(a));
        for a in &actions {
            let next = model.next(&state, a);
            let mut path = path.clone();
            path.push(action_key(a));
            let code = model.describe(&state, a, &next).code.unwrap_or_default();
            if !statements(&code).is_empty() && !found.contains_key(&path[path.len() - 1]) {
                found.insert(path[path.len() - 1].clone(), path.clone());
            }
            let next = (next, faults + u8::from(model.is_fault(a)));
            if seen.insert(next.clone()) {
                queue.push_back((next, path));
            }
        }
    }
    found
}

/// The actions whose statements `trace` runs.
fn sql_taken(trace: &Trace) -> BTreeSet<String> {
    let keys = trace.keys();
    (1..trace.steps.len())
        .filter(|&k| !statements(trace.steps[k].info.code.as_deref().unwrap_or("")).is_empty())
        .map(|k| keys[k - 1].clone())
        .collect()
}

/// What a database has unless it says otherwise: the same schema for every variant, no world,
/// answers or waits, each statement on its actor's session, no extra paths, no loops.
const PLAIN: Db = Db {
    slug: "",
    schema: "",
    variant_schema: &[],
    tables: &[],
    world: &[],
    counts: None,
    answer: None,
    session: actor,
    paths: &[],
    shown: shown::<DualWrite>,
    waits: false,
    in_hand: &[],
};

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
    shown: shown::<DualWrite>,
    ..PLAIN
};

/// The approval's versioned proposal. `now()` is the scenario's clock (10:02 until the approval
/// expires, then 10:20): a `public.now()` ahead of `pg_catalog` on every session's path. The
/// chat variant's refund is a tool call; its listing shows the tool's unguarded UPDATE.
const APPROVAL: Db = Db {
    slug: "approval",
    schema: "CREATE TABLE clock (t time NOT NULL); INSERT INTO clock VALUES ('10:02');
             CREATE FUNCTION public.now() RETURNS time LANGUAGE sql STABLE
               AS 'SELECT t FROM public.clock';
             CREATE TABLE proposals (id text PRIMARY KEY, merchant text, order_id text,
               action text, amount numeric(12,2), currency text, state_version int,
               expires_at time, requester text, digest text, status text, executed_at time);
             CREATE TABLE approvals (proposal_id text PRIMARY KEY, digest text, approver text,
               permission text, approved_at time);
             CREATE TABLE orders (order_id text PRIMARY KEY, version int NOT NULL,
               paid numeric(12,2) NOT NULL, refunded numeric(12,2) NOT NULL);
             INSERT INTO orders VALUES ('ord-2042', 3, 1000.00, 0);",
    tables: &[
        (
            "proposals",
            "SELECT id, merchant, order_id, action, to_char(amount, 'FM999,990.00') AS amount, currency,
                    state_version::text, to_char(expires_at, 'HH24:MI') AS expires_at, requester, digest,
                    status FROM proposals",
        ),
        (
            "approvals",
            "SELECT proposal_id, digest, approver, permission, to_char(approved_at, 'HH24:MI') AS approved_at
               FROM approvals",
        ),
        (
            "orders",
            "SELECT order_id, CASE WHEN refunded > 0 THEN 'PARTIALLY_REFUNDED' ELSE 'PAID' END AS status,
                    version::text, to_char(paid, 'FM999,990.00') AS paid,
                    to_char(refunded, 'FM999,990.00') AS refunded FROM orders",
        ),
    ],
    world: &[("expire", "UPDATE clock SET t = '10:20'")],
    counts: Some(("calls", 1)),
    paths: &[
        &["propose", "approve", "support-refund", "execute"],
        &["propose", "approve", "expire", "execute"],
        &["propose", "approve", "approve-again", "execute", "execute"],
        &[
            "propose",
            "approve",
            "edit-amount",
            "support-refund",
            "execute",
        ],
    ],
    shown: shown::<Approval>,
    ..PLAIN
};

/// The outbox relay's two databases in one: the order service's `orders` and `outbox`, the
/// inventory's `stock` (its row for order 17 exists before any event) and `processed_messages`.
const OUTBOX_RELAY: Db = Db {
    slug: "outbox-relay",
    schema: "CREATE TABLE orders (id int PRIMARY KEY, status text NOT NULL, version int NOT NULL);
             CREATE TABLE outbox (event_id text PRIMARY KEY, aggregate_id int NOT NULL,
               version int NOT NULL, type text NOT NULL, payload jsonb, status text NOT NULL);
             CREATE TABLE stock (order_id int PRIMARY KEY, reserved int NOT NULL,
               version int NOT NULL DEFAULT 0);
             INSERT INTO stock VALUES (17, 0, 0);
             CREATE TABLE processed_messages (event_id text PRIMARY KEY);",
    tables: &[
        (
            "orders",
            "SELECT id::text, status, version::text FROM orders",
        ),
        (
            "outbox",
            "SELECT event_id, version::text, type, status FROM outbox",
        ),
        (
            "stock",
            "SELECT order_id::text, reserved::text, version::text FROM stock",
        ),
        ("inbox", "SELECT event_id FROM processed_messages"),
    ],
    shown: shown::<OutboxRelay>,
    ..PLAIN
};

/// Unknown outcomes: the API creates the operation by its idempotency key (the unique
/// constraint is the fix; check-then-insert has none), the worker claims and records it.
/// `request_digest` and `downstream_key` are derived by the API and the worker, not by a
/// statement shown, and are not compared.
const UNKNOWN_OUTCOME: Db = Db {
    slug: "unknown-outcome",
    schema: "CREATE SEQUENCE op_no;
             CREATE TABLE refund_operations (
               operation_id text PRIMARY KEY DEFAULT 'op-' || nextval('op_no'),
               idempotency_key text NOT NULL UNIQUE, amount numeric(12,2) NOT NULL,
               status text NOT NULL, downstream_key text, version int NOT NULL DEFAULT 1);
             CREATE TABLE orders (order_id text PRIMARY KEY, refundable numeric(12,2) NOT NULL,
               reserved numeric(12,2) NOT NULL, refunded numeric(12,2) NOT NULL);
             INSERT INTO orders VALUES ('ord-1701', 100, 0, 0);",
    variant_schema: &[(
        "check-then-insert",
        "ALTER TABLE refund_operations DROP CONSTRAINT refund_operations_idempotency_key_key",
    )],
    tables: &[
        (
            "ops",
            "SELECT operation_id, idempotency_key, status, version::text FROM refund_operations",
        ),
        (
            "orders",
            "SELECT order_id, to_char(refundable, 'FM990.00') AS refundable,
                    to_char(reserved, 'FM990.00') AS reserved,
                    to_char(refunded, 'FM990.00') AS refunded FROM orders",
        ),
    ],
    shown: shown::<UnknownOutcome>,
    ..PLAIN
};

/// The duplicate charge: the payment table of each variant (a payment number per delivery, or
/// one payment intent per order whose id is the provider's key), the inbox, and the refunds
/// reconciliation opens. The provider's report is the provider's: read, never written here.
const DUPLICATE_CHARGE: Db = Db {
    slug: "duplicate-charge",
    schema: "CREATE TABLE outbox (event_id text PRIMARY KEY, status text NOT NULL);
             INSERT INTO outbox VALUES ('ord-1701:charge', 'PENDING');
             CREATE SEQUENCE payment_no;
             CREATE TABLE payments (payment_no text PRIMARY KEY, order_id text NOT NULL,
               idempotency_key text NOT NULL, status text NOT NULL, charge_id text);
             CREATE TABLE processed_messages (message_id text PRIMARY KEY);
             CREATE TABLE payment_intents (intent_id text PRIMARY KEY,
               order_id text NOT NULL UNIQUE,
               idempotency_key text GENERATED ALWAYS AS (intent_id) STORED,
               status text NOT NULL, charge_id text);
             CREATE TABLE provider_report (charge_id text, idempotency_key text, order_id text);
             CREATE TABLE refund_operations (operation_id text PRIMARY KEY, charge_id text,
               amount numeric(12,2), status text NOT NULL);",
    tables: &[
        (
            "payments",
            "SELECT payment_no, order_id, idempotency_key, status,
                    coalesce(charge_id, '—') AS charge_id FROM payments",
        ),
        (
            "payments",
            "SELECT intent_id, order_id, idempotency_key, status,
                    coalesce(charge_id, '—') AS charge_id FROM payment_intents",
        ),
        ("inbox", "SELECT message_id FROM processed_messages"),
        (
            "refunds",
            "SELECT operation_id, charge_id, to_char(amount, 'FM990.00') AS amount, status
               FROM refund_operations",
        ),
    ],
    shown: shown::<DuplicateCharge>,
    ..PLAIN
};

/// Cancellation: the batch's operations, written by the service as it sends, hears back,
/// gives up or reconciles.
const CANCELLATION: Db = Db {
    slug: "cancellation",
    schema: "CREATE TABLE refund_operations (operation_id text PRIMARY KEY, batch_id text NOT NULL,
               amount numeric(12,2) NOT NULL, status text NOT NULL);",
    tables: &[(
        "ops",
        "SELECT operation_id, batch_id, to_char(amount, 'FM990.00') AS amount, status
           FROM refund_operations",
    )],
    shown: shown::<Cancellation>,
    ..PLAIN
};

/// The channel's budget, shared by the instances through `jobs`, `channel_budget` or the
/// lease rows of `channel_slots`; `now()` is the scenario's clock. The world records which
/// process crashed (the drawing's "owner crashed" jobs: the database itself cannot know), and
/// when 31 s pass, the live processes' renewal timers run (`setInterval` in leases.js).
const SEMAPHORE_SCOPE: Db = Db {
    slug: "semaphore-scope",
    schema: "CREATE TABLE clock (t timestamptz NOT NULL);
             INSERT INTO clock VALUES ('2026-12-05 10:00:00+00');
             CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE sql STABLE
               AS 'SELECT t FROM public.clock';
             CREATE TABLE jobs (id int PRIMARY KEY, status text NOT NULL, owner text);
             INSERT INTO jobs SELECT g, 'queued', NULL FROM generate_series(1, 30) g;
             CREATE TABLE channel_budget (channel text PRIMARY KEY, in_flight int NOT NULL);
             INSERT INTO channel_budget VALUES ('psp', 0);
             CREATE TABLE channel_slots (slot int PRIMARY KEY, holder text,
               expires_at timestamptz);
             INSERT INTO channel_slots SELECT g, NULL, NULL FROM generate_series(1, 10) g;
             CREATE TABLE crashed (process text PRIMARY KEY);",
    tables: &[
        (
            "jobs",
            "SELECT s.status, (SELECT count(*) FROM jobs j WHERE j.status = s.status
                 AND NOT (j.status = 'running' AND j.owner IN (SELECT process FROM crashed))
               )::text AS jobs
               FROM unnest(ARRAY['queued', 'running', 'done']) AS s(status)
             UNION ALL
             SELECT 'running, owner crashed', count(*)::text FROM jobs
              WHERE status = 'running' AND owner IN (SELECT process FROM crashed)
             HAVING count(*) > 0",
        ),
        (
            "channel_budget",
            "SELECT channel, in_flight::text FROM channel_budget",
        ),
        (
            "channel_slots",
            "SELECT slot::text, coalesce(holder, 'NULL') AS holder FROM channel_slots",
        ),
    ],
    world: &[
        ("crash-0", CRASHED[0]),
        ("crash-1", CRASHED[1]),
        ("crash-2", CRASHED[2]),
        ("expire-0", LATER),
        ("expire-1", LATER),
        ("expire-2", LATER),
    ],
    shown: shown::<SemaphoreScope>,
    in_hand: &[
        (
            "UPDATE jobs SET status = 'done'",
            "SELECT id FROM jobs WHERE status = 'running' AND owner = $1 ORDER BY id",
        ),
        (
            "UPDATE channel_slots SET holder = NULL",
            "SELECT slot FROM channel_slots WHERE holder = $1 ORDER BY slot",
        ),
    ],
    ..PLAIN
};

/// Instance `i + 1`'s process crashes: the one running its jobs now.
const CRASHED: [&str; 3] = [
    "INSERT INTO crashed SELECT DISTINCT owner FROM jobs
      WHERE status = 'running' AND owner LIKE 'instance-1/%' ON CONFLICT DO NOTHING",
    "INSERT INTO crashed SELECT DISTINCT owner FROM jobs
      WHERE status = 'running' AND owner LIKE 'instance-2/%' ON CONFLICT DO NOTHING",
    "INSERT INTO crashed SELECT DISTINCT owner FROM jobs
      WHERE status = 'running' AND owner LIKE 'instance-3/%' ON CONFLICT DO NOTHING",
];

/// 31 s pass; every live holder has renewed its leases meanwhile.
const LATER: &str = "UPDATE clock SET t = t + interval '31 seconds';
    UPDATE channel_slots SET expires_at = now() + interval '30 seconds'
     WHERE holder NOT IN (SELECT process FROM crashed)";

/// Every scenario whose steps show SQL, replayed (the others show none: a test holds it).
/// The dead letters' database: the orders, the payments the consumer records, and the parked
/// messages. Every step is one transaction or one statement, so no session waits.
const DEAD_LETTER: Db = Db {
    slug: "dead-letter",
    schema: "CREATE TABLE orders (id text PRIMARY KEY, status text NOT NULL);
             INSERT INTO orders VALUES ('ord-1701', 'PENDING'), ('ord-1702', 'PENDING'),
                                       ('ord-1703', 'PENDING');
             CREATE TABLE payments (order_id text NOT NULL REFERENCES orders,
               charge_id text PRIMARY KEY, message_id text NOT NULL);
             CREATE TABLE dead_letters (message_id text PRIMARY KEY, order_id text NOT NULL,
               reason text NOT NULL, attempts int NOT NULL, owner text NOT NULL,
               status text NOT NULL, replays int NOT NULL);",
    tables: &[
        ("orders", "SELECT id, status FROM orders"),
        (
            "payments",
            "SELECT order_id, charge_id, message_id FROM payments",
        ),
        (
            "dead_letters",
            "SELECT message_id, order_id, reason, attempts::text AS attempts, owner, status,
                    replays::text AS replays FROM dead_letters",
        ),
    ],
    shown: shown::<DeadLetter>,
    ..PLAIN
};

/// The order API's database: orders (with the request key where the variant has one) and the
/// outbox. The request key is unique; a variant without one never writes it.
const ORDER_API: Db = Db {
    slug: "order-api",
    schema: "CREATE TABLE orders (order_id text PRIMARY KEY, request_key text UNIQUE,
               cart text NOT NULL, status text NOT NULL);
             CREATE TABLE outbox (event_id text PRIMARY KEY, order_id text NOT NULL REFERENCES orders,
               status text NOT NULL);",
    tables: &[
        ("orders", "SELECT order_id, request_key, cart, status FROM orders"),
        ("outbox", "SELECT event_id, order_id, status FROM outbox"),
    ],
    shown: shown::<OrderApi>,
    ..PLAIN
};

/// The run with its lease. `now()` is the scenario's clock: the lease runs out when the world
/// moves it 31 s on (a `public.now()` ahead of `pg_catalog`, as for the approval).
const LEASE_FENCING: Db = Db {
    slug: "lease-fencing",
    schema: "CREATE TABLE clock (t timestamptz NOT NULL); INSERT INTO clock VALUES ('2026-12-05 10:00:00+00');
             CREATE FUNCTION public.now() RETURNS timestamptz LANGUAGE sql STABLE
               AS 'SELECT t FROM public.clock';
             CREATE TABLE runs (run_id text PRIMARY KEY, status text NOT NULL, holder text,
               lease_version int NOT NULL, lease_until timestamptz, completed_by text);
             INSERT INTO runs VALUES ('r-7', 'PENDING', NULL, 0, NULL, NULL);",
    tables: &[(
        "runs",
        "SELECT run_id, status, coalesce(holder, '—') AS holder, lease_version::text AS lease_version,
                coalesce(completed_by, '—') AS completed_by FROM runs",
    )],
    world: &[("expire", "UPDATE clock SET t = t + interval '31 seconds'")],
    shown: shown::<LeaseFencing>,
    ..PLAIN
};

/// The payment row the webhooks keep: its status, version and the money it records.
const EVENT_ORDER: Db = Db {
    slug: "event-order",
    schema: "CREATE TABLE payments (payment_id text PRIMARY KEY, status text NOT NULL,
               version int NOT NULL, paid numeric(12,2) NOT NULL, refunded numeric(12,2) NOT NULL);
             INSERT INTO payments VALUES ('pay-1701', 'PENDING', 1, 0, 0);",
    tables: &[(
        "payments",
        "SELECT payment_id, status, version::text AS version,
                to_char(paid, 'FM999,990.00') AS paid, to_char(refunded, 'FM999,990.00') AS refunded
           FROM payments",
    )],
    shown: shown::<EventOrder>,
    ..PLAIN
};

const DBS: [&Db; 12] = [
    &DUAL_WRITE,
    &OUTBOX_RELAY,
    &REFUND_CAP,
    &APPROVAL,
    &UNKNOWN_OUTCOME,
    &DUPLICATE_CHARGE,
    &CANCELLATION,
    &SEMAPHORE_SCOPE,
    &DEAD_LETTER,
    &ORDER_API,
    &LEASE_FENCING,
    &EVENT_ORDER,
];

/// The step's actor: its lane.
fn actor(info: &StepInfo) -> usize {
    info.lane
}

/// The refund cap: each request is its own session; the database's step answers on the
/// requester's lane (its arrow's head), and the drawing logs each answer ("remaining 100").
const REFUND_CAP: Db = Db {
    slug: "refund-cap",
    schema: "CREATE TABLE refunds (id int PRIMARY KEY, cap int NOT NULL, refunded int NOT NULL,
               reserved int NOT NULL);
             INSERT INTO refunds VALUES (1, 100, 0, 0);",
    tables: &[(
        "refunds",
        "SELECT id::text, cap::text, refunded::text, reserved::text,
                (cap - refunded - reserved)::text AS remaining FROM refunds",
    )],
    counts: Some(("queries", 3)),
    answer: Some(|word, n, rows| match (word, rows.first()) {
        ("SELECT", Some(r)) => {
            let left = r.get::<_, i32>(0) - r.get::<_, i32>(1) - r.get::<_, i32>(2);
            format!("remaining {left}")
        }
        ("UPDATE", _) => format!("UPDATE {n}"),
        _ => "OK".to_string(),
    }),
    session: |info| info.arrows.first().map_or(info.lane, |a| a.to),
    shown: shown::<RefundCap>,
    waits: true,
    ..PLAIN
};

/// The SQL statements of a displayed listing, in order, each as displayed.
fn statements(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in code.lines() {
        if current.is_empty() && !scenarios::starts_sql(line) {
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

/// The committed rows the drawing shows in table `key` at `step`.
fn drawn(trace: &Trace, step: usize, key: &str) -> Vec<Vec<String>> {
    rows_drawn(trace, step, key, false)
}

/// Every row of table `key` at `step`, in the drawing's order.
fn all_rows(trace: &Trace, step: usize, key: &str) -> Vec<Vec<String>> {
    rows_drawn(trace, step, key, true)
}

fn rows_drawn(trace: &Trace, step: usize, key: &str, faint_too: bool) -> Vec<Vec<String>> {
    let view = &trace.view(step);
    let table = view.tables.iter().find(|t| t.key == key);
    table
        .map(|t| t.rows.iter().filter(|r| faint_too || !r.faint))
        .into_iter()
        .flatten()
        .map(|r| r.cells.iter().map(|c| cell(&c.en)).collect())
        .collect()
}

/// A drawn cell without the drawing's own note on it ("pending (locked by relay A)").
fn cell(text: &str) -> String {
    match text.find(" (") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text.to_string(),
    }
}

/// The row count a listing states for its statement (`-- 0 rows: duplicate`, `-- 1 row`,
/// `-- UPDATE 0: already final`).
fn rows_said(sql: &str) -> Option<u64> {
    let comment = sql.split("--").nth(1)?;
    let words: Vec<&str> = comment.split_whitespace().take(2).collect();
    match words[..] {
        ["UPDATE" | "INSERT" | "DELETE", n] => n.trim_end_matches(':').parse().ok(),
        [n, rows] if rows.starts_with("row") => n.parse().ok(),
        _ => None,
    }
}

/// The ids a listing says its `RETURNING` gives (`RETURNING slot;  -- slots 6–10`), in order.
fn ids_said(sql: &str) -> Option<Vec<i32>> {
    let (_, comment) = sql.split_once("RETURNING")?.1.split_once("-- ")?;
    let (word, ids) = comment.trim().split_once(' ')?;
    if !word.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    let ids = ids.split([',', ' ']).filter(|w| !w.is_empty());
    let mut out = Vec::new();
    for w in ids {
        match w.split_once('–') {
            Some((a, z)) => out.extend(a.parse::<i32>().ok()?..=z.parse().ok()?),
            None => out.push(w.parse().ok()?),
        }
    }
    Some(out)
}

/// An actor's session and the row counts of the statements of its open transaction.
struct Session {
    /// `None` while a statement waits on another thread.
    client: Option<postgres::Client>,
    pid: i32,
    counts: Vec<u64>,
    waiting: Option<Waiting>,
}

/// A statement's answer: its row count and any rows.
type Answered = Result<(u64, Vec<postgres::Row>), postgres::Error>;

/// Runs `sql`, with `$1` bound to `param` where it has one.
fn answer(client: &mut postgres::Client, sql: &str, param: Option<i32>) -> Answered {
    let params: Vec<&(dyn postgres::types::ToSql + Sync)> = match &param {
        Some(p) => vec![p],
        None => Vec::new(),
    };
    // A SELECT, or a statement whose own last clause is RETURNING (not a CTE's): its rows.
    let tail = sql.rsplit_once(')').map_or(sql, |t| t.1);
    if sql.split_whitespace().next() == Some("SELECT") || tail.contains("RETURNING") {
        let rows = client.query(sql, &params)?;
        Ok((rows.len() as u64, rows))
    } else {
        Ok((client.execute(sql, &params)?, Vec::new()))
    }
}

/// A statement sent while the model holds it waiting for a lock, running on its own thread.
struct Waiting {
    sql: String,
    done: std::thread::JoinHandle<(postgres::Client, Answered)>,
}

impl Session {
    fn new(cluster: &pg::Cluster) -> Session {
        let mut client = cluster.connect();
        let pid = client
            .query_one("SELECT pg_backend_pid()", &[])
            .expect("the session's pid")
            .get(0);
        Session {
            client: Some(client),
            pid,
            counts: Vec::new(),
            waiting: None,
        }
    }

    fn client(&mut self) -> &mut postgres::Client {
        self.client
            .as_mut()
            .expect("no statement of this session is waiting")
    }

    /// Runs `sql`, or collects its answer if it was sent earlier to wait for a lock.
    fn answer(&mut self, sql: &str, param: Option<i32>) -> Answered {
        match self.waiting.take() {
            Some(w) => {
                assert_eq!(
                    w.sql, sql,
                    "the statement that waited is the one the step runs"
                );
                let (client, answered) = w.done.join().expect("the waiting statement's thread");
                self.client = Some(client);
                answered
            }
            None => answer(self.client(), sql, param),
        }
    }

    /// Sends `sql` on a thread of its own, to wait.
    fn send(&mut self, sql: &str) {
        let mut client = self
            .client
            .take()
            .expect("one waiting statement per session");
        let text = sql.to_string();
        let done = std::thread::spawn(move || {
            let answered = answer(&mut client, &text, None);
            (client, answered)
        });
        let sql = sql.to_string();
        self.waiting = Some(Waiting { sql, done });
    }
}

/// One run replayed against a fresh database.
struct Replay<'a> {
    cluster: &'a pg::Cluster,
    db: &'a Db,
    what: &'a str,
    admin: postgres::Client,
    sessions: BTreeMap<usize, Session>,
    ran: usize,
    rows: usize,
    /// Transactions whose row counts were compared with the drawing, and statements whose
    /// listing states its row count (`-- 0 rows`).
    counted: usize,
    said: usize,
    /// The actions whose statements ran.
    taken: BTreeSet<String>,
    /// States in which a statement was shown blocked in PostgreSQL, as the model holds it.
    waited: usize,
    /// This step's ids returned by each statement whose listing states them ([`ids_said`]).
    returned: BTreeMap<String, Vec<i32>>,
}

impl<'a> Replay<'a> {
    fn new(cluster: &'a pg::Cluster, db: &'a Db, variant: &str, what: &'a str) -> Replay<'a> {
        let mut admin = cluster.connect();
        admin
            .batch_execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
            .expect("reset");
        admin.batch_execute(db.schema).expect("schema");
        for (_, sql) in db.variant_schema.iter().filter(|(v, _)| *v == variant) {
            admin.batch_execute(sql).expect("the variant's schema");
        }
        let sessions = BTreeMap::new();
        Replay {
            cluster,
            db,
            what,
            admin,
            sessions,
            ran: 0,
            rows: 0,
            counted: 0,
            said: 0,
            taken: BTreeSet::new(),
            waited: 0,
            returned: BTreeMap::new(),
        }
    }

    /// Runs a step's statements on its actor's session, as the listing's client would: in a
    /// transaction whose COMMIT says "otherwise ROLLBACK", the first UPDATE that changes no
    /// row ends it with a ROLLBACK. Returns the transaction's outcome ("1, 0 → ROLLBACK").
    fn run(&mut self, lane: usize, sqls: &[(String, Option<i32>)], at: &str) -> Option<String> {
        let mut answered = None;
        let conditional = sqls.iter().any(|s| s.0.contains("otherwise ROLLBACK"));
        let cluster = self.cluster;
        let s = self
            .sessions
            .entry(lane)
            .or_insert_with(|| Session::new(cluster));
        let fail = |sql: &str, e: postgres::Error| -> ! { panic!("{at}: {sql}\nfailed: {e}") };
        for (sql, param) in sqls {
            self.ran += 1;
            let word = sql
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches(';');
            if word == "COMMIT" && conditional {
                let ok = s.counts.iter().all(|&n| n == 1);
                let end = if ok { "COMMIT" } else { "ROLLBACK" };
                s.client()
                    .batch_execute(end)
                    .unwrap_or_else(|e| fail(end, e));
                let counts: Vec<String> = s.counts.iter().map(u64::to_string).collect();
                return Some(format!("{} → {end}", counts.join(", ")));
            }
            if conditional && s.counts.contains(&0) {
                continue;
            }
            if word == "BEGIN" {
                s.counts.clear();
            }
            let (n, rows) = s.answer(sql, *param).unwrap_or_else(|e| fail(sql, e));
            answered = self.db.answer.map(|f| f(word, n, &rows));
            if ids_said(sql).is_some() {
                let ids = rows.iter().map(|r| r.get::<_, i32>(0));
                self.returned.entry(sql.clone()).or_default().extend(ids);
            }
            if let Some(said) = rows_said(sql) {
                assert_eq!(n, said, "{at}: the listing says {said} rows\n{sql}");
                self.said += 1;
            }
            if matches!(word, "UPDATE" | "INSERT" | "DELETE") {
                s.counts.push(n);
            }
        }
        answered
    }

    /// In state `k` the model holds step `j`'s first statement, sent by `lane`, waiting: send
    /// it (once) and see PostgreSQL block it behind another session (`pg_blocking_pids`).
    fn wait(&mut self, trace: &Trace, k: usize, lane: usize, j: usize) {
        let code = trace.steps[j].info.code.as_deref().unwrap_or("");
        let sql = statements(code).swap_remove(0);
        let at = format!("{}, state {k}: the model holds\n{sql}waiting", self.what);
        let cluster = self.cluster;
        let s = self
            .sessions
            .entry(lane)
            .or_insert_with(|| Session::new(cluster));
        if s.waiting.is_none() {
            s.send(&sql);
        }
        let pid = s.pid;
        let finished = || s.waiting.as_ref().is_some_and(|w| w.done.is_finished());
        for _ in 0..200 {
            assert!(!finished(), "{at}, but PostgreSQL answered it");
            let blockers: i32 = (self.admin)
                .query_one("SELECT cardinality(pg_blocking_pids($1))", &[&pid])
                .expect("pg_blocking_pids")
                .get(0);
            if blockers > 0 {
                self.waited += 1;
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("{at}, but PostgreSQL did not block it");
    }

    /// A step's statements as they run: once each, or for a listing that summarises a loop,
    /// that many times, each `$1` bound in turn to a value its process has in hand.
    fn bound(&mut self, code: &str, sqls: Vec<String>) -> Vec<(String, Option<i32>)> {
        let Some((who, times)) = repeated(code) else {
            return sqls.into_iter().map(|s| (s, None)).collect();
        };
        let values: Vec<Vec<i32>> = (sqls.iter())
            .map(
                |sql| match self.db.in_hand.iter().find(|h| sql.starts_with(h.0)) {
                    Some((_, query)) => (self.admin.query(*query, &[&who]))
                        .expect("the values in hand")
                        .iter()
                        .map(|r| r.get(0))
                        .collect(),
                    None => Vec::new(),
                },
            )
            .collect();
        let mut out = Vec::new();
        for t in 0..times {
            for (sql, v) in sqls.iter().zip(&values) {
                let param = sql.contains("$1").then(|| {
                    *v.get(t)
                        .unwrap_or_else(|| panic!("{who} has no value {t} in hand for\n{sql}"))
                });
                out.push((sql.clone(), param));
            }
        }
        out
    }

    fn step(&mut self, trace: &Trace, k: usize) {
        let info = &trace.steps[k].info;
        let at = format!("{}, step {k} ({})", self.what, info.title.en);
        let key = &trace.keys()[k - 1];
        for (_, sql) in self.db.world.iter().filter(|(w, _)| w == key) {
            self.admin
                .batch_execute(sql)
                .expect("the world's statement");
        }
        let code = info.code.as_deref().unwrap_or("");
        let sqls = statements(code);
        if !sqls.is_empty() {
            self.taken.insert(key.clone());
        }
        let bound = self.bound(code, sqls);
        let outcome = self.run((self.db.session)(info), &bound, &at);
        for (sql, got) in std::mem::take(&mut self.returned) {
            assert_eq!(
                Some(got),
                ids_said(&sql),
                "{at}: the ids returned by\n{sql}"
            );
            self.said += 1;
        }
        for m in info.marks.iter().filter(|m| m.kind == MarkKind::Crash) {
            self.sessions.remove(&m.lane);
        }
        if let (Some(outcome), Some((table, col))) = (outcome, self.db.counts) {
            let drawn = all_rows(trace, k, table);
            let last = drawn.last().map(|r| r[col].as_str());
            assert_eq!(
                Some(outcome.as_str()),
                last,
                "{at}: the row counts, after\n{code}"
            );
            self.counted += 1;
        }
        self.compare(trace, k, &at, code);
    }

    /// Compares each table the app draws as the database's with PostgreSQL's rows, by column
    /// name: a query's columns are named as the drawing's headers, and it describes the drawn
    /// table whose headers include its first column (a variant may draw another table under
    /// the same key, or fewer columns: the stock's version; a column no query reads, a row
    /// lock's holder, is the drawing's own).
    fn compare(&mut self, trace: &Trace, k: usize, at: &str, code: &str) {
        let view = &trace.view(k);
        let mut described = Vec::new();
        for (key, query) in self.db.tables {
            let statement = self.admin.prepare(query).expect("a table's query");
            let rows = self.admin.query(&statement, &[]).expect("read a table");
            let names: Vec<&str> = statement.columns().iter().map(|c| c.name()).collect();
            let table = view.tables.iter().find(|t| t.key == *key);
            let headers: Vec<&str> = table.map_or(Vec::new(), |t| {
                t.columns.iter().map(|c| c.en.as_str()).collect()
            });
            let at_col = |n: &str| headers.iter().position(|h| *h == n);
            // A table this variant does not draw claims nothing.
            if table.is_none() || at_col(names[0]).is_none() {
                continue;
            }
            described.push(*key);
            let cols: Vec<(usize, Option<usize>)> = names
                .iter()
                .enumerate()
                .map(|(i, n)| (i, at_col(n)))
                .collect();
            let mut got: Vec<Vec<String>> = rows
                .iter()
                .map(|r| {
                    cols.iter()
                        .filter(|c| c.1.is_some())
                        .map(|c| r.get(c.0))
                        .collect()
                })
                .collect();
            got.sort();
            let mut want: Vec<Vec<String>> = drawn(trace, k, key)
                .into_iter()
                .map(|r| {
                    cols.iter()
                        .filter_map(|c| c.1.map(|j| r[j].clone()))
                        .collect()
                })
                .collect();
            want.sort();
            self.rows += want.len();
            assert_eq!(
                got, want,
                "{at}, table {key}: PostgreSQL (left) and the drawing (right) differ after\n{code}"
            );
        }
        for t in view
            .tables
            .iter()
            .filter(|t| self.db.tables.iter().any(|d| d.0 == t.key))
        {
            assert!(
                described.contains(&t.key),
                "{at}: no query reads the drawn table {} ({:?})",
                t.key,
                t.columns.iter().map(|c| &c.en).collect::<Vec<_>>()
            );
        }
    }
}

/// Replays `trace` against a fresh database and compares every step; returns how many
/// statements ran, rows were compared, answers were compared and stated counts held, and the
/// actions whose statements ran.
fn check(cluster: &pg::Cluster, db: &Db, run: &Run) -> ([usize; 5], BTreeSet<String>) {
    let (variant, what, trace) = run;
    let mut r = Replay::new(cluster, db, variant, what);
    let waits = if db.waits {
        waits(db, trace)
    } else {
        Vec::new()
    };
    for k in 0..trace.steps.len() {
        if k > 0 {
            r.step(trace, k);
        }
        for &(_, lane, j) in waits.iter().filter(|w| w.0 == k) {
            r.wait(trace, k, lane, j);
        }
    }
    ([r.ran, r.rows, r.counted, r.said, r.waited], r.taken)
}

/// Replays every run of `db` in a cluster of its own, and holds that each replayed variant's
/// runs between them take every action that shows SQL anywhere in that variant; returns the
/// runs, the totals and the number of such actions.
fn check_all(db: &Db) -> (usize, [usize; 5], usize) {
    let cluster = pg::Cluster::start(db.slug);
    let meta = scenarios::meta(scenarios::index_of(db.slug).expect("a registered slug"));
    let shown: Vec<_> = (0..meta.variants.len()).map(db.shown).collect();
    let runs = runs(db, &shown);
    let mut total = [0; 5];
    let mut taken: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for run in &runs {
        let (n, keys) = check(&cluster, db, run);
        (0..5).for_each(|i| total[i] += n[i]);
        taken.entry(run.0).or_default().extend(keys);
    }
    let mut actions = 0;
    for (v, m) in meta.variants.iter().enumerate() {
        let Some(ran) = taken.get(m.slug) else {
            continue;
        };
        let shown = &shown[v];
        let missed: Vec<&String> = shown.keys().filter(|k| !ran.contains(*k)).collect();
        assert!(
            missed.is_empty(),
            "{} {}: no replayed run takes {missed:?}, whose SQL the app shows",
            db.slug,
            m.slug
        );
        actions += shown.len();
    }
    (runs.len(), total, actions)
}

/// The runs to replay on each variant: the default run, and every mistake's failing path
/// (by action key, so that a fix takes the same moves as far as they go).
/// A run to replay: its variant's slug, what it is, its trace.
type Run = (&'static str, String, Trace);

fn runs(db: &Db, shown: &[BTreeMap<String, Vec<String>>]) -> Vec<Run> {
    let i = scenarios::index_of(db.slug).expect("a registered slug");
    let s = scenarios::all()[i];
    let meta = s.meta();
    let failing: Vec<Vec<String>> = meta
        .variants
        .iter()
        .enumerate()
        .filter_map(|(v, m)| Some(s.trace(v, &decode_path(m.fails?).0).keys()))
        .collect();
    let explicit: Vec<Vec<String>> = (db.paths.iter())
        .map(|p| p.iter().map(|k| k.to_string()).collect())
        .collect();
    let mut out = Vec::new();
    for (v, m) in meta.variants.iter().enumerate() {
        out.push((
            m.slug,
            format!("{} {} default run", db.slug, m.slug),
            s.trace(v, &[]),
        ));
        for keys in &explicit {
            let path = s.follow(v, keys);
            assert_eq!(
                path.len(),
                keys.len(),
                "{} {}: {keys:?} not followed",
                db.slug,
                m.slug
            );
        }
        for keys in failing.iter().chain(&explicit) {
            let path = s.follow(v, keys);
            let what = format!("{} {} path {}", db.slug, m.slug, keys.join(" "));
            out.push((m.slug, what, s.trace(v, &path)));
        }
        // Every action whose SQL the variant shows somewhere: the shortest run through it,
        // unless a run above already takes it.
        let mut taken: BTreeSet<String> = (out.iter().filter(|r| r.0 == m.slug))
            .flat_map(|r| sql_taken(&r.2))
            .collect();
        for (key, keys) in shown.get(v).into_iter().flatten() {
            if taken.contains(key) {
                continue;
            }
            let trace = s.trace(v, &s.follow(v, keys));
            taken.extend(sql_taken(&trace));
            let what = format!("{} {} shortest run through {key}", db.slug, m.slug);
            out.push((m.slug, what, trace));
        }
    }
    out
}

// The report's totals pin what was compared, so that a listing that stops being found, a path
// that stops being followed or a table that stops being drawn cannot pass by comparing nothing.

/// LISTINGS.md: what the harness compared, generated from the runs themselves (rewrite it with
/// `UPDATE_LISTINGS=1 cargo test --test it sql::`).
#[test]
fn the_listings_report_is_what_the_harness_compared() {
    let mut out = String::from(
        "# Listings run for real\n\n\
         Generated by `tests/it/sql.rs` (`UPDATE_LISTINGS=1 cargo test --test it sql::`). Each run is \
         replayed in a throw-away PostgreSQL, one session per actor, executing the SQL exactly \
         as the app displays it; after every step the committed rows of each table the app \
         draws as the database's are compared with the drawing. *Answers* are the drawn \
         outcome of a statement or transaction (`remaining 100`, `UPDATE 0`, \
         `1, 0 → ROLLBACK`); *stated counts* are the row counts and returned ids a \
         listing writes in its comments (`-- 0 rows: duplicate`, `-- UPDATE 1`, `RETURNING slot;  \
         -- slots 6–10`), and a listing that summarises a loop (`-- instance-1/p1, 5 times:`) \
         runs that many times, each `$1` bound to a value its process has in hand; *waits blocked* are states in which the model holds \
         a sent statement waiting for a lock and PostgreSQL is seen blocking it \
         (`pg_blocking_pids`) until the holder ends its transaction. Every JavaScript listing \
         is loaded by Node (`tests/it/listings.rs`).\n\n\
         | scenario | actions with SQL | runs | statements | rows compared | answers | stated counts | waits blocked |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for db in DBS {
        let (runs, [ran, rows, answers, said, waited], actions) = check_all(db);
        out += &format!(
            "| {} | {actions} | {runs} | {ran} | {rows} | {answers} | {said} | {waited} |\n",
            db.slug
        );
    }
    out +=
        "\n*Actions with SQL* are the actions whose step shows SQL in some reachable state of a \
            variant (at the player's fault budget); the runs take every one of them (the default \
            run, each mistake's failing path, and the shortest run through any action those \
            miss). The other scenarios (retry-layers, backpressure, checkpoint-replay) show no \
            SQL in any reachable state.\n";
    out += &programs_report();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("LISTINGS.md");
    if std::env::var_os("UPDATE_LISTINGS").is_some() {
        std::fs::write(&path, &out).expect("write LISTINGS.md");
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        on_disk, out,
        "LISTINGS.md is not what the harness compared; run `UPDATE_LISTINGS=1 cargo test --test it sql::`"
    );
}

/// LISTINGS.md's second half: every program the app shows, and how the test suite runs it
/// against its model (`scenarios::PROGRAMS_RUN`; `tests/it/listings.rs` holds that none is left
/// out), and the narration's claims about isolation that `tests/it/sql.rs` checks.
fn programs_report() -> String {
    use effectively_once::scenarios::ProgramCheck;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenarios");
    let mut out = String::from(
        "\n## Programs\n\n| scenario | programs | run by | compared with the model |\n|---|---|---|---|\n",
    );
    for (slug, check) in scenarios::PROGRAMS_RUN {
        let dir = root.join(slug.replace('-', "_"));
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flat_map(|e| {
                let p = e.expect("entry").path();
                let js = p
                    .join("")
                    .is_dir()
                    .then(|| std::fs::read_dir(&p).ok())
                    .flatten();
                let nested: Vec<_> = js
                    .into_iter()
                    .flatten()
                    .map(|e| e.expect("entry").path())
                    .collect();
                if nested.is_empty() {
                    vec![p]
                } else {
                    nested
                }
            })
            .filter(|p| p.extension().is_some_and(|e| e == "js" || e == "py"))
            .map(|p| format!("`{}`", p.file_name().expect("a file").to_string_lossy()))
            .collect();
        files.sort();
        let (by, what) = match check {
            ProgramCheck::RunNode => (
                "Node + PostgreSQL (`tests/it/refund_cap.rs`)",
                "every step of every schedule",
            ),
            ProgramCheck::RunInstances => (
                "three Node processes + PostgreSQL (`tests/it/semaphore_scope.rs`)",
                "calls in flight and the tables at the end, one instance killed",
            ),
            ProgramCheck::RunNodeEnds => (
                "Node + PostgreSQL (`tests/it/cancellation.rs`)",
                "the tables at the end of every run Node can take",
            ),
            ProgramCheck::RunCurves => (
                "Node in virtual time (`tests/it/backpressure.rs`)",
                "queue, oldest age and totals every five seconds",
            ),
            ProgramCheck::RunPython => (
                "Python + PostgreSQL (`tests/it/duplicate_charge.rs`)",
                "the tables at the end of runs through every action",
            ),
            ProgramCheck::RunLangGraph => (
                "LangGraph, a process per life (`tests/it/checkpoint_replay.rs`)",
                "the refunds at the end of every run",
            ),
        };
        out += &format!("| {slug} | {} | {by} | {what} |\n", files.join(", "));
    }
    out += "\nIsolation, as the narration states it (`a_statement_that_waited_answers_as_the_narration_says`): \
            a conditional UPDATE and an INSERT … ON CONFLICT DO NOTHING that waited for another \
            transaction's row answer 0 rows under READ COMMITTED and fail with 40001 under \
            REPEATABLE READ.\n";
    out
}

/// Every SQL statement the app shows is replayed: the scenarios the harness does not replay
/// show none, in any reachable state of any variant.
#[test]
fn the_scenarios_not_replayed_show_no_sql() {
    fn none<S: Scenario>(scenario: S) {
        let meta = scenario.meta();
        assert!(DBS.iter().all(|d| d.slug != meta.slug));
        for (v, m) in meta.variants.iter().enumerate() {
            let shown = shown::<S>(v);
            assert!(
                shown.is_empty(),
                "{} {} shows SQL: {shown:?}",
                meta.slug,
                m.slug
            );
        }
    }
    none(RetryLayers);
    none(Backpressure);
    none(CheckpointReplay);
    assert_eq!(
        DBS.len() + 3,
        scenarios::SLUGS.len(),
        "a scenario is either replayed or named here"
    );
}

#[test]
fn a_drawing_that_disagrees_with_postgresql_fails() {
    let cluster = pg::Cluster::start("dual-write-wrong");
    let wrong = Db {
        tables: &[(
            "orders",
            "SELECT id::text, 'sent' AS status FROM orders ORDER BY id",
        )],
        ..DUAL_WRITE
    };
    let run = &runs(&DUAL_WRITE, &[])[0];
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check(&cluster, &wrong, run)
    }));
    assert!(caught.is_err(), "a wrong table passed");
}

#[test]
fn a_wait_that_postgresql_does_not_make_fails() {
    let cluster = pg::Cluster::start("refund-cap-no-wait");
    let run = runs(&REFUND_CAP, &[])
        .into_iter()
        .find(|r| r.0 == "read-then-write")
        .expect("the read-then-write default run");
    let trace = &run.2;
    // Its first statement, claimed to wait in the state before it: nothing holds a lock.
    let j = (1..trace.steps.len())
        .find(|&j| !statements(trace.steps[j].info.code.as_deref().unwrap_or("")).is_empty())
        .expect("a step with SQL");
    let lane = (REFUND_CAP.session)(&trace.steps[j].info);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut r = Replay::new(&cluster, &REFUND_CAP, run.0, &run.1);
        r.wait(trace, j - 1, lane, j);
    }));
    assert!(
        caught.is_err(),
        "a statement PostgreSQL answered passed as waiting"
    );
}

/// What a statement that waited for `holder`'s row lock answers once the holder commits, run
/// by a second session at `isolation`: its row count, or the SQLSTATE it fails with.
fn after_the_wait(
    cluster: &pg::Cluster,
    setup: &str,
    holder: &[&str],
    waiter: &str,
    isolation: &str,
) -> Result<u64, String> {
    let mut admin = cluster.connect();
    let reset = "DROP SCHEMA public CASCADE; CREATE SCHEMA public;";
    admin.batch_execute(reset).expect("reset");
    admin.batch_execute(setup).expect("the schema");
    let mut a = Session::new(cluster);
    a.client().batch_execute("BEGIN").expect("BEGIN");
    for sql in holder {
        a.client()
            .batch_execute(sql)
            .expect("the holder's statement");
    }
    let mut b = Session::new(cluster);
    let begin = format!("BEGIN ISOLATION LEVEL {isolation}");
    b.client().batch_execute(&begin).expect("BEGIN");
    b.send(waiter);
    let blocked = (0..200).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(10));
        let n: i32 = (admin.query_one("SELECT cardinality(pg_blocking_pids($1))", &[&b.pid]))
            .expect("pg_blocking_pids")
            .get(0);
        n > 0
    });
    assert!(blocked, "{waiter} did not wait for the holder");
    a.client().batch_execute("COMMIT").expect("COMMIT");
    b.answer(waiter, None).map(|(n, _)| n).map_err(|e| {
        e.code()
            .map_or_else(|| e.to_string(), |c| c.code().to_string())
    })
}

/// The narration's claims about isolation (refund cap, unknown outcome): under READ COMMITTED
/// a statement that waited for a row lock works on the row as committed; under REPEATABLE READ
/// it fails with 40001 and the request must retry.
#[test]
fn a_statement_that_waited_answers_as_the_narration_says() {
    let pg = pg::Cluster::start("isolation");
    let cap = "CREATE TABLE refunds (id int PRIMARY KEY, cap int, refunded int, reserved int);
               INSERT INTO refunds VALUES (1, 100, 0, 0);";
    let update = "UPDATE refunds SET reserved = reserved + 80
                   WHERE id = 1 AND cap - refunded - reserved >= 80";
    assert_eq!(
        after_the_wait(&pg, cap, &[update], update, "READ COMMITTED"),
        Ok(0)
    );
    assert_eq!(
        after_the_wait(&pg, cap, &[update], update, "REPEATABLE READ"),
        Err("40001".to_string())
    );
    let ops = "CREATE TABLE refund_operations (idempotency_key text PRIMARY KEY, amount int);";
    let insert = "INSERT INTO refund_operations VALUES ('idem-7f3a', 80)
                  ON CONFLICT (idempotency_key) DO NOTHING";
    assert_eq!(
        after_the_wait(&pg, ops, &[insert], insert, "READ COMMITTED"),
        Ok(0)
    );
    assert_eq!(
        after_the_wait(&pg, ops, &[insert], insert, "REPEATABLE READ"),
        Err("40001".to_string())
    );
}

#[test]
fn the_statement_splitter_keeps_sql_and_drops_the_rest() {
    let code = "SELECT a FROM t\n  WHERE b;\nbroker.publish({ key: '17' })\nCOMMIT;  -- done";
    assert_eq!(
        statements(code),
        ["SELECT a FROM t\n  WHERE b;\n", "COMMIT;  -- done\n"]
    );
    assert!(statements("inventory.consume({ id: 'e-17' })").is_empty());
    assert_eq!(
        rows_said("INSERT …\n  ON CONFLICT DO NOTHING;  -- 0 rows: duplicate"),
        Some(0)
    );
    assert_eq!(
        rows_said("UPDATE … WHERE version < 2;  -- 1 row\n"),
        Some(1)
    );
    assert_eq!(rows_said("COMMIT;  -- then resume the waiting run"), None);
    assert_eq!(
        rows_said("UPDATE t SET a = 1;   -- UPDATE 0: already final"),
        Some(0)
    );
    assert_eq!(rows_said("UPDATE t SET a = 1;   -- UPDATE 1"), Some(1));
    assert_eq!(rows_said("SELECT nextval('payment_no');  -- txn-1"), None);
    assert_eq!(
        ids_said("UPDATE … RETURNING id;  -- jobs 11–15"),
        Some(vec![11, 12, 13, 14, 15])
    );
    assert_eq!(
        ids_said("UPDATE … RETURNING slot;  -- slots 1, 3"),
        Some(vec![1, 3])
    );
    assert_eq!(
        ids_said("INSERT … RETURNING operation_id;  -- 0 rows: taken"),
        None
    );
    assert_eq!(
        ids_said("WITH op AS (… RETURNING amount) UPDATE …;  -- UPDATE 1"),
        None
    );
    assert_eq!(cell("pending (locked by relay A)"), "pending");
    assert_eq!(cell("created (uncommitted)"), "created");
}
