//! Step narration: what happened, why it matters, and the code that ran.
use super::*;
use crate::tx;

pub(super) fn describe(m: &CheckpointReplayModel, b: &CrState, a: CrAct, s: &CrState) -> StepInfo {
    let mut info = StepInfo::default();
    let cx = Cx {
        m,
        b,
        s,
        n: CheckpointReplayModel::node_name(b.node),
    };
    match a {
        CrAct::Run if b.node == 1 => cx.call_tool(&mut info),
        CrAct::Run => cx.run(&mut info),
        CrAct::Return => cx.tool_returns(&mut info),
        CrAct::Checkpoint => cx.checkpoint(&mut info),
        CrAct::Crash => cx.crash(&mut info),
        CrAct::Resume => cx.resume(&mut info),
    }
    info
}

/// What every step's narration reads: the model, the states before and after, and the name of
/// the node the run was at.
#[derive(Clone, Copy)]
struct Cx<'a> {
    m: &'a CheckpointReplayModel,
    b: &'a CrState,
    s: &'a CrState,
    n: &'static str,
}

impl Cx<'_> {
    fn call_tool(&self, info: &mut StepInfo) {
        let Cx { m, b, s, .. } = *self;
        info.lane = RUNTIME;
        let call = s.calls;
        info.code = Some(if m.variant == CrVariant::OperationId {
            format!("refund_tool(order=\"ord-1701\", amount=80, operation_id=\"{OP_ID}\")")
        } else {
            "refund_tool(order=\"ord-1701\", amount=80)".into()
        });
        let dedup = s.ledger.len() == b.ledger.len();
        let kind = if call > 1 {
            ArrowKind::Duplicate
        } else {
            ArrowKind::Message
        };
        let label = tx!("call {call}", "调用 {call}");
        info.arrow(RUNTIME, PSP, label, kind);
        if dedup {
            info.title = Text::new("tool call: deduplicated", "工具调用：已去重");
            info.mark(PSP, MarkKind::Dedup, "same op id", "同一操作 ID");
            info.narration = tx!(
                "The re-run node calls the tool again, with the same operation id {OP_ID}: the refund service has it already and returns the first refund. Nothing moves.",
                "重跑的节点再次调用工具，带着同一个操作 ID {OP_ID}：退款服务已经有了它，返回第一笔退款。钱没有再动。"
            );
        } else {
            let r = s.ledger.len();
            info.title = tx!(
                "tool call {call}: refund re_{r}",
                "工具调用 {call}：退款 re_{r}"
            );
            info.marks.push(if r > 1 {
                mark(PSP, MarkKind::Duplicate, "refund again", "再次退款")
            } else {
                mark(PSP, MarkKind::Commit, "refunded", "已退款")
            });
            info.narration = if r > 1 {
                tx!(
                    "The node runs from its first line again and calls the tool again. Without a stable id the refund service sees a new request: refund re_{r}. The checkpoint said nothing about the refund.",
                    "节点又从第一行开始运行，再次调用工具。没有稳定 ID，退款服务把它当作新请求：退款 re_{r}。检查点对这笔退款一无所知。"
                )
            } else {
                Text::new(
                    "The refund node calls the refund tool: the refund service executes refund re_1 of 80.00.",
                    "refund 节点调用退款工具：退款服务执行退款 re_1，金额 80.00。",
                )
            };
        }
    }

    fn run(&self, info: &mut StepInfo) {
        let Cx { b, n, .. } = *self;
        info.lane = RUNTIME;
        info.title = tx!("node {n} runs", "节点 {n} 运行");
        info.narration = if b.node == 0 {
            Text::new(
                "Node plan decides: refund 80.00 for ord-1701.",
                "节点 plan 决定：为 ord-1701 退款 80.00。",
            )
        } else {
            Text::new(
                "Node notify tells the customer the refund is on its way.",
                "节点 notify 告诉客户退款已在路上。",
            )
        };
    }

    fn tool_returns(&self, info: &mut StepInfo) {
        info.lane = RUNTIME;
        info.title = Text::new("node refund returns", "节点 refund 返回");
        info.narration = Text::new(
            "The tool's answer becomes the node's output; the runtime will checkpoint it next.",
            "工具的应答成为节点的输出；运行时接下来会为它保存检查点。",
        );
    }

    fn checkpoint(&self, info: &mut StepInfo) {
        let Cx { s, n, .. } = *self;
        info.lane = SAVER;
        let cp = format!("cp-{}", s.checkpoints);
        info.arrow(RUNTIME, SAVER, cp, ArrowKind::Message);
        info.mark(SAVER, MarkKind::Write, "saved", "已保存");
        info.title = tx!("checkpoint after {n}", "{n} 之后的检查点");
        info.narration = tx!(
            "Checkpoint cp-{} records that {n} finished; a resume will start at {}.",
            "检查点 cp-{} 记录 {n} 已完成；恢复时将从 {} 开始。",
            s.checkpoints,
            CheckpointReplayModel::node_name(s.node)
        );
    }

    fn crash(&self, info: &mut StepInfo) {
        let Cx { m, b, n, .. } = *self;
        info.lane = RUNTIME;
        info.title = Text::new("process crashes", "进程崩溃");
        info.mark(RUNTIME, MarkKind::Crash, "crash", "崩溃");
        let lost = if m.variant.durable() {
            Text::default()
        } else {
            info.mark(SAVER, MarkKind::Crash, "checkpoints lost", "检查点丢失");
            Text::new(
                "The in-memory saver dies with it: every checkpoint is gone.",
                "内存中的检查点存储随之消失：所有检查点都没了。",
            )
        };
        let when = if b.node == 1 && b.stage != Stage::Start {
            Text::new(
                "The process dies after the refund tool ran and before the checkpoint: the refund happened, the workflow state does not say so.",
                "进程在退款工具运行之后、检查点之前死掉：退款发生了，工作流状态却没有记下。",
            )
        } else {
            tx!(
                "The process dies during node {n}.",
                "进程在节点 {n} 运行期间死掉。"
            )
        };
        info.narration = when.then(&lost);
    }

    fn resume(&self, info: &mut StepInfo) {
        let Cx { b, s, .. } = *self;
        info.lane = RUNTIME;
        info.mark(RUNTIME, MarkKind::Restart, "resume", "恢复");
        let next = CheckpointReplayModel::node_name(s.node);
        info.title = tx!("resume at {next}", "从 {next} 恢复");
        info.narration = if b.checkpoints == 0 {
            Text::new(
                "The process restarts and finds no checkpoint for thread t-42: the run is lost, and the request is run again from its input, plan first.",
                "进程重启后找不到会话 t-42（thread_id）的检查点：这次运行丢了，请求从输入重新开始，先运行 plan。",
            )
        } else {
            tx!(
                "The process restarts and loads the latest checkpoint, cp-{}: the thread resumes at node {next}, from its first line. That cp-{} is the last node's holds with synchronous checkpoint durability (LangGraph's durability=\"sync\" writes each checkpoint before the next step starts); with \"async\" a write may still be in flight when the process dies, and the resume starts from an older checkpoint.",
                "进程重启，加载最新的检查点 cp-{}：运行从节点 {next} 的第一行恢复。cp-{} 恰好是上一个节点的检查点，这一点只在同步持久化时成立（LangGraph 的 durability=\"sync\" 会在下一步开始前写完每个检查点）；用 \"async\" 时进程死掉那一刻写入可能还在进行，恢复会从更早的检查点开始。",
                b.checkpoints,
                b.checkpoints
            )
        };
    }
}
