//! # Unknown outcomes: the refund-timeout drill
//!
//! **Setting.** A customer asks for a refund of 80.00 on order ord-1701 (refundable 100.00). The
//! API records a refund operation (`refund_operations`: operation id, the client's idempotency
//! key, a digest of the request, status, the key sent downstream, a version) and reserves the
//! amount on the order; a worker claims the operation, sends the refund to the payment provider
//! and records the answer. The provider keeps its own ledger, answers the worker, and later
//! sends a callback (webhook).
//!
//! **The bug.** A timeout is not a failure. The provider may have executed the refund and lost
//! the answer, or be slow and execute it after the worker gave up; the worker may crash after
//! sending and before saving. `mark-failed-new-key` treats the timeout as a failure: it marks
//! the operation FAILED, releases the reservation and retries with a *new* downstream key, so
//! the provider, which cannot tell the retry from a new refund, pays twice.
//!
//! **The fix.** `unknown-same-key`: a timeout (or a crash while PROCESSING) makes the outcome
//! UNKNOWN; the reservation is kept; the worker retries with the *same* key, which the provider
//! (Stripe API v1 semantics) answers by replaying the saved result, or with 409 while the first
//! request is still being processed. The callback handler only moves an operation out of
//! PROCESSING or UNKNOWN, so a late or repeated callback changes nothing.
//!
//! **Creating the operation.** When the same request arrives twice at once,
//! `check-then-insert` (SELECT by key, then INSERT) lets both pass the check: two operations,
//! two refunds. `unique-constraint` (`INSERT … ON CONFLICT (idempotency_key) DO NOTHING`)
//! creates one and returns it to both; `changed-parameters` shows the same key arriving with
//! another amount: rejected with 409, never silently rewritten.
//!
//! **The key's lifetime.** A key is a contract for as long as the provider keeps it: Stripe
//! keeps one at least 24 hours, then may prune it. In `key-expired` the same-key worker's retry
//! job runs a day later, when "the same key" is a new request: a second refund.
//! `reconcile-first` does not trust a key that old: it looks the refund up at the provider
//! first (the refund carries the operation id), resends under the same key only when no refund
//! exists a day later, and pages a person when the lookup is inconclusive. It never mints a new
//! key.
//!
//! **Four outcomes.** A send ends in one of four things the worker can know: never sent (the
//! connection was refused), definitely refused (a 4xx), a known success, or unknown (no answer
//! in time, a crash, a 409 while the first request runs). Only the first two let it act
//! without asking the provider.

use crate::sim::kit::Variants;
use crate::sim::{
    given, mark, ArrowKind, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow, MarkKind,
    Metric, Model, Notes, Present, RowRef, RowView, Scenario, ScenarioMeta, StateView, StepInfo,
    TableView, Text, Unit, VariantMeta,
};
use crate::tx;

/// What the order may still refund, and what each request asks for.
pub const REFUNDABLE: i32 = 100;
pub const AMOUNT: i32 = 80;
/// The second request's amount in `changed-parameters`.
pub const CHANGED: i32 = 50;
/// Downstream attempts (new keys) or same-key retries per operation before a human is paged.
const MAX_TRIES: u8 = 3;
/// How long the provider keeps an idempotency key at least (Stripe API v1).
pub const KEY_HOURS: u32 = 24;
const API: usize = 0;
const WORKER: usize = 1;
const DB: usize = 2;
const PSP: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum UoVariant {
    MarkFailedNewKey,
    UnknownSameKey,
    KeyExpired,
    ReconcileFirst,
    CheckThenInsert,
    UniqueConstraint,
    ChangedParameters,
}

impl UoVariant {
    pub const ALL: [UoVariant; 7] = [
        UoVariant::MarkFailedNewKey,
        UoVariant::UnknownSameKey,
        UoVariant::KeyExpired,
        UoVariant::ReconcileFirst,
        UoVariant::CheckThenInsert,
        UoVariant::UniqueConstraint,
        UoVariant::ChangedParameters,
    ];

    /// The amounts of the client's requests (one, or the same key twice at once).
    pub fn requests(self) -> &'static [i32] {
        match self {
            UoVariant::MarkFailedNewKey
            | UoVariant::UnknownSameKey
            | UoVariant::KeyExpired
            | UoVariant::ReconcileFirst => &[AMOUNT],
            UoVariant::CheckThenInsert | UoVariant::UniqueConstraint => &[AMOUNT, AMOUNT],
            UoVariant::ChangedParameters => &[AMOUNT, CHANGED],
        }
    }

    /// A timeout is a failure: release, retry under a new key; callbacks are applied blindly.
    fn naive(self) -> bool {
        self == UoVariant::MarkFailedNewKey
    }

    /// The retry job runs a day after the timeout (a nightly batch, a worker down overnight):
    /// by then the provider may have pruned the key.
    pub fn late(self) -> bool {
        matches!(self, UoVariant::KeyExpired | UoVariant::ReconcileFirst)
    }

    /// One request, one operation: the variants about what a send can end in, where the
    /// provider may refuse and a connection may fail before anything is sent. (The racing
    /// variants are about creating the operation.)
    fn single(self) -> bool {
        self.requests().len() == 1
    }
}

impl Variants for UoVariant {
    const ALL: &'static [UoVariant] = &UoVariant::ALL;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    Pending,
    Processing,
    Succeeded,
    Failed,
    Unknown,
    /// The lookup could not settle it: a person decides; the reservation stays.
    Review,
}

impl Status {
    pub fn sql(self) -> &'static str {
        match self {
            Status::Pending => "PENDING",
            Status::Processing => "PROCESSING",
            Status::Succeeded => "SUCCEEDED",
            Status::Failed => "FAILED",
            Status::Unknown => "UNKNOWN",
            Status::Review => "NEEDS_REVIEW",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Op {
    pub amount: i32,
    pub status: Status,
    /// The downstream key's attempt number (a new key per attempt in the naive variant).
    pub attempt: u8,
    /// Same-key retries sent.
    pub tries: u8,
    pub version: u8,
    /// Its key was last sent before the day passed: the provider may have pruned it.
    pub old_key: bool,
}

impl Op {
    /// Moves the operation to `status`, as every UPDATE of it does: `SET status = …, version =
    /// version + 1`.
    fn move_to(&mut self, status: Status) {
        self.status = status;
        self.version += 1;
    }
}

/// What the API answered a client request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reply {
    /// 202 with a new operation.
    Created(u8),
    /// 200 with the operation an earlier request with this key created.
    Existing(u8),
    /// 409: the key was used with other parameters.
    Conflict,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReqPc {
    Arrived,
    /// Check-then-insert: the SELECT by key ran and found this operation, or none.
    Checked(Option<u8>),
    Done(Reply),
}

/// A request to the provider: operation, downstream attempt, amount.
pub type Call = (u8, u8, i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Answer {
    Refunded,
    /// The result saved under the key, replayed.
    Replayed,
    /// 409: a request with this key is still being processed.
    InProgress,
    /// 400: the provider will not refund this charge (it is disputed), now or on a retry.
    Refused,
}

/// What the worker can know about one send: the four cases the notes tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The connection was refused: nothing reached the provider.
    NeverSent,
    /// A 4xx: the provider will not do it.
    Refused,
    /// A 200: it is done (or was, and the saved result was replayed).
    Succeeded,
    /// No answer in time, a crash, or a 409: it may or may not happen.
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Claimed,
    Sent,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UoState {
    pub reqs: Vec<ReqPc>,
    pub ops: Vec<Op>,
    pub reserved: i32,
    pub refunded: i32,
    pub worker_up: bool,
    /// The worker's memory: the operation it is working on.
    pub job: Option<(u8, Stage)>,
    /// Requests the provider has received and not yet executed, in order.
    pub queue: Vec<Call>,
    /// The provider's ledger: refunds executed, with the key they were executed under.
    pub ledger: Vec<Call>,
    /// Answers on their way to the worker.
    pub answers: Vec<(u8, u8, Answer)>,
    /// Callbacks (webhooks) on their way to the API: the operation they report.
    pub callbacks: Vec<u8>,
    /// A day has passed (late variants): the provider has pruned the keys of its first `n`
    /// refunds.
    pub day_later: Option<u8>,
    /// The provider refuses every refund of the charge (a dispute opened).
    pub disputed: bool,
    /// The worker's log of sends: operation, attempt, what it learned.
    pub log: Vec<(u8, u8, Outcome)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UoAct {
    /// Check-then-insert: `SELECT … WHERE idempotency_key = …`.
    Check(u8),
    /// Create the operation (INSERT, or INSERT … ON CONFLICT DO NOTHING) and reserve.
    Create(u8),
    Claim(u8),
    Send,
    /// The provider executes the first queued request.
    Execute,
    Receive,
    /// The worker's timeout fires after the answer was lost.
    Timeout,
    /// The fault "provider slow": the timeout fires while the request still waits at the
    /// provider, which will execute it later.
    SlowTimeout,
    /// Naive: a new attempt with a new key.
    Requeue(u8),
    /// Fixed: retry with the same key.
    Reconcile(u8),
    Callback,
    Restart,
    // Faults.
    LoseAnswer,
    Crash,
    CallbackTwice,
    /// Late variants: a day passes before the retry job runs; keys older than 24 h are pruned.
    DayPasses,
    /// Reconcile-first: ask the provider for a refund carrying the operation id.
    Lookup(u8),
    // Faults of the one-request variants.
    /// The provider answers 400: the charge is disputed.
    Refuse,
    /// The connection is refused before the request leaves.
    ConnectFails,
    /// The lookup cannot settle it (the provider's API answers 503).
    LookupFails(u8),
}

#[derive(Clone)]
pub struct UnknownOutcomeModel {
    pub variant: UoVariant,
    pub budget: u8,
}

fn op_id(o: u8) -> String {
    format!("op-{}", o + 1)
}

fn req_name(r: u8) -> &'static str {
    ["A", "B"][r as usize % 2]
}

fn money(x: i32) -> String {
    format!("{x}.00")
}

impl UnknownOutcomeModel {
    /// The key sent downstream for operation `o` at attempt `a`.
    pub fn downstream_key(&self, o: u8, a: u8) -> String {
        if self.variant.naive() {
            format!("{}-a{a}", op_id(o))
        } else {
            op_id(o)
        }
    }

    fn waiting_for(s: &UoState, o: u8) -> bool {
        s.job == Some((o, Stage::Sent))
    }

    /// The provider holds a saved result for operation `o`'s attempt `a`: it refunded under
    /// that key, and did not prune the key when the day passed.
    fn remembered(s: &UoState, o: u8, a: u8) -> bool {
        let pruned = s.day_later.unwrap_or(0) as usize;
        (s.ledger.iter().skip(pruned)).any(|&(x, y, _)| x == o && y == a)
    }

    /// The op the worker has sent and not yet heard back from, and whether its request is
    /// still queued at the provider (not executed yet).
    fn in_flight(s: &UoState) -> Option<(u8, bool)> {
        match s.job {
            Some((o, Stage::Sent)) => {
                let a = s.ops[o as usize].attempt;
                let answered = s.answers.iter().any(|&(x, y, _)| x == o && y == a);
                (!answered).then(|| (o, s.queue.iter().any(|&(x, y, _)| x == o && y == a)))
            }
            _ => None,
        }
    }

    /// The outcome of a send whose answer never came (a timeout or a crash): FAILED and the
    /// reservation released (naive), or UNKNOWN with the reservation kept.
    fn give_up_waiting(&self, s: &mut UoState, o: u8) {
        let op = &mut s.ops[o as usize];
        if op.status != Status::Processing && op.status != Status::Unknown {
            return;
        }
        if self.variant.naive() {
            op.move_to(Status::Failed);
            s.reserved -= op.amount;
        } else {
            op.move_to(Status::Unknown);
        }
    }

    /// The worker's or the callback's success: SUCCEEDED, refunded, reservation consumed.
    /// The naive handler only skips an operation already SUCCEEDED (`WHERE status <>
    /// 'SUCCEEDED'`), so a late callback revives a FAILED one; the fixed one only moves
    /// PROCESSING, UNKNOWN or NEEDS_REVIEW (`WHERE status IN (…)`: 0 rows otherwise).
    fn succeed(&self, s: &mut UoState, o: u8) -> bool {
        let naive = self.variant.naive();
        let op = &mut s.ops[o as usize];
        let applies = if naive {
            op.status != Status::Succeeded
        } else {
            // A person reviewing it is waiting for exactly this evidence.
            matches!(
                op.status,
                Status::Processing | Status::Unknown | Status::Review
            )
        };
        if applies {
            if op.status != Status::Failed {
                s.reserved -= op.amount;
            }
            op.move_to(Status::Succeeded);
            s.refunded += op.amount;
        }
        applies
    }

    /// A definite refusal: FAILED and the reservation released, safely — the provider will
    /// not refund, now or later. Guarded like a success: only PROCESSING or UNKNOWN moves.
    fn refused(&self, s: &mut UoState, o: u8) {
        let op = &mut s.ops[o as usize];
        if matches!(op.status, Status::Processing | Status::Unknown) {
            op.move_to(Status::Failed);
            s.reserved -= op.amount;
        }
    }
}

/// The transitions too long for a line of `next`, one per action.
impl UnknownOutcomeModel {
    fn on_create(&self, s: &mut UoState, r: u8) {
        let amount = self.variant.requests()[r as usize];
        let reply = match (self.variant, s.reqs[r as usize]) {
            // Check-then-insert trusts its earlier check.
            (UoVariant::CheckThenInsert, ReqPc::Checked(Some(o))) => Reply::Existing(o),
            (UoVariant::CheckThenInsert, _) => Reply::Created(s.ops.len() as u8),
            // ON CONFLICT DO NOTHING: the key's operation, if any, wins.
            _ => match s.ops.first() {
                Some(op) if op.amount == amount => Reply::Existing(0),
                Some(_) => Reply::Conflict,
                None => Reply::Created(0),
            },
        };
        if let Reply::Created(_) = reply {
            s.ops.push(Op {
                amount,
                status: Status::Pending,
                attempt: 1,
                tries: 0,
                version: 1,
                old_key: false,
            });
            s.reserved += amount;
        }
        s.reqs[r as usize] = ReqPc::Done(reply);
    }

    fn on_reconcile(&self, s: &mut UoState, o: u8) {
        let op = &mut s.ops[o as usize];
        op.tries += 1;
        op.old_key = false;
        let call = (o, op.attempt, op.amount);
        s.job = Some((o, Stage::Sent));
        if s.queue.iter().any(|&(x, y, _)| x == o && y == call.1) {
            // Stripe: a concurrent request with the same key gets 409 at once.
            s.answers.push((o, call.1, Answer::InProgress));
        } else {
            s.queue.push(call);
        }
    }

    fn on_execute(&self, s: &mut UoState) {
        let (o, at, amount) = s.queue.remove(0);
        let answer = if Self::remembered(s, o, at) {
            Answer::Replayed
        } else if s.disputed {
            Answer::Refused
        } else {
            s.ledger.push((o, at, amount));
            s.callbacks.push(o);
            Answer::Refunded
        };
        // The worker hears the answer only if it is still waiting on this request.
        if Self::waiting_for(s, o) && s.ops[o as usize].attempt == at {
            s.answers.push((o, at, answer));
        }
    }

    fn on_receive(&self, s: &mut UoState) {
        if let Some((o, _)) = s.job {
            let a = s.ops[o as usize].attempt;
            if let Some(i) = s.answers.iter().position(|&(x, y, _)| x == o && y == a) {
                let (_, _, answer) = s.answers.remove(i);
                let outcome = match answer {
                    Answer::Refunded | Answer::Replayed => {
                        self.succeed(s, o);
                        Outcome::Succeeded
                    }
                    Answer::InProgress => {
                        self.give_up_waiting(s, o);
                        Outcome::Unknown
                    }
                    Answer::Refused => {
                        self.refused(s, o);
                        Outcome::Refused
                    }
                };
                s.log.push((o, a, outcome));
            }
            s.job = None;
        }
    }

    fn on_restart(&self, s: &mut UoState) {
        s.worker_up = true;
        // Recovery: an operation left PROCESSING was sent or about to be: its outcome is
        // whatever a timeout would make it.
        for o in 0..s.ops.len() as u8 {
            let op = s.ops[o as usize];
            if op.status == Status::Processing {
                self.give_up_waiting(s, o);
                s.log.push((o, op.attempt, Outcome::Unknown));
            }
        }
    }

    /// The connection fails before the request leaves: never sent. The naive worker takes it
    /// for a failure like any other (harmless here: nothing went out); the others send again.
    fn on_connect_fails(&self, s: &mut UoState) {
        if let Some((o, _)) = given(s.job, "a claimed operation") {
            if self.variant.naive() {
                self.give_up_waiting(s, o);
            } else {
                let op = &mut s.ops[o as usize];
                op.move_to(Status::Pending);
            }
            s.log
                .push((o, s.ops[o as usize].attempt, Outcome::NeverSent));
            s.job = None;
        }
    }

    /// A day passes: every key sent so far is at least 24 hours old, and the provider has
    /// pruned the keys of the refunds it executed.
    fn on_day_passes(s: &mut UoState) {
        s.day_later = Some(s.ledger.len() as u8);
        s.ops.iter_mut().for_each(|op| op.old_key = true);
    }

    /// The lookup cannot tell and the key has expired: a person decides, reservation kept.
    fn escalate(s: &mut UoState, o: u8) {
        let op = &mut s.ops[o as usize];
        op.move_to(Status::Review);
    }

    /// The refund list is the provider's ledger, kept for good (unlike keys): a refund carrying
    /// the operation id settles it; none a day after the send means it never ran and never
    /// will, so the operation is sent again, under the same key.
    fn on_lookup(&self, s: &mut UoState, o: u8) {
        if s.ledger.iter().any(|c| c.0 == o) {
            self.succeed(s, o);
        } else {
            let op = &mut s.ops[o as usize];
            op.move_to(Status::Pending);
        }
    }
}

/// The worker's next move, for `actions`.
impl UnknownOutcomeModel {
    /// A live worker with no job claims a pending operation, else reconciles an unknown one,
    /// else requeues a failed one; with a job, it sends, receives, or times out.
    fn worker_step(&self, s: &UoState) -> Option<UoAct> {
        match s.job {
            None => {
                if let Some(o) = s.ops.iter().position(|op| op.status == Status::Pending) {
                    return Some(UoAct::Claim(o as u8));
                } else if let Some(o) = s
                    .ops
                    .iter()
                    .position(|op| op.status == Status::Unknown && op.tries < MAX_TRIES)
                {
                    return self.reconcile(s, o as u8);
                } else if let Some(o) = s
                    .ops
                    .iter()
                    .position(|op| op.status == Status::Failed && op.attempt < MAX_TRIES)
                {
                    return Some(UoAct::Requeue(o as u8));
                }
            }
            Some((_, Stage::Claimed)) => return Some(UoAct::Send),
            Some((o, Stage::Sent)) => {
                let a = s.ops[o as usize].attempt;
                if s.answers.iter().any(|&(x, y, _)| x == o && y == a) {
                    return Some(UoAct::Receive);
                } else if let Some((_, false)) = Self::in_flight(s) {
                    // The answer was lost: the timeout is what happens next.
                    return Some(UoAct::Timeout);
                }
            }
        }
        None
    }

    /// How an unknown operation is settled: the same key at once; in the late variants only
    /// after the day has passed, and in `reconcile-first` by a lookup when the key is that old.
    fn reconcile(&self, s: &UoState, o: u8) -> Option<UoAct> {
        if self.variant.late() && s.day_later.is_none() {
            None
        } else if self.variant == UoVariant::ReconcileFirst && s.ops[o as usize].old_key {
            Some(UoAct::Lookup(o))
        } else {
            Some(UoAct::Reconcile(o))
        }
    }

    /// The late variants' clock: the day passes while an operation waits UNKNOWN and nothing
    /// is in flight (by then the provider has executed or dropped what it had).
    fn day_can_pass(&self, s: &UoState) -> bool {
        let waiting = s.ops.iter().any(|op| op.status == Status::Unknown);
        self.variant.late()
            && s.day_later.is_none()
            && waiting
            && s.queue.is_empty()
            && s.job.is_none()
    }
}

impl Model for UnknownOutcomeModel {
    type State = UoState;
    type Act = UoAct;

    fn init(&self) -> UoState {
        UoState {
            reqs: vec![ReqPc::Arrived; self.variant.requests().len()],
            ops: Vec::new(),
            reserved: 0,
            refunded: 0,
            worker_up: true,
            job: None,
            queue: Vec::new(),
            ledger: Vec::new(),
            answers: Vec::new(),
            callbacks: Vec::new(),
            day_later: None,
            disputed: false,
            log: Vec::new(),
        }
    }

    fn actions(&self, s: &UoState, out: &mut Vec<UoAct>) {
        let check_first = self.variant == UoVariant::CheckThenInsert;
        // The API: every request's check before any insert, so that, by default, both checks
        // run before either insert (the race the variant is about).
        for (r, pc) in s.reqs.iter().enumerate() {
            if *pc == ReqPc::Arrived && check_first {
                out.push(UoAct::Check(r as u8));
            }
        }
        for (r, pc) in s.reqs.iter().enumerate() {
            let ready = match pc {
                ReqPc::Arrived => !check_first,
                ReqPc::Checked(_) => true,
                ReqPc::Done(_) => false,
            };
            if ready {
                out.push(UoAct::Create(r as u8));
            }
        }
        // The provider executes what it received.
        if !s.queue.is_empty() {
            out.push(UoAct::Execute);
        }
        let step = if s.worker_up {
            self.worker_step(s)
        } else {
            Some(UoAct::Restart)
        };
        out.extend(step);
        if self.day_can_pass(s) {
            out.push(UoAct::DayPasses);
        }
        if !s.callbacks.is_empty() {
            out.push(UoAct::Callback);
        }
        if !s.answers.is_empty() {
            out.push(UoAct::LoseAnswer);
        }
        if let Some((_, true)) = Self::in_flight(s) {
            out.push(UoAct::SlowTimeout);
        }
        if s.worker_up && matches!(s.job, Some((_, Stage::Sent))) {
            out.push(UoAct::Crash);
        }
        if !s.callbacks.is_empty() {
            out.push(UoAct::CallbackTwice);
        }
        self.single_faults(s, step, out);
    }

    fn is_fault(&self, a: &UoAct) -> bool {
        matches!(
            a,
            UoAct::LoseAnswer
                | UoAct::SlowTimeout
                | UoAct::Crash
                | UoAct::CallbackTwice
                | UoAct::Refuse
                | UoAct::ConnectFails
                | UoAct::LookupFails(_)
        )
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &UoState, a: &UoAct) -> UoState {
        let mut s = s.clone();
        match *a {
            UoAct::Check(r) => {
                let found = (!s.ops.is_empty()).then_some(0);
                s.reqs[r as usize] = ReqPc::Checked(found);
            }
            UoAct::Create(r) => self.on_create(&mut s, r),
            UoAct::Claim(o) => {
                let op = &mut s.ops[o as usize];
                op.move_to(Status::Processing);
                s.job = Some((o, Stage::Claimed));
            }
            UoAct::Send => {
                if let Some((o, _)) = given(s.job, "a claimed operation") {
                    let op = &mut s.ops[o as usize];
                    op.old_key = false;
                    s.queue.push((o, op.attempt, op.amount));
                    s.job = Some((o, Stage::Sent));
                }
            }
            UoAct::Reconcile(o) => self.on_reconcile(&mut s, o),
            UoAct::Requeue(o) => {
                let op = &mut s.ops[o as usize];
                op.attempt += 1;
                op.move_to(Status::Pending);
                s.reserved += op.amount;
            }
            UoAct::Execute => self.on_execute(&mut s),
            UoAct::Receive => self.on_receive(&mut s),
            UoAct::Timeout | UoAct::SlowTimeout => {
                if let Some((o, _)) = given(Self::in_flight(&s), "a call in flight") {
                    self.give_up_waiting(&mut s, o);
                    s.log.push((o, s.ops[o as usize].attempt, Outcome::Unknown));
                    s.job = None;
                }
            }
            UoAct::Callback => {
                let o = s.callbacks.remove(0);
                self.succeed(&mut s, o);
            }
            UoAct::CallbackTwice => {
                let o = s.callbacks[0];
                self.succeed(&mut s, o);
            }
            UoAct::LoseAnswer => {
                s.answers.remove(0);
            }
            UoAct::Crash => {
                s.worker_up = false;
                s.job = None;
                s.answers.clear();
            }
            UoAct::Restart => self.on_restart(&mut s),
            UoAct::DayPasses => Self::on_day_passes(&mut s),
            UoAct::Lookup(o) => self.on_lookup(&mut s, o),
            UoAct::Refuse => {
                s.disputed = true;
                self.on_execute(&mut s);
            }
            UoAct::ConnectFails => self.on_connect_fails(&mut s),
            UoAct::LookupFails(o) => Self::escalate(&mut s, o),
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<UoState>> {
        vec![
            Invariant {
                name: Text::new("refunded ≤ refundable", "已退 ≤ 可退"),
                kind: InvKind::Always,
                holds: tx!(
                    "The provider has refunded at most {}, and the database agrees.",
                    "支付方最多退了 {}，数据库也这么记。",
                    money(REFUNDABLE)
                ),
                check: over_refunded,
                rows: |s| ledger_rows(s, None),
            },
            Invariant {
                name: Text::new("at most one refund per operation", "每个操作最多一笔退款"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider's ledger holds at most one refund for each operation.",
                    "支付方账本里每个操作最多一笔退款。",
                ),
                check: refunded_twice,
                rows: |s| {
                    let twice = (0..s.ops.len() as u8)
                        .find(|&o| s.ledger.iter().filter(|c| c.0 == o).count() > 1);
                    twice.map_or_else(Vec::new, |o| ledger_rows(s, Some(o)))
                },
            },
            Invariant {
                name: Text::new(
                    "no reservation released while the outcome is unknown",
                    "结果未知时不释放预留",
                ),
                kind: InvKind::Always,
                holds: Text::new(
                    "No operation is FAILED (its 80.00 released) while the provider has refunded it or still holds its request.",
                    "没有哪个操作在支付方已经退款、或仍持有其请求时被标为 FAILED（释放预留）。",
                ),
                check: released_too_early,
                rows: |s| {
                    let failed = (s.ops.iter().enumerate()).filter(|(_, op)| op.status == Status::Failed);
                    failed.map(|(o, _)| ("ops", op_id(o as u8))).collect()
                },
            },
            Invariant {
                name: Text::new("one operation per idempotency key", "每个幂等键一个操作"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The client's key idem-7f3a has at most one row in refund_operations.",
                    "客户端的键 idem-7f3a 在 refund_operations 里最多一行。",
                ),
                check: two_operations,
                rows: |s| (0..s.ops.len() as u8).map(|o| ("ops", op_id(o))).collect(),
            },
        ]
    }
}

impl UnknownOutcomeModel {
    /// The faults of the one-request variants: the provider refuses what it would execute; the
    /// connection fails before a claimed request leaves; a lookup cannot settle it.
    fn single_faults(&self, s: &UoState, step: Option<UoAct>, out: &mut Vec<UoAct>) {
        if !self.variant.single() {
            return;
        }
        if !s.queue.is_empty() && !s.disputed {
            out.push(UoAct::Refuse);
        }
        if s.worker_up && matches!(s.job, Some((_, Stage::Claimed))) {
            out.push(UoAct::ConnectFails);
        }
        if let Some(UoAct::Lookup(o)) = step {
            out.push(UoAct::LookupFails(o));
        }
    }
}

impl Present for UnknownOutcomeModel {
    fn label(&self, s: &UoState, a: &UoAct) -> Text {
        match *a {
            UoAct::Check(r) => tx!(
                "API: {}'s SELECT by key",
                "API：{} 按键 SELECT",
                req_name(r)
            ),
            UoAct::Create(r) => tx!(
                "API: {}'s INSERT and reserve",
                "API：{} 的 INSERT 并预留",
                req_name(r)
            ),
            UoAct::Claim(o) => tx!("Worker: claim {}", "Worker：领取 {}", op_id(o)),
            UoAct::Send => Text::new("Worker: send the refund", "Worker：发送退款请求"),
            UoAct::Execute => {
                let key = self.downstream_key(s.queue[0].0, s.queue[0].1);
                tx!(
                    "Provider: process the request ({key})",
                    "支付方：处理请求（{key}）"
                )
            }
            UoAct::Receive => Text::new("Worker: read the answer", "Worker：读取应答"),
            UoAct::SlowTimeout => Text::new(
                "Provider slow: the worker times out first",
                "支付方太慢：Worker 先超时",
            ),
            UoAct::Timeout => Text::new("Worker: time out (5 s)", "Worker：超时（5 秒）"),
            UoAct::Requeue(o) => tx!(
                "Worker: retry {} with a new key",
                "Worker：用新键重试 {}",
                op_id(o)
            ),
            UoAct::Reconcile(o) => tx!(
                "Worker: retry {} with the same key",
                "Worker：用同一个键重试 {}",
                op_id(o)
            ),
            UoAct::Callback => Text::new(
                "API: receive the provider's callback",
                "API：收到支付方回调",
            ),
            UoAct::Restart => Text::new("Restart the worker", "重启 Worker"),
            UoAct::LoseAnswer => Text::new("Lose the provider's answer", "丢失支付方的应答"),
            UoAct::Crash => Text::new(
                "Crash the worker (sent, not saved)",
                "让 Worker 崩溃（已发送，未保存）",
            ),
            UoAct::CallbackTwice => Text::new("Deliver the callback twice", "回调投递两次"),
            UoAct::DayPasses => Text::new(
                "A day passes: the provider prunes old keys",
                "过了一天：支付方清除旧键",
            ),
            UoAct::Lookup(o) => tx!(
                "Worker: look {} up at the provider",
                "Worker：在支付方查询 {}",
                op_id(o)
            ),
            UoAct::Refuse => Text::new(
                "Provider refuses (400: charge disputed)",
                "支付方拒绝（400：扣款有争议）",
            ),
            UoAct::ConnectFails => Text::new(
                "Connection refused: the request never leaves",
                "连接被拒：请求没发出去",
            ),
            UoAct::LookupFails(_) => {
                Text::new("The lookup is inconclusive (503)", "查询无法确认（503）")
            }
        }
    }

    fn view(&self, s: &UoState) -> StateView {
        let mut lanes = vec![
            LaneView::process("Worker", "Worker").down_when(!s.worker_up),
            LaneView::store("Database", "数据库"),
            LaneView::store("Payment provider", "支付方"),
        ];
        // One lane per request where two requests race for one key (see `describe`).
        if self.variant.requests().len() > 1 {
            lanes.insert(0, LaneView::process("API · request B", "API · 请求 B"));
            lanes.insert(0, LaneView::process("API · request A", "API · 请求 A"));
        } else {
            lanes.insert(0, LaneView::process("API", "API"));
        }
        let provider_total: i32 = s.ledger.iter().map(|c| c.2).sum();
        let mut tables = vec![
            self.requests_table(s),
            self.ops_table(s),
            self.order_table(s),
            self.worker_table(s),
            self.log_table(s),
            self.ledger_table(s),
            self.wire_table(s),
        ];
        if self.variant.requests().len() > 1 {
            tables
                .iter_mut()
                .filter(|t| t.lane > API)
                .for_each(|t| t.lane += 1);
        }
        StateView {
            lanes,
            tables,
            metrics: vec![
                Metric::count(
                    Text::new("refunds at the provider", "支付方的退款"),
                    s.ledger.len() as u32,
                ),
                Metric::count(
                    Text::new("provider refunded", "支付方已退金额"),
                    provider_total as u32,
                ),
                Metric::count(Text::new("reserved", "已预留"), s.reserved.max(0) as u32),
            ],
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &UoState, a: &UoAct, s: &UoState) -> StepInfo {
        let mut info = narrate::describe(self, b, *a, s);
        // Two requests for one key interleave: B has a lane of its own, under A's.
        if self.variant.requests().len() > 1 {
            let b_acts = matches!(a, UoAct::Check(1) | UoAct::Create(1));
            let lane = |l: usize| match l {
                API if b_acts => API + 1,
                API => API,
                other => other + 1,
            };
            info.lane = lane(info.lane);
            info.marks.iter_mut().for_each(|m| m.lane = lane(m.lane));
            for a in &mut info.arrows {
                (a.from, a.to) = (lane(a.from), lane(a.to));
            }
        }
        info
    }

    fn intro(&self) -> Text {
        narrate::intro(self.variant)
    }
}

/// One refund was meant (one key, one intent): the refunds the provider executed and the money
/// that left, against it.
fn figure(s: &UoState) -> Figure {
    let n = s.ledger.len() as u32;
    let paid: i32 = s.ledger.iter().map(|c| c.2).sum();
    let cents = |x: i32| x.max(0) as u32 * 100;
    Figure {
        title: Text::new("Refunds at the provider", "支付方的退款"),
        name: Text::new(
            format!(
                "{n} refunds executed for one intended; {} refunded against {} meant",
                money(paid),
                money(AMOUNT)
            ),
            format!(
                "应退款 1 笔，实际执行 {n} 笔；应退 {}，实际退了 {}",
                money(AMOUNT),
                money(paid)
            ),
        ),
        body: FigureBody::Ledger(vec![
            LedgerRow {
                name: Text::new("refunds executed", "执行的退款"),
                intended: 1,
                executed: n,
                unit: Unit::Count,
            },
            LedgerRow {
                name: Text::new("money refunded", "退出的金额"),
                intended: cents(AMOUNT),
                executed: cents(paid),
                unit: Unit::Cents,
            },
            LedgerRow {
                name: Text::new(
                    "operations for the key idem-7f3a",
                    "键 idem-7f3a 对应的操作",
                ),
                intended: u32::from(!s.ops.is_empty()),
                executed: s.ops.len() as u32,
                unit: Unit::Count,
            },
        ]),
        // Every invariant here is about the one refund this key stands for.
        shows: vec![0, 1, 2, 3],
    }
}

/// The provider's ledger rows (`re-i`), all or those of operation `o`.
fn ledger_rows(s: &UoState, o: Option<u8>) -> Vec<RowRef> {
    (s.ledger.iter().enumerate())
        .filter(|(_, c)| o.is_none_or(|o| c.0 == o))
        .map(|(i, _)| ("ledger", format!("re-{i}")))
        .collect()
}

fn over_refunded(s: &UoState) -> Option<Text> {
    let at_provider: i32 = s.ledger.iter().map(|c| c.2).sum();
    let worst = at_provider.max(s.refunded);
    (worst > REFUNDABLE).then(|| {
        let (p, d) = (money(at_provider), money(s.refunded));
        tx!(
            "The provider has refunded {p} (the database says {d}) on an order with {} refundable.",
            "订单只可退 {}，支付方却已退 {p}（数据库记为 {d}）。",
            money(REFUNDABLE)
        )
    })
}

fn refunded_twice(s: &UoState) -> Option<Text> {
    (0..s.ops.len() as u8).find_map(|o| {
        let refunds: Vec<&Call> = s.ledger.iter().filter(|c| c.0 == o).collect();
        let n = refunds.len();
        (n > 1).then(|| {
            let id = op_id(o);
            if refunds.iter().all(|c| c.1 == refunds[0].1) {
                tx!(
                    "The provider executed {n} refunds for {id} under the same key: it had pruned the key before the retry.",
                    "支付方用同一个键为 {id} 执行了 {n} 笔退款：重试之前它已清除了这个键。"
                )
            } else {
                tx!(
                    "The provider executed {n} refunds for {id}: each attempt went out under a new key.",
                    "支付方为 {id} 执行了 {n} 笔退款：每次尝试都用了新键。"
                )
            }
        })
    })
}

fn released_too_early(s: &UoState) -> Option<Text> {
    s.ops.iter().enumerate().find_map(|(o, op)| {
        let o = o as u8;
        let refunded = s.ledger.iter().any(|c| c.0 == o);
        // A request still queued can yet be refunded, unless the charge is disputed: then the
        // provider refuses it too.
        let pending = !s.disputed && s.queue.iter().any(|c| c.0 == o);
        (op.status == Status::Failed && (refunded || pending)).then(|| {
            let id = op_id(o);
            let (en, zh) = if refunded {
                ("the provider had already refunded it", "支付方其实已经退款")
            } else {
                (
                    "its request was still waiting at the provider",
                    "它的请求还在支付方排队",
                )
            };
            tx!(
                "{id} was marked FAILED and its reservation released, but {en}.",
                "{id} 被标为 FAILED 并释放了预留，但{zh}。"
            )
        })
    })
}

fn two_operations(s: &UoState) -> Option<Text> {
    (s.ops.len() > 1).then(|| {
        let n = s.ops.len();
        tx!(
            "{n} operations for the key idem-7f3a: both requests passed the check before either inserted.",
            "键 idem-7f3a 对应了 {n} 个操作：两个请求都在对方插入之前通过了检查。"
        )
    })
}

impl UnknownOutcomeModel {
    fn requests_table(&self, s: &UoState) -> TableView {
        let mut t = TableView::memory("requests", Text::new("Client requests", "客户端请求"), API);
        t.columns = vec![
            Text::new("request", "请求"),
            Text::new("Idempotency-Key", "Idempotency-Key"),
            Text::new("amount", "金额"),
            Text::new("API answered", "API 的应答"),
        ];
        for (r, pc) in s.reqs.iter().enumerate() {
            let answer = match pc {
                ReqPc::Arrived => Text::new("(waiting)", "（等待中）"),
                ReqPc::Checked(None) => {
                    Text::new("checked: no operation yet", "已检查：还没有操作")
                }
                ReqPc::Checked(Some(o)) => tx!("checked: found {}", "已检查：找到 {}", op_id(*o)),
                ReqPc::Done(Reply::Created(o)) => Text::same(format!("202 {}", op_id(*o))),
                ReqPc::Done(Reply::Existing(o)) => tx!(
                    "200 {} (the existing one)",
                    "200 {}（已有的那个）",
                    op_id(*o)
                ),
                ReqPc::Done(Reply::Conflict) => Text::new(
                    "409 key reused with other parameters",
                    "409 同一个键、不同参数",
                ),
            };
            t.rows.push(RowView::new(
                req_name(r as u8).into(),
                vec![
                    Text::same(req_name(r as u8)),
                    Text::same("idem-7f3a"),
                    Text::same(money(self.variant.requests()[r])),
                    answer,
                ],
            ));
        }
        t
    }

    fn ops_table(&self, s: &UoState) -> TableView {
        let mut t = TableView::durable("ops", Text::same("refund_operations"), DB);
        t.columns = [
            "operation_id",
            "idempotency_key",
            "request_digest",
            "status",
            "downstream_key",
            "version",
        ]
        .into_iter()
        .map(Text::same)
        .collect();
        for (o, op) in s.ops.iter().enumerate() {
            let status = match op.status {
                Status::Unknown => Text::new("UNKNOWN (reconciling)", "UNKNOWN（对账中）"),
                Status::Review => Text::new(
                    "NEEDS_REVIEW (a person decides)",
                    "NEEDS_REVIEW（人工处理）",
                ),
                st => Text::same(st.sql()),
            };
            t.rows.push(RowView::new(
                op_id(o as u8),
                vec![
                    Text::same(op_id(o as u8)),
                    Text::same("idem-7f3a"),
                    Text::same(format!("h(ord-1701,{})", op.amount)),
                    status,
                    Text::same(self.downstream_key(o as u8, op.attempt)),
                    Text::same(op.version.to_string()),
                ],
            ));
        }
        t
    }

    fn order_table(&self, s: &UoState) -> TableView {
        let mut t = TableView::durable("orders", Text::same("orders"), DB);
        t.columns = ["order_id", "refundable", "reserved", "refunded"]
            .into_iter()
            .map(Text::same)
            .collect();
        t.rows.push(RowView::new(
            "ord-1701".into(),
            vec![
                Text::same("ord-1701"),
                Text::same(money(REFUNDABLE)),
                Text::same(money(s.reserved)),
                Text::same(money(s.refunded)),
            ],
        ));
        t
    }

    fn worker_table(&self, s: &UoState) -> TableView {
        let mut t = TableView::memory("worker", Text::new("Worker memory", "Worker 内存"), WORKER);
        t.lost = !s.worker_up;
        t.columns = vec![Text::new("operation", "操作"), Text::new("doing", "在做")];
        t.empty = Text::new("(idle)", "（空闲）");
        if let Some((o, stage)) = s.job {
            let doing = match stage {
                Stage::Claimed => Text::new("claimed, about to send", "已领取，准备发送"),
                Stage::Sent => Text::new(
                    "sent, waiting for the answer (5 s timeout)",
                    "已发送，等待应答（5 秒超时）",
                ),
            };
            t.rows.push(RowView::new(
                "job".into(),
                vec![Text::same(op_id(o)), doing],
            ));
        }
        t
    }

    fn ledger_table(&self, s: &UoState) -> TableView {
        let mut t = TableView::durable("ledger", Text::new("Provider ledger", "支付方账本"), PSP);
        t.columns = vec![
            Text::new("refund", "退款"),
            Text::new("key", "键"),
            Text::new("amount", "金额"),
            Text::new("saved result", "保存的结果"),
        ];
        t.empty = if s.disputed {
            Text::new(
                "(no refund: the charge is disputed)",
                "（没有退款：扣款有争议）",
            )
        } else {
            Text::new("(no refund)", "（没有退款）")
        };
        let pruned = s.day_later.unwrap_or(0) as usize;
        for (i, &(o, at, amount)) in s.ledger.iter().enumerate() {
            let saved = if i < pruned {
                tx!(
                    "key pruned after {KEY_HOURS} h",
                    "{KEY_HOURS} 小时后键已清除"
                )
            } else {
                Text::new("succeeded", "成功")
            };
            t.rows.push(RowView::new(
                format!("re-{i}"),
                vec![
                    Text::same(format!("re_{}", i + 1)),
                    Text::same(self.downstream_key(o, at)),
                    Text::same(money(amount)),
                    saved,
                ],
            ));
        }
        t
    }

    /// The worker's log: what each send ended in, as one of the four things it can know.
    fn log_table(&self, s: &UoState) -> TableView {
        let title = Text::new(
            "Worker log: what each send ended in",
            "Worker 日志：每次发送的结果",
        );
        let mut t = TableView::memory("log", title, WORKER);
        t.columns = vec![
            Text::new("send", "发送"),
            Text::new("key", "键"),
            Text::new("outcome", "结果"),
        ];
        t.empty = Text::new("(no send has ended yet)", "（还没有发送结束）");
        for (i, &(o, at, outcome)) in s.log.iter().enumerate() {
            let what = match outcome {
                Outcome::NeverSent => Text::new("never sent", "没发出去"),
                Outcome::Refused => Text::new("definitely refused (400)", "确定拒绝（400）"),
                Outcome::Succeeded => Text::new("known success (200)", "已知成功（200）"),
                Outcome::Unknown => {
                    Text::new("unknown: it may still happen", "结果未知：可能仍会执行")
                }
            };
            let key = Text::same(self.downstream_key(o, at));
            t.rows.push(RowView::new(
                format!("l-{i}"),
                vec![Text::same(format!("#{}", i + 1)), key, what],
            ));
        }
        t
    }

    fn wire_table(&self, s: &UoState) -> TableView {
        let mut t = TableView::memory("wire", Text::new("On the wire", "网络中"), PSP);
        t.columns = vec![Text::new("message", "消息"), Text::new("to", "发往")];
        t.empty = Text::new("(nothing in flight)", "（没有在途消息）");
        for (i, &(o, at, _)) in s.queue.iter().enumerate() {
            t.rows.push(RowView::new(
                format!("q-{i}"),
                vec![
                    tx!(
                        "refund request {}",
                        "退款请求 {}",
                        self.downstream_key(o, at)
                    ),
                    Text::new("provider (processing)", "支付方（处理中）"),
                ],
            ));
        }
        for (i, &(o, at, answer)) in s.answers.iter().enumerate() {
            let what = match answer {
                Answer::Refunded => Text::new("200 refunded", "200 已退款"),
                Answer::Replayed => Text::new("200 refunded (replayed)", "200 已退款（重放）"),
                Answer::InProgress => Text::new("409 in progress", "409 处理中"),
                Answer::Refused => Text::new("400 charge disputed", "400 扣款有争议"),
            };
            t.rows.push(RowView::new(
                format!("a-{i}"),
                vec![
                    what.then(&Text::same(format!("({})", self.downstream_key(o, at)))),
                    Text::same("worker"),
                ],
            ));
        }
        for (i, &o) in s.callbacks.iter().enumerate() {
            t.rows.push(RowView::new(
                format!("c-{i}"),
                vec![
                    tx!(
                        "callback: refund for {} succeeded",
                        "回调：{} 的退款成功",
                        op_id(o)
                    ),
                    Text::same("API"),
                ],
            ));
        }
        t
    }
}

mod narrate;

/// The unknown-outcome scenario: a timeout proves nothing about the other side.
pub struct UnknownOutcome;

impl UnknownOutcome {
    pub fn model(variant: UoVariant, budget: u8) -> UnknownOutcomeModel {
        UnknownOutcomeModel { variant, budget }
    }
}

impl Scenario for UnknownOutcome {
    type Model = UnknownOutcomeModel;
    type Variant = UoVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> UnknownOutcomeModel {
        Self::model(UoVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("mark-failed-new-key", ["Timeout = failed, new key", "超时即失败，换新键"],
                                 ["A timeout marks the refund FAILED, releases the reservation and retries under a new key: two refunds.",
                                  "超时就标记 FAILED、释放预留、换新键重试：两笔退款。"])
            .failing("0001", ["let the worker send the refund, then make the provider slow: the worker times out first.",
                              "让 Worker 发出退款，再让支付方变慢：Worker 先超时。"]),
            VariantMeta::fix("unknown-same-key", ["Timeout = unknown, same key", "超时即未知，同一个键"],
                             ["A timeout makes the outcome UNKNOWN: keep the reservation, retry with the same key, reconcile.",
                              "超时意味着结果未知：保留预留，用同一个键重试并对账。"])
            .hinted(["make the provider slow or ⚡ lose its answer: the refund stays UNKNOWN and the same key is retried.",
                     "让支付方变慢，或 ⚡ 让它的应答丢失：退款保持未知，用同一个键重试。"]),
            VariantMeta::mistake("key-expired", ["The same key, a day later", "同一个键，一天以后"],
                                 ["The same-key worker, but its retry job runs the next day: the provider has pruned the key, so the retry is a new refund.",
                                  "同样用同一个键重试，但重试任务第二天才跑：支付方已清除这个键，重试成了一笔新退款。"])
            .failing("00010000", ["⚡ make the provider slow so that the worker times out first; it refunds anyway, and the retry runs a day later.",
                                  "⚡ 让支付方变慢，Worker 先超时；支付方照样退款，而重试在一天后才运行。"]),
            VariantMeta::fix("reconcile-first", ["Look it up first, then escalate", "先查询，再升级人工"],
                             ["A key older than 24 h is not trusted: look the refund up at the provider, resend under the same key only if none exists, and page a person if the lookup cannot tell. Never a new key.",
                              "超过 24 小时的键不再可信：先在支付方查这笔退款；确认不存在才用同一个键重发；查不清就交给人工。绝不换新键。"])
            .hinted(["⚡ lose the answer, let a day pass, ⚡ fail the lookup: a person decides, 80.00 still reserved.",
                     "⚡ 丢失应答，过去一天，⚡ 让查询失败：交给人工，80.00 仍然预留。"]),
            VariantMeta::mistake("check-then-insert", ["Check, then insert", "先查再插"],
                                 ["The same request twice at once: both SELECTs find nothing, both INSERT: two operations.",
                                  "同一个请求同时到达两次：两个 SELECT 都没找到，两个都 INSERT：两个操作。"])
            .failing("0000", ["run both SELECTs before either INSERT.",
                              "让两个 SELECT 都在任何一个 INSERT 之前执行。"]),
            VariantMeta::fix("unique-constraint", ["Unique constraint", "唯一约束"],
                             ["INSERT … ON CONFLICT (idempotency_key) DO NOTHING: one operation, returned to both.",
                              "INSERT … ON CONFLICT (idempotency_key) DO NOTHING：只有一个操作，两个请求都拿到它。"])
            .hinted(["run both INSERTs in either order: the second finds the key taken and returns the same operation.",
                     "两个 INSERT 谁先都行：后一个发现键已存在，返回同一个操作。"]),
            VariantMeta::fix("changed-parameters", ["Same key, other amount", "同一个键，不同金额"],
                             ["The key comes back with 50.00 instead of 80.00: rejected with 409, never rewritten.",
                              "同一个键带着 50.00 而不是 80.00 再来：以 409 拒绝，绝不改写。"])
            .hinted(["send B's 50.00 under A's key: it is refused with 409.",
                     "用 A 的键发送 B 的 50.00：它会以 409 被拒绝。"]),
        ];
        ScenarioMeta {
            slug: "unknown-outcome",
            theme: Text::new("Retries, timeouts and recovery", "重试、超时与恢复"),
            title: Text::new(
                "Unknown outcomes: the refund-timeout drill",
                "未知结果：退款超时演练",
            ),
            summary: Text::new(
                "A timeout proves nothing about the other side: the refund may have happened. Mark it FAILED and retry with a new key, and the customer is refunded twice.",
                "超时不能证明对方没做：退款可能已经发生。标记失败再换新键重试，客户就会被退两次。",
            ),
            variants: variants
                .into_iter()
                .zip(UoVariant::ALL)
                .map(|(m, v)| VariantMeta {
                    fault_budget: 2,
                    fixed_by: match v {
                        UoVariant::MarkFailedNewKey => Some("unknown-same-key"),
                        UoVariant::KeyExpired => Some("reconcile-first"),
                        UoVariant::CheckThenInsert => Some("unique-constraint"),
                        _ => None,
                    },
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: None,
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["Mark a timeout UNKNOWN, not FAILED. Keep the reservation; query the provider by the stable business key, or retry with the same key and the saved request; release only when the provider confirms nothing will happen. Distinguish never sent, definitely refused, known success, and sent with an unknown outcome. A key is only as good as the provider's retention (Stripe: at least 24 h): after that, look it up first and escalate when the lookup cannot tell.",
         "把超时标为 UNKNOWN，而不是直接失败。保留预留；用稳定的业务键查询支付方，或用同一个键和已保存的请求重试；只有支付方确认不会执行时才释放。区分“没发出去”“确定拒绝”“已知成功”“发出后结果未知”。键只在支付方保留期内有效（Stripe 至少 24 小时）：过期后先查询，查不清就交给人工。"],
        ["“Can't a database transaction solve it?” A local transaction does not cover the provider's commit, and holding one open across the network settles nothing. “Call again with a fresh request?” That is a new request identity: recover the facts of the original operation first.",
         "“数据库事务不能解决吗？”本地事务覆盖不了支付方的提交，跨网络一直持有事务也解决不了不确定性。“重新发一个新请求？”那是新的请求身份：先恢复原操作的事实。"],
        ["“Retry three times on a timeout.” “Catch the error, roll back locally, and the remote refund is undone.”",
         "“超时重试三次就行。”“捕获异常后回滚本地事务，就等于远端退款撤销了。”"],
    )
}
