//! # Checkpoint replay: workflow state saved is not a refund done once
//!
//! **Setting.** An agent graph handles a refund for order ord-1701 in three nodes: `plan`
//! (decide to refund 80.00), `refund` (call the refund tool) and `notify` (tell the customer).
//! The runtime writes a checkpoint at every node boundary, as LangGraph does after each step.
//!
//! **The bug.** A checkpoint restores the *workflow's* state, not the payment provider's. If the
//! process dies after the tool call and before the checkpoint, resuming re-runs the `refund`
//! node from its first line (LangGraph documents exactly this), and the tool refunds again
//! (`rerun-node`). With an in-memory saver, a restart loses every checkpoint: the run starts
//! over from its input, `plan` included (`in-memory-saver`).
//!
//! **The fix.** `plan` creates an operation for the user-authorised intent (`op-ord-1701-r1`),
//! kept in its checkpoint; the node's side effect carries that operation id, and the refund
//! service deduplicates by it: the re-run is harmless (`operation-id`). Three identities stay
//! apart, as the notes keep them: the run (`thread_id` t-42), each invocation of the tool (one
//! per call, re-runs included) and the operation (one per intent). The checkpoint list and the provider's ledger are drawn side by side, so
//! "the workflow saved its state" and "the refund happened once" can be told apart.

use crate::sim::kit::Variants;
use crate::sim::{
    mark, ArrowKind, CodeView, Cursor, Figure, FigureBody, InvKind, Invariant, LaneView, LedgerRow,
    MarkKind, Metric, Model, Notes, Present, RowView, Scenario, ScenarioMeta, StateView, StepInfo,
    TableView, Text, Unit, VariantMeta,
};
use crate::tx;

const RUNTIME: usize = 0;
const SAVER: usize = 1;
const PSP: usize = 2;
/// The graph's nodes, in order.
pub const NODES: [&str; 3] = ["plan", "refund", "notify"];
/// The stable operation id of the `operation-id` variant: the user-authorised intent (refund
/// 80.00 on ord-1701), created by `plan` and kept in its checkpoint. Not derived from the run:
/// a new run for the same intent finds it again, and two refunds decided in one run get two.
pub const OP_ID: &str = "op-ord-1701-r1";
/// The run's identity: LangGraph's thread_id.
pub const RUN_ID: &str = "t-42";

const PROGRAM: &str = include_str!("checkpoint_replay/graph.py");
const PROGRAM_OP_ID: &str = include_str!("checkpoint_replay/graph_operation_id.py");

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CrVariant {
    RerunNode,
    OperationId,
    InMemorySaver,
}

impl CrVariant {
    pub const ALL: [CrVariant; 3] = [
        CrVariant::RerunNode,
        CrVariant::OperationId,
        CrVariant::InMemorySaver,
    ];

    fn durable(self) -> bool {
        self != CrVariant::InMemorySaver
    }

    fn program(self) -> (&'static str, &'static str) {
        match self {
            CrVariant::OperationId => ("graph.py", PROGRAM_OP_ID),
            _ => ("graph.py", PROGRAM),
        }
    }
}

impl Variants for CrVariant {
    const ALL: &'static [CrVariant] = &CrVariant::ALL;
}

/// Where the runtime is within the current node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    Start,
    /// The refund tool has returned; the node has not.
    Called,
    /// The node returned; its checkpoint is not saved yet.
    Ran,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CrState {
    pub up: bool,
    /// The node being run (3: the run is finished).
    pub node: u8,
    pub stage: Stage,
    /// Checkpoints saved, one per finished node (a restart resumes after the last).
    pub checkpoints: u8,
    /// Refunds the provider executed (each with the tool call's number).
    pub ledger: Vec<u8>,
    /// Tool calls made, replays included.
    pub calls: u8,
    /// How many times the run started from its input.
    pub starts: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrAct {
    /// Run the current node (for `refund`: call the tool).
    Run,
    /// The refund node returns after its tool call.
    Return,
    Checkpoint,
    /// Restart the process and resume the thread.
    Resume,
    Crash,
}

#[derive(Clone)]
pub struct CheckpointReplayModel {
    pub variant: CrVariant,
    pub budget: u8,
}

impl CheckpointReplayModel {
    fn node_name(n: u8) -> &'static str {
        NODES.get(n as usize).copied().unwrap_or("END")
    }

    fn key(&self) -> Text {
        if self.variant == CrVariant::OperationId {
            Text::same(OP_ID)
        } else {
            Text::new("(none)", "（无）")
        }
    }
}

impl Model for CheckpointReplayModel {
    type State = CrState;
    type Act = CrAct;

    fn init(&self) -> CrState {
        CrState {
            up: true,
            node: 0,
            stage: Stage::Start,
            checkpoints: 0,
            ledger: Vec::new(),
            calls: 0,
            starts: 1,
        }
    }

    fn actions(&self, s: &CrState, out: &mut Vec<CrAct>) {
        if !s.up {
            out.push(CrAct::Resume);
            return;
        }
        if s.node >= 3 {
            return;
        }
        out.push(match s.stage {
            Stage::Start => CrAct::Run,
            Stage::Called => CrAct::Return,
            Stage::Ran => CrAct::Checkpoint,
        });
        out.push(CrAct::Crash);
    }

    fn is_fault(&self, a: &CrAct) -> bool {
        *a == CrAct::Crash
    }

    fn fault_budget(&self) -> u8 {
        self.budget
    }

    fn next(&self, s: &CrState, a: &CrAct) -> CrState {
        let mut s = s.clone();
        match a {
            CrAct::Run => {
                if s.node == 1 {
                    s.calls += 1;
                    let dedup = self.variant == CrVariant::OperationId && !s.ledger.is_empty();
                    if !dedup {
                        s.ledger.push(s.calls);
                    }
                    s.stage = Stage::Called;
                } else {
                    s.stage = Stage::Ran;
                }
            }
            CrAct::Return => s.stage = Stage::Ran,
            CrAct::Checkpoint => {
                s.checkpoints += 1;
                s.node += 1;
                s.stage = Stage::Start;
            }
            CrAct::Crash => {
                s.up = false;
                if !self.variant.durable() {
                    s.checkpoints = 0;
                }
            }
            CrAct::Resume => {
                s.up = true;
                s.stage = Stage::Start;
                s.node = s.checkpoints;
                if s.checkpoints == 0 {
                    s.starts += 1;
                }
            }
        }
        s
    }

    fn invariants(&self) -> Vec<Invariant<CrState>> {
        vec![
            Invariant {
                name: Text::new("refund executed at most once", "退款最多执行一次"),
                kind: InvKind::Always,
                holds: Text::new(
                    "The provider's ledger holds at most one refund for ord-1701.",
                    "支付方账本里 ord-1701 最多只有一笔退款。",
                ),
                check: refunded_twice,
                rows: |s| {
                    (0..s.ledger.len())
                        .map(|i| ("ledger", format!("re-{i}")))
                        .collect()
                },
            },
            Invariant {
                name: Text::new("the run finishes", "运行最终完成"),
                kind: InvKind::Eventually,
                holds: Text::new(
                    "The run reaches END: the customer is notified.",
                    "运行到达 END：客户收到了通知。",
                ),
                check: unfinished,
                rows: |_| Vec::new(),
            },
        ]
    }
}

impl Present for CheckpointReplayModel {
    fn label(&self, s: &CrState, a: &CrAct) -> Text {
        let n = Self::node_name(s.node);
        match a {
            CrAct::Run if s.node == 1 => Text::new(
                "Node refund: call the refund tool",
                "节点 refund：调用退款工具",
            ),
            CrAct::Run => tx!("Run node {n}", "运行节点 {n}"),
            CrAct::Return => Text::new("Node refund returns", "节点 refund 返回"),
            CrAct::Checkpoint => tx!("Save the checkpoint after {n}", "保存 {n} 之后的检查点"),
            CrAct::Resume => Text::new(
                "Restart the process and resume the thread",
                "重启进程并按 thread_id 恢复运行",
            ),
            CrAct::Crash => Text::new("Crash the process", "让进程崩溃"),
        }
    }

    fn view(&self, s: &CrState) -> StateView {
        let saver = if self.variant.durable() {
            LaneView::store("Checkpointer · PG", "检查点 · PG")
        } else {
            LaneView::process("Checkpointer · memory", "检查点 · 内存").down_when(!s.up)
        };
        let lanes = vec![
            LaneView::process("Graph runtime", "图运行时").down_when(!s.up),
            saver,
            LaneView::store("Refund service", "退款服务"),
        ];
        StateView {
            lanes,
            tables: vec![
                self.checkpoints_table(s),
                self.ledger_table(s),
                self.identities_table(s),
                self.runtime_table(s),
            ],
            metrics: vec![
                Metric::count(Text::new("checkpoints", "检查点"), s.checkpoints as u32),
                Metric::count(
                    Text::new("refund tool calls", "退款工具调用"),
                    s.calls as u32,
                ),
                Metric::count(
                    Text::new("refunds executed", "已执行的退款"),
                    s.ledger.len() as u32,
                ),
            ],
            code: Some(self.code(s)),
            figure: Some(figure(s)),
            ..StateView::default()
        }
    }

    fn describe(&self, b: &CrState, a: &CrAct, s: &CrState) -> StepInfo {
        narrate::describe(self, b, *a, s)
    }

    fn intro(&self) -> Text {
        let base = Text::new(
            "An agent graph refunds order ord-1701: plan → refund (calls the refund tool) → notify. A checkpoint is saved after every node.",
            "一个 Agent 图为订单 ord-1701 退款：plan → refund（调用退款工具）→ notify。每个节点之后保存一个检查点。",
        );
        base.then(&match self.variant {
            CrVariant::RerunNode => Text::new(
                "Crash the process after the tool call, before the checkpoint, and resume.",
                "在工具调用之后、检查点之前让进程崩溃，然后恢复。",
            ),
            CrVariant::OperationId => Text::new(
                "plan creates the operation op-ord-1701-r1 for the intent (refund 80.00 on ord-1701) and its checkpoint keeps it; the tool call carries that operation id, and the refund service deduplicates by it. The run (t-42), each tool invocation and the operation are three identities. Crash it at the same point.",
                "plan 为业务意图（为 ord-1701 退款 80.00）创建操作 op-ord-1701-r1，并由它的检查点保存；工具调用带着这个操作 ID，退款服务按它去重。运行（t-42）、每一次工具调用、操作，是三种不同的身份。在同一个位置让它崩溃。",
            ),
            CrVariant::InMemorySaver => Text::new(
                "The checkpointer is an InMemorySaver: it lives and dies with the process.",
                "检查点存储是 InMemorySaver：它与进程同生共死。",
            ),
        })
    }
}

/// The refund the workflow meant (one) against the refunds the service executed, and the tool
/// calls that carried them.
fn figure(s: &CrState) -> Figure {
    let (n, calls) = (s.ledger.len() as u32, u32::from(s.calls));
    Figure {
        title: Text::new(
            "Refunds the workflow meant, and made",
            "工作流想要的退款与实际的退款",
        ),
        name: tx!(
            "{n} refunds executed for the one the workflow meant, in {calls} refund tool calls",
            "工作流只想退款 1 笔，实际执行了 {n} 笔，共 {calls} 次退款工具调用"
        ),
        body: FigureBody::Ledger(vec![LedgerRow {
            name: Text::new("refunds executed", "执行的退款"),
            intended: 1,
            executed: n,
            unit: Unit::Count,
        }]),
        shows: vec![0],
    }
}

fn refunded_twice(s: &CrState) -> Option<Text> {
    let n = s.ledger.len();
    (n > 1).then(|| {
        tx!(
            "The provider executed {n} refunds for ord-1701: resuming re-ran the refund node, and the tool had no stable id.",
            "支付方为 ord-1701 执行了 {n} 笔退款：恢复时重跑了 refund 节点，而工具调用没有稳定 ID。"
        )
    })
}

fn unfinished(s: &CrState) -> Option<Text> {
    (s.node < 3).then(|| {
        let n = CheckpointReplayModel::node_name(s.node);
        tx!(
            "The run has not reached END; it is at node {n}.",
            "运行尚未到达 END；停在节点 {n}。"
        )
    })
}

impl CheckpointReplayModel {
    fn checkpoints_table(&self, s: &CrState) -> TableView {
        let title = Text::new(
            "Checkpoints of thread t-42",
            "会话 t-42（thread_id）的检查点",
        );
        let mut t =
            TableView::memory("checkpoints", title, SAVER).durable_when(self.variant.durable());
        t.lost = !self.variant.durable() && !s.up;
        t.columns = vec![
            Text::same("checkpoint"),
            Text::new("after node", "之后的节点"),
            Text::new("next", "下一个"),
        ];
        t.empty = Text::new(
            "(none: a resume starts from the input)",
            "（无：恢复时从输入重新开始）",
        );
        for c in 0..s.checkpoints {
            t.rows.push(RowView::new(
                format!("cp-{c}"),
                vec![
                    Text::same(format!("cp-{}", c + 1)),
                    Text::same(Self::node_name(c)),
                    Text::same(Self::node_name(c + 1)),
                ],
            ));
        }
        t
    }

    /// The run, the tool's invocations and the operation: three identities, three lifetimes.
    fn identities_table(&self, s: &CrState) -> TableView {
        let mut t = TableView::memory("identities", Text::new("Identities", "三种身份"), RUNTIME);
        t.columns = vec![
            Text::new("identity", "身份"),
            Text::new("value", "值"),
            Text::new("lives as long as", "生命周期"),
        ];
        let invocation = match s.calls {
            0 => Text::new("(no call yet)", "（尚未调用）"),
            n => Text::same(format!("inv-{n}")),
        };
        let op = if self.variant == CrVariant::OperationId && s.checkpoints > 0 {
            Text::same(OP_ID)
        } else {
            Text::new("(none)", "（无）")
        };
        let row = |key: &str, name: Text, value: Text, life: Text| {
            RowView::new(key.into(), vec![name, value, life])
        };
        t.rows = vec![
            row(
                "run",
                Text::new("run (thread_id)", "运行（thread_id）"),
                Text::same(RUN_ID),
                Text::new("this run of the graph", "这一次图的运行"),
            ),
            row(
                "invocation",
                Text::new("tool invocation", "工具调用"),
                invocation,
                Text::new(
                    "one call; a re-run is a new one",
                    "一次调用；重跑就是新的一次",
                ),
            ),
            row(
                "operation",
                Text::new("operation id", "操作 ID"),
                op,
                Text::new(
                    "the intent: refund 80.00 on ord-1701",
                    "业务意图：为 ord-1701 退款 80.00",
                ),
            ),
        ];
        t
    }

    fn ledger_table(&self, s: &CrState) -> TableView {
        let mut t = TableView::durable(
            "ledger",
            Text::new("Refund service ledger", "退款服务账本"),
            PSP,
        );
        t.columns = vec![
            Text::new("refund", "退款"),
            Text::new("tool call", "工具调用"),
            Text::new("operation id", "操作 ID"),
            Text::new("amount", "金额"),
        ];
        t.empty = Text::new("(no refund)", "（没有退款）");
        for (i, &call) in s.ledger.iter().enumerate() {
            t.rows.push(RowView::new(
                format!("re-{i}"),
                vec![
                    Text::same(format!("re_{}", i + 1)),
                    Text::same(format!("#{call}")),
                    self.key(),
                    Text::same("80.00"),
                ],
            ));
        }
        t
    }

    fn runtime_table(&self, s: &CrState) -> TableView {
        let mut t = TableView::memory(
            "runtime",
            Text::new("Runtime memory", "运行时内存"),
            RUNTIME,
        );
        t.lost = !s.up;
        t.columns = vec![Text::new("node", "节点"), Text::new("state", "状态")];
        if s.node < 3 {
            t.rows.push(RowView::new(
                "now".into(),
                vec![Text::same(Self::node_name(s.node)), self.doing(s)],
            ));
        } else {
            t.rows.push(RowView::new(
                "now".into(),
                vec![Text::same("END"), Text::new("finished", "已完成")],
            ));
        }
        t
    }

    fn doing(&self, s: &CrState) -> Text {
        match (s.node, s.stage) {
            (_, Stage::Start) => Text::new("about to run", "即将运行"),
            (1, Stage::Called) => {
                Text::new("tool returned; node not finished", "工具已返回；节点未完成")
            }
            _ => Text::new("returned; checkpoint not saved", "已返回；检查点未保存"),
        }
    }

    fn code(&self, s: &CrState) -> CodeView {
        let (title, text) = self.variant.program();
        let find = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap_or(0);
        let line = match (s.node, s.stage) {
            (0, _) => find("def plan"),
            (1, Stage::Start) => find("def refund_node"),
            (1, Stage::Called) => find("refund_tool("),
            (1, Stage::Ran) => find("return {\"refund_id\""),
            (2, _) => find("def notify"),
            _ => find("compile("),
        };
        let doing = if !s.up {
            Text::new("crashed", "已崩溃")
        } else if s.node >= 3 {
            Text::new("finished", "已完成")
        } else {
            self.doing(s)
        };
        CodeView {
            title,
            text,
            cursors: vec![Cursor {
                line,
                who: "R".into(),
                doing,
            }],
        }
    }
}

mod narrate;

/// The checkpoint-replay scenario.
pub struct CheckpointReplay;

impl CheckpointReplay {
    pub fn model(variant: CrVariant, budget: u8) -> CheckpointReplayModel {
        CheckpointReplayModel { variant, budget }
    }
}

impl Scenario for CheckpointReplay {
    type Model = CheckpointReplayModel;
    type Variant = CrVariant;

    fn model_of(variant: usize, budget: Option<u8>, _knobs: &[u32]) -> CheckpointReplayModel {
        Self::model(CrVariant::at(variant), budget.unwrap_or(2))
    }

    fn meta(&self) -> ScenarioMeta {
        let variants = [
            VariantMeta::mistake("rerun-node", ["Resume re-runs the node", "恢复时重跑节点"],
                                 ["A crash after the tool call, before the checkpoint: resume runs the refund node again, and it refunds again.",
                                  "工具调用之后、检查点之前崩溃：恢复时再次运行 refund 节点，又退了一次。"])
            .failing("000100", ["let the refund tool run, then ⚡ crash before the checkpoint, and resume.",
                                "让退款工具执行，然后在检查点之前 ⚡ 让进程崩溃，再恢复。"]),
            VariantMeta::fix("operation-id", ["Stable operation id", "稳定操作 ID"],
                             ["plan creates op-ord-1701-r1 for the intent; the tool call carries it and the refund service deduplicates: the re-run is harmless.",
                              "plan 为业务意图创建 op-ord-1701-r1；工具调用带着它，退款服务据此去重：重跑无害。"])
            .hinted(["⚡ crash after the tool call and resume: the node runs again, the refund does not.",
                     "在工具调用之后 ⚡ 让进程崩溃并恢复：节点再跑一次，退款不会再发生。"]),
            VariantMeta::mistake("in-memory-saver", ["In-memory saver", "内存检查点"],
                                 ["The checkpoints live in the process: a restart loses the run, which starts over and refunds again.",
                                  "检查点存在进程内存里：重启就丢了这次运行，从头再来，又退一次。"])
            .failing("00010000", ["let the refund tool run, then ⚡ crash: the checkpoints go with the process.",
                                  "让退款工具执行，然后 ⚡ 让进程崩溃：检查点随进程一起丢失。"]),
        ];
        ScenarioMeta {
            slug: "checkpoint-replay",
            theme: Text::new("Retries, timeouts and recovery", "重试、超时与恢复"),
            title: Text::new(
                "Checkpoint replay: saved state is not a refund done once",
                "检查点重放：状态已保存 ≠ 退款只做一次",
            ),
            summary: Text::new(
                "A checkpoint restores the workflow, not the payment provider: a node re-run after a crash calls its tool again.",
                "检查点恢复的是工作流，而不是支付方：崩溃后重跑的节点会再次调用它的工具。",
            ),
            variants: variants
                .into_iter()
                .map(|m| VariantMeta {
                    fault_budget: 2,
                    fixed_by: (!m.fixed).then_some("operation-id"),
                    ..m
                })
                .collect(),
            knobs: Vec::new(),
            moves_heading: Some(Text::new("The agent graph's next step", "Agent 图的下一步")),
        }
    }
}

/// Speaker notes for presenting this scenario. Not part of `meta()`: the page fetches them on
/// demand from `notes.json`, which `content::notes_json` writes (see `content`).
pub(crate) fn notes() -> Notes {
    Notes::new(
        ["A checkpoint saves the graph's state at a node boundary, not the process at an arbitrary instruction. On resume the node runs again from its first line, so side effects before the checkpoint can repeat; an in-memory saver does not survive a restart. Make the irreversible call a step with a stable business id: “workflow state saved” and “refund happened once” are two different guarantees.",
         "检查点保存的是图在节点边界上的状态，而不是进程在任意指令处的状态。恢复时节点从第一行重新运行，所以检查点之前的副作用可能重复；内存检查点扛不住重启。把不可逆调用做成带稳定业务 ID 的步骤：“工作流状态已保存”与“退款只发生一次”是两个不同的保证。"],
        ["“And Temporal?” Workflows replay their history and must be deterministic; network calls go into activities, which may be retried and must be idempotent. “The node succeeded but the process died before the checkpoint?” It may run again: a success flag in memory is not a commit.",
         "“Temporal 呢？”工作流按历史重放，要求代码确定性；网络调用放进 Activity，它可能重试，必须幂等。“节点成功了但在检查点前崩溃？”可能再执行一次：内存里的成功标记不是事务提交。"],
        ["“A checkpoint is exactly-once.” “Resume continues right after the interrupt.”",
         "“checkpoint 就是 exactly-once。”“恢复时从 interrupt 后面那一行直接接着执行。”"],
    )
}
