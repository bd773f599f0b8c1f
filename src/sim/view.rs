//! Plain view data: what the UI draws. No behaviour, no knowledge of any scenario.

use super::Text;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneView {
    pub name: Text,
    /// Durable actors (a database, a broker log) survive crashes; volatile ones are processes.
    pub durable: bool,
    /// The actor has crashed and not yet restarted.
    pub down: bool,
}

impl LaneView {
    /// A process's lane: its memory is lost when it crashes.
    pub fn process(en: &str, zh: &str) -> LaneView {
        LaneView {
            name: Text::new(en, zh),
            durable: false,
            down: false,
        }
    }

    /// A durable store's lane: a database, a broker's log.
    pub fn store(en: &str, zh: &str) -> LaneView {
        LaneView {
            durable: true,
            ..LaneView::process(en, zh)
        }
    }

    /// Drawn crashed (hatched, "⚡ down") while `down` holds.
    pub fn down_when(self, down: bool) -> LaneView {
        LaneView { down, ..self }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowView {
    /// Stable identity of the row within its table, used to tell what changed.
    pub key: String,
    pub cells: Vec<Text>,
    /// Set by the trace: the row is new or differs from the previous step.
    pub changed: bool,
    /// A row that is not yet visible to others (an uncommitted write) or otherwise provisional.
    pub faint: bool,
}

impl RowView {
    /// A committed row (not faint); the trace sets `changed`.
    pub fn new(key: String, cells: Vec<Text>) -> RowView {
        RowView {
            key,
            cells,
            changed: false,
            faint: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    pub key: &'static str,
    pub title: Text,
    /// The actor (lane index) that owns this state.
    pub lane: usize,
    pub durable: bool,
    /// Volatile state wiped by a crash: shown as lost rather than as an empty table.
    pub lost: bool,
    /// Not state at all but figures from the notes, shown beside it for reference (tagged so,
    /// neither durable nor memory).
    pub reference: bool,
    pub columns: Vec<Text>,
    pub rows: Vec<RowView>,
    /// Shown when there are no rows.
    pub empty: Text,
}

impl TableView {
    /// A durable table (a database's, a broker's): an empty table without columns, shown as
    /// "(empty)" until rows are added.
    pub fn durable(key: &'static str, title: Text, lane: usize) -> TableView {
        TableView {
            durable: true,
            ..TableView::memory(key, title, lane)
        }
    }

    /// A process's memory, drawn dashed: what a crash loses.
    pub fn memory(key: &'static str, title: Text, lane: usize) -> TableView {
        TableView {
            key,
            title,
            lane,
            durable: false,
            lost: false,
            reference: false,
            columns: Vec::new(),
            rows: Vec::new(),
            empty: Text::new("(empty)", "（空）"),
        }
    }

    /// Durable while `durable` holds (a checkpointer that is a database, or process memory).
    pub fn durable_when(self, durable: bool) -> TableView {
        TableView { durable, ..self }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StateView {
    pub lanes: Vec<LaneView>,
    pub tables: Vec<TableView>,
    /// Live operational numbers shown beside the tables (pending rows, duplicates, …).
    pub metrics: Vec<Metric>,
    /// The program the actors run, with where each of them is now.
    pub code: Option<CodeView>,
    /// Attempts nested in the attempts that made them (a retry tree); empty for most models.
    pub tree: Vec<TreeItem>,
    /// When each attempt ran, waited or timed out, on a time axis.
    pub chart: Option<SpanChart>,
    /// Quantities over time (a queue's length, the age of its oldest message) as line charts.
    pub plots: Vec<Plot>,
    /// The one quantity that decides the scenario, drawn large above the timeline.
    pub figure: Option<Figure>,
}

/// What the replay keeps of every step's view: which lanes are down (the timeline shades every
/// step's) and, for each `Oldest` metric (by its index), the keys waiting, which date the waits
/// of the steps after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    pub down: Vec<bool>,
    pub waiting: Vec<(usize, Vec<String>)>,
}

impl Kept {
    pub fn of(view: &StateView) -> Kept {
        let waiting = view.metrics.iter().enumerate();
        Kept {
            down: view.lanes.iter().map(|l| l.down).collect(),
            waiting: waiting
                .filter_map(|(i, m)| match &m.value {
                    MetricValue::Oldest { keys, .. } => Some((i, keys.clone())),
                    _ => None,
                })
                .collect(),
        }
    }
}

/// A scenario's primary figure: the quantity that decides it ("reserved 160 of a cap of 100"),
/// declared as data from a small vocabulary so that the UI draws any figure and names no
/// scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// What is measured ("Reserved against the cap").
    pub title: Text,
    /// One sentence with every number the figure shows: its accessible name.
    pub name: Text,
    pub body: FigureBody,
    /// The invariants (indices into the model's list) this figure shows: when one of them is
    /// violated, the figure is drawn in the violation style.
    pub shows: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FigureBody {
    /// A value against a limit: a bar split into who contributed to it, with the limit drawn
    /// across (reserved against the cap; calls in flight against the channel's 10).
    Meter(Meter),
    /// A multiplication: each level is every attempt of the level above times its own
    /// attempts (3 → 9 → 27), lit as the calls happen.
    Tree(Vec<Level>),
    /// What was meant against what happened, one row per kind of effect (charges intended 1,
    /// executed 2; events committed 2, published 1).
    Ledger(Vec<LedgerRow>),
    /// The state's line charts ([`StateView::plots`]), drawn large.
    Plots,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meter {
    pub value: u32,
    /// The limit the value must stay within.
    pub limit: u32,
    /// What the limit is ("cap", "channel limit").
    pub limit_name: Text,
    pub unit: Unit,
    /// Who contributed how much of `value` ("A" 80, "B" 80); empty for a plain value.
    pub parts: Vec<(Text, u32)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// "Graph framework"
    pub name: Text,
    /// Attempts made so far at this level.
    pub done: u32,
    /// Attempts the level can make at most (its attempts × the level above's).
    pub total: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerRow {
    /// "charges", "events published"
    pub name: Text,
    /// How many (or how much) should have happened.
    pub intended: u32,
    /// How many (or how much) did.
    pub executed: u32,
    pub unit: Unit,
}

/// How a figure's numbers are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unit {
    /// A whole number of things.
    #[default]
    Count,
    /// Money in cents, written with two decimals (80.00).
    Cents,
}

impl Unit {
    pub fn format(self, n: u32) -> String {
        match self {
            Unit::Count => super::grouped(n),
            Unit::Cents => format!("{}.{:02}", super::grouped(n / 100), n % 100),
        }
    }
}

/// A line chart over time in seconds: one or more series sharing a y axis, with an optional
/// limit drawn across it. Self-describing (its names are in the view), so the UI needs no
/// knowledge of what is plotted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plot {
    pub title: Text,
    /// The unit of the y axis ("orders", "s").
    pub unit: Text,
    /// The end of the x axis in seconds; fixed for a run so the curve grows into it.
    pub x_end: u32,
    /// The top of the y axis.
    pub y_max: u32,
    pub series: Vec<Series>,
    /// A horizontal line (an SLA, a limit) with its name.
    pub limit: Option<(u32, Text)>,
    /// One sentence with the numbers, for screen readers and the caption.
    pub summary: Text,
}

/// One curve: points (seconds, value) in time order. `dashed` tells series apart without colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    pub name: Text,
    pub points: Vec<(u32, u32)>,
    pub dashed: bool,
    pub tone: Tone,
}

/// One line of a call tree: an attempt, or a call it made, at its nesting depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeItem {
    pub depth: u8,
    /// "Graph framework · attempt 2 of 3"
    pub label: Text,
    /// "timed out after 5 s", in words: the tone is never the only sign.
    pub status: Text,
    pub tone: Tone,
}

/// How a tree item or a span ended, for colour and glyph; always paired with words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Still running.
    Active,
    Good,
    Bad,
    /// Waiting (a backoff) or not yet decided.
    Quiet,
}

/// Intervals over time in milliseconds, one row per actor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanChart {
    pub rows: Vec<Text>,
    pub spans: Vec<Span>,
    /// The time of this state; open spans end here.
    pub now: u32,
    /// A deadline drawn across the rows, if there is one.
    pub deadline: Option<u32>,
    /// One sentence summing the chart up, for screen readers and the caption.
    pub summary: Text,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub row: u8,
    pub start: u32,
    pub end: u32,
    pub tone: Tone,
    /// A wait (backoff) rather than work.
    pub wait: bool,
}

/// A program listing with a cursor for every actor running it (the line each one is at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeView {
    /// The file name shown above the listing.
    pub title: &'static str,
    pub text: &'static str,
    pub cursors: Vec<Cursor>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// 0-based line of `CodeView::text`.
    pub line: usize,
    /// Who is there ("A").
    pub who: String,
    /// What it is doing there ("awaiting SELECT").
    pub doing: Text,
}

/// A live number: a plain count, or how long the oldest of some items has been waiting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metric {
    pub name: Text,
    pub value: MetricValue,
}

impl Metric {
    /// A plain count: `Metric::count(tx!("queued", "排队"), n)`.
    pub fn count(name: Text, n: u32) -> Metric {
        Metric {
            name,
            value: MetricValue::Count(n),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MetricValue {
    Count(u32),
    /// The items (stable keys) waiting now. A model has no clock, so the trace fills in
    /// `since` (the step each item started waiting) and the age follows from the step.
    Oldest {
        keys: Vec<String>,
        since: Vec<usize>,
    },
}

impl MetricValue {
    pub fn oldest(keys: Vec<String>) -> MetricValue {
        MetricValue::Oldest {
            keys,
            since: Vec::new(),
        }
    }

    /// The number shown at step `step`; `None` when nothing is waiting.
    pub fn at(&self, step: usize) -> Option<u32> {
        match self {
            MetricValue::Count(n) => Some(*n),
            MetricValue::Oldest { since, .. } => {
                since.iter().min().map(|&s| step.saturating_sub(s) as u32)
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Write,
    Commit,
    Publish,
    Deliver,
    Rollback,
    Crash,
    Restart,
    Duplicate,
    Dedup,
    Respond,
    Fail,
}

impl MarkKind {
    /// Every kind, in the order a legend lists them.
    pub const ALL: [MarkKind; 11] = [
        MarkKind::Write,
        MarkKind::Commit,
        MarkKind::Publish,
        MarkKind::Deliver,
        MarkKind::Respond,
        MarkKind::Dedup,
        MarkKind::Duplicate,
        MarkKind::Rollback,
        MarkKind::Fail,
        MarkKind::Crash,
        MarkKind::Restart,
    ];

    /// What the glyph means, for the legend.
    pub fn word(self, lang: super::Lang) -> &'static str {
        let (en, zh) = match self {
            MarkKind::Write => ("write", "写入"),
            MarkKind::Commit => ("commit", "提交"),
            MarkKind::Publish => ("publish", "发布"),
            MarkKind::Deliver => ("deliver", "投递"),
            MarkKind::Rollback => ("roll back", "回滚"),
            MarkKind::Crash => ("crash", "崩溃"),
            MarkKind::Restart => ("restart", "重启"),
            MarkKind::Duplicate => ("duplicate", "重复"),
            MarkKind::Dedup => ("duplicate dropped", "重复被丢弃"),
            MarkKind::Respond => ("reply", "回复"),
            MarkKind::Fail => ("failed or refused", "失败或被拒绝"),
        };
        match lang {
            super::Lang::En => en,
            super::Lang::Zh => zh,
        }
    }

    /// The glyph drawn on the timeline; always paired with a word in text.
    pub fn glyph(self) -> &'static str {
        match self {
            MarkKind::Write => "✎",
            MarkKind::Commit => "●",
            MarkKind::Publish => "▲",
            MarkKind::Deliver => "▼",
            MarkKind::Rollback => "↺",
            MarkKind::Crash => "⚡",
            MarkKind::Restart => "⟳",
            MarkKind::Duplicate => "⇉",
            MarkKind::Dedup => "⊘",
            MarkKind::Respond => "↩",
            MarkKind::Fail => "✕",
        }
    }

    pub fn css(self) -> &'static str {
        match self {
            MarkKind::Write => "write",
            MarkKind::Commit => "commit",
            MarkKind::Publish => "publish",
            MarkKind::Deliver => "deliver",
            MarkKind::Rollback => "rollback",
            MarkKind::Crash => "crash",
            MarkKind::Restart => "restart",
            MarkKind::Duplicate => "duplicate",
            MarkKind::Dedup => "dedup",
            MarkKind::Respond => "respond",
            MarkKind::Fail => "fail",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub lane: usize,
    pub kind: MarkKind,
    pub label: Text,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    Message,
    /// A copy of something that already arrived (a redelivery, a second publish).
    Duplicate,
    /// Sent but never arrived (the receiver was unavailable, the answer was lost): drawn
    /// stopping half-way.
    Lost,
    /// What should have happened and never will (an event nobody will publish): drawn as a
    /// ghost, dashed and muted, ending in ✗ where it should have arrived.
    Ghost,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub from: usize,
    pub to: usize,
    pub label: Text,
    pub kind: ArrowKind,
    /// Set by the trace for a duplicate: which copy this is (2 for the second), counting the
    /// earlier arrows with the same label to the same lane.
    pub copy: u8,
}

/// A mark on lane `lane` for a step's narration (the scenarios' shorthand).
pub fn mark(lane: usize, kind: MarkKind, en: &str, zh: &str) -> Mark {
    Mark {
        lane,
        kind,
        label: Text::new(en, zh),
    }
}

/// An arrow from lane `from` to lane `to` for a step's narration (the scenarios' shorthand).
/// A plain string is the same in both languages (an id, a statement); words take a [`Text`].
pub fn arrow(from: usize, to: usize, label: impl Into<Text>, kind: ArrowKind) -> Arrow {
    Arrow {
        from,
        to,
        label: label.into(),
        kind,
        copy: 0,
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StepInfo {
    /// The lane of the actor that acted.
    pub lane: usize,
    /// Short name of the step for the scrubber and the timeline ("COMMIT order 17").
    pub title: Text,
    pub marks: Vec<Mark>,
    pub arrows: Vec<Arrow>,
    pub narration: Text,
    /// The SQL or code that ran, if any.
    pub code: Option<String>,
}

impl StepInfo {
    /// Marks `lane` with `kind`, labelled in both languages ([`mark`]).
    pub fn mark(&mut self, lane: usize, kind: MarkKind, en: &str, zh: &str) {
        self.marks.push(mark(lane, kind, en, zh));
    }

    /// An arrow from lane `from` to lane `to` ([`arrow`]).
    pub fn arrow(&mut self, from: usize, to: usize, label: impl Into<Text>, kind: ArrowKind) {
        self.arrows.push(arrow(from, to, label, kind));
    }
}
