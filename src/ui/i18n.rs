//! The interface's own words in English and Chinese. Scenario text comes from the engine.

use crate::sim::Lang;

pub struct Ui {
    pub tagline: &'static str,
    pub scenario: &'static str,
    pub variant: &'static str,
    pub language: &'static str,
    pub copy_link: &'static str,
    pub link_copied: &'static str,
    pub copy_failed: &'static str,
    pub play: &'static str,
    pub pause: &'static str,
    pub step_back: &'static str,
    pub step_forward: &'static str,
    pub go_start: &'static str,
    pub go_end: &'static str,
    pub speed: &'static str,
    pub position: &'static str,
    pub timeline: &'static str,
    pub invariants: &'static str,
    pub holds: &'static str,
    pub pending: &'static str,
    pub always: &'static str,
    pub eventually: &'static str,
    /// What "always" and "eventually" ask, for the word's tooltip.
    pub always_means: &'static str,
    pub eventually_means: &'static str,
    pub narration: &'static str,
    pub code: &'static str,
    /// Under a step's SQL, for the variants whose SQL the listing harness runs.
    pub sql_checked: &'static str,
    /// Under a program the test suite runs against the model on every schedule
    /// (`scenarios::PROGRAMS_RUN`), and under one it only loads.
    /// Under a program, what the test suite ran it against, by `scenarios::ProgramCheck`.
    pub program_checked: [&'static str; 6],
    /// The next moves' heading when the scenario names none (`ScenarioMeta::moves_heading`).
    pub next_moves: &'static str,
    pub next_moves_hint: &'static str,
    pub faults: &'static str,
    pub faults_none: &'static str,
    pub state: &'static str,
    pub durable: &'static str,
    pub reference: &'static str,
    /// Above a program listing: who runs it.
    pub program: &'static str,
    /// Before and after a line number ("line 9", "第 9 行").
    pub line: [&'static str; 2],
    pub knobs: &'static str,
    pub embed: &'static str,
    pub close: &'static str,
    pub open_full: &'static str,
    pub knobs_hint: &'static str,
    pub knobs_reset: &'static str,
    pub export: &'static str,
    pub present: &'static str,
    pub quiz: &'static str,
    pub home_link: &'static str,
    pub home_title: &'static str,
    /// Text fetched on demand (the quiz, the speaker notes), while it loads.
    pub loading: &'static str,
    pub try_again: &'static str,
    pub notes_say: &'static str,
    pub notes_follow: &'static str,
    pub notes_avoid: &'static str,
    /// The call tree and time axis (`ui::calls`).
    pub calls: &'static str,
    pub call_tree: &'static str,
    pub deadline: &'static str,
    pub deadline_line: &'static str,
    pub deadline_later: &'static str,
    pub span_ok: &'static str,
    pub span_failed: &'static str,
    pub span_no_answer: &'static str,
    pub span_backoff: &'static str,
    pub span_running: &'static str,
    pub volatile: &'static str,
    pub lost: &'static str,
    pub changed: &'static str,
    pub dismiss: &'static str,
    pub notice: &'static str,
    pub fixed: &'static str,
    pub default_move: &'static str,
    pub down: &'static str,
    pub keys: &'static str,
    pub explorer: &'static str,
    pub explore: &'static str,
    pub exploring: &'static str,
    pub cancel: &'static str,
    pub truncated: &'static str,
    pub compare_with: &'static str,
    pub differs: &'static str,
    pub break_it: &'static str,
    pub start_over: &'static str,
    pub legend: &'static str,
    pub lg_message: &'static str,
    pub lg_duplicate: &'static str,
    pub lg_lost: &'static str,
    pub lg_ghost: &'static str,
    pub lg_down: &'static str,
    pub lg_violation: &'static str,
    pub wide_columns: &'static str,
    pub overview_hint: &'static str,
    pub more: &'static str,
    pub less: &'static str,
    pub run_over: &'static str,
    pub run_over_hint: &'static str,
    pub intended: &'static str,
    pub executed: &'static str,
    pub missing: &'static str,
    pub extra: &'static str,
    pub figure: &'static str,
    pub unchanged: &'static str,
    pub violated: &'static str,
    pub more_actions: &'static str,
    pub watch_fail: &'static str,
    pub try_this: &'static str,
}

pub const EN: Ui = Ui {
    tagline: "See why exactly-once is not free",
    scenario: "Scenario",
    variant: "Variant",
    language: "Language",
    copy_link: "Copy link",
    link_copied: "Link copied to the clipboard.",
    copy_failed: "Could not copy; the address bar holds the same link.",
    play: "Play",
    pause: "Pause",
    step_back: "Step back",
    step_forward: "Step forward",
    go_start: "Go to start",
    go_end: "Go to end",
    speed: "Speed",
    position: "Timeline position",
    timeline: "Timeline",
    invariants: "Invariants",
    holds: "holds",
    pending: "pending",
    always: "always",
    eventually: "eventually",
    always_means: "always: must hold at every step",
    eventually_means: "eventually: must hold once nothing is left to happen",
    narration: "What just happened",
    code: "Code that ran",
    sql_checked: "✓ This SQL runs as shown in PostgreSQL 15 in the test suite, which compares the tables drawn here.",
    program_checked: [
        "✓ Run as shown in the test suite (Node, PostgreSQL 15): every schedule agrees with this model, step by step.",
        "✓ Run as shown in the test suite as three Node processes (PostgreSQL 15), one killed: they end as this model does.",
        "✓ Run as shown in the test suite (Node, PostgreSQL 15): every run Node can take ends as this model does.",
        "✓ Run as shown in the test suite (Node, virtual time): its curves match this model's every five seconds.",
        "✓ Run as shown in the test suite (Python, PostgreSQL 15): runs through every action end as this model does.",
        "✓ Run as shown in the test suite (LangGraph, a crash kills the process): every run refunds as this model does.",
    ],
    next_moves: "You are the scheduler",
    next_moves_hint: "Pick what happens next; Step forward takes the first.",
    faults: "Inject a fault",
    faults_none: "No fault can be injected at this step.",
    state: "State",
    durable: "durable",
    reference: "from the notes",
    program: "The code that runs:",
    line: ["line ", ""],
    knobs: "The numbers",
    embed: "Embed",
    close: "Close",
    open_full: "Open full view ↗",
    knobs_hint: "Change them and the run replays with the same choices.",
    knobs_reset: "Back to the defaults",
    export: "Export",
    present: "Present",
    quiz: "Quiz",
    home_link: "All scenarios",
    home_title: "Effectively Once: see why exactly-once is not free",
    loading: "Loading…",
    try_again: "Try again",
    notes_say: "Say",
    notes_follow: "Follow-up questions",
    notes_avoid: "Don't say",
    calls: "Calls and attempts",
    call_tree: "Call tree",
    deadline: "· dashed line: deadline",
    deadline_line: "",
    deadline_later: "(beyond the axis)",
    span_ok: "succeeded",
    span_failed: "failed (or refunded without the caller knowing)",
    span_no_answer: "no effect",
    span_backoff: "backoff",
    span_running: "running",
    volatile: "memory",
    lost: "⚡ lost in the crash",
    changed: "changed",
    dismiss: "Dismiss",
    notice: "Notice",
    fixed: "fix",
    default_move: "default",
    down: "down",
    keys: "Keys: Space play/pause · ←/→ step · Home/End · F inject the first fault · 1–9 take a move",
    explorer: "Explorer",
    explore: "Explore every run",
    exploring: "Exploring…",
    cancel: "Cancel",
    truncated: "The bounds cut the exploration short: the verdicts cover only the states reached.",
    compare_with: "Compare side by side with",
    differs: "differs",
    break_it: "Break it",
    start_over: "Start over",
    legend: "Legend",
    lg_message: "message",
    lg_duplicate: "duplicate, with which copy it is",
    lg_lost: "lost on the way",
    lg_ghost: "should have happened, never did",
    lg_down: "actor down",
    lg_violation: "step where an invariant broke, joined to its cause ⚡",
    wide_columns: "Wide columns",
    overview_hint: "The whole run: faults, violations and the steps shown.",
    more: "More",
    less: "Less",
    run_over: "The run is over.",
    run_over_hint: "Start over, or go back to an earlier step and pick another move: the run forks from there.",
    intended: "expected",
    executed: "happened",
    missing: "missing",
    extra: "extra",
    figure: "What decides it",
    unchanged: "unchanged",
    violated: "violated",
    more_actions: "More actions",
    watch_fail: "Watch it fail",
    try_this: "Try:",
};

pub const ZH: Ui = Ui {
    tagline: "看清“恰好一次”的代价",
    scenario: "场景",
    variant: "方案",
    language: "语言",
    copy_link: "复制链接",
    link_copied: "链接已复制到剪贴板。",
    copy_failed: "无法复制；地址栏中就是同一个链接。",
    play: "播放",
    pause: "暂停",
    step_back: "后退一步",
    step_forward: "前进一步",
    go_start: "回到开头",
    go_end: "跳到结尾",
    speed: "速度",
    position: "时间轴位置",
    timeline: "时间轴",
    invariants: "不变量",
    holds: "成立",
    pending: "待定",
    always: "始终",
    eventually: "最终",
    always_means: "始终：每一步都必须成立",
    eventually_means: "最终：所有动作都结束后必须成立",
    narration: "刚刚发生了什么",
    code: "执行的代码",
    sql_checked: "✓ 这段 SQL 在测试套件中按原样于 PostgreSQL 15 执行，并与这里画出的表格比对。",
    program_checked: [
        "✓ 测试套件按原样运行（Node + PostgreSQL 15）：每种调度的每一步都与模型一致。",
        "✓ 测试套件按原样以三个 Node 进程对 PostgreSQL 15 运行，杀掉其中一个：结局与模型一致。",
        "✓ 测试套件按原样运行（Node + PostgreSQL 15）：Node 可能走的每种运行，结局都与模型一致。",
        "✓ 测试套件按原样以虚拟时间在 Node 中运行：每五秒的曲线都与模型一致。",
        "✓ 测试套件按原样运行（Python + PostgreSQL 15）：覆盖每个动作的运行，结局都与模型一致。",
        "✓ 测试套件按原样在 LangGraph 下运行，每次崩溃都是进程终止：每种运行的退款都与模型一致。",
    ],
    next_moves: "由你来调度",
    next_moves_hint: "选择接下来发生什么；“前进一步”选第一个。",
    faults: "注入故障",
    faults_none: "这一步无法注入故障。",
    state: "状态",
    durable: "持久",
    reference: "出自笔记",
    program: "运行的代码：",
    line: ["第 ", " 行"],
    knobs: "参数",
    embed: "嵌入",
    close: "关闭",
    open_full: "打开完整视图 ↗",
    knobs_hint: "修改后会用同样的选择重放这次运行。",
    knobs_reset: "恢复默认值",
    export: "导出",
    present: "演示",
    quiz: "测验",
    home_link: "全部场景",
    home_title: "Effectively Once：看清“恰好一次”的代价",
    loading: "加载中…",
    try_again: "重试",
    notes_say: "口述答案",
    notes_follow: "追问怎么接",
    notes_avoid: "不要这样答",
    calls: "调用与尝试",
    call_tree: "调用树",
    deadline: "· 虚线：截止时间",
    deadline_line: "",
    deadline_later: "（在坐标轴之外）",
    span_ok: "成功",
    span_failed: "失败，或退款了但调用方不知道",
    span_no_answer: "无效果",
    span_backoff: "退避",
    span_running: "运行中",
    volatile: "内存",
    lost: "⚡ 随崩溃丢失",
    changed: "已变化",
    dismiss: "关闭",
    notice: "提示",
    fixed: "修复",
    default_move: "默认",
    down: "已宕机",
    keys: "按键：空格 播放/暂停 · ←/→ 单步 · Home/End · F 注入第一个故障 · 1–9 选择动作",
    explorer: "穷举检查",
    explore: "检查所有运行",
    exploring: "正在检查…",
    cancel: "取消",
    truncated: "达到了探索上限：结论只覆盖已到达的状态。",
    compare_with: "并排对比：",
    differs: "不同",
    break_it: "挑战：找反例",
    start_over: "重新开始",
    legend: "图例",
    lg_message: "消息",
    lg_duplicate: "重复消息，标出是第几份",
    lg_lost: "途中丢失",
    lg_ghost: "本该发生，却从未发生",
    lg_down: "参与者宕机",
    lg_violation: "不变量被破坏的那一步，连到原因 ⚡",
    wide_columns: "宽列",
    overview_hint: "整个运行：故障、违反之处与当前显示的步骤。",
    more: "更多",
    less: "收起",
    run_over: "运行已结束。",
    run_over_hint: "可以重新开始，或回到更早的一步选另一个动作：运行会从那里分叉。",
    intended: "应有",
    executed: "实际",
    missing: "缺失",
    extra: "多出",
    figure: "关键数字",
    unchanged: "未变",
    violated: "被违反",
    more_actions: "更多操作",
    watch_fail: "看它如何出错",
    try_this: "试试：",
};

/// Declares a part's own words: a struct of them, its values in English and Chinese, and `$get`,
/// which picks the language's. Apart from [`Ui`] so that only that part's code reads them, and
/// the split build moves them into the part's module with it.
macro_rules! words {
    ($(#[$doc:meta])* $name:ident, $get:ident { $($(#[$fdoc:meta])* $field:ident: $en:literal, $zh:literal;)* }) => {
        $(#[$doc])*
        pub struct $name {
            $($(#[$fdoc])* pub $field: &'static str,)*
        }

        pub fn $get(lang: Lang) -> &'static $name {
            const EN: $name = $name { $($field: $en,)* };
            const ZH: $name = $name { $($field: $zh,)* };
            match lang {
                Lang::En => &EN,
                Lang::Zh => &ZH,
            }
        }
    };
}

words! {
    /// The home page's words.
    HomeUi, home_words {
        lead: "Animated failure modes of payment and order backends. Step through a scenario, inject crashes, watch the tables, queues and invariants, and let the explorer check every run.", "支付与订单后端失败模式的动画演示。逐步执行场景、注入崩溃，观察数据表、队列与不变量，并让穷举检查覆盖每一次运行。";
        variants: "variants", "个方案";
        quiz: "Interview questions from the notes: multiple choice, short answers and follow-ups, each with a link to the state that shows the answer.", "笔记中的面试题：选择题、简答题和追问，每道题都链接到演示答案的状态。";
        quiz_start: "Start the quiz", "开始测验";
        embed: "How to embed", "如何嵌入";
        embed_how: "Open a scenario at the step you want, press Embed and copy the snippet: an iframe with a title that opens that very state as a compact player, with a link back to the full view. Any link works the same with embed=1 added.", "打开场景并停在想要的一步，点“嵌入”并复制代码：一个带 title 的 iframe，以紧凑播放器打开这个状态，并带有回到完整视图的链接。任何链接加上 embed=1 都一样。";
        start_here: "Start here", "从这里开始";
        start_here_text: "Dual write, commit then publish: watch a crash between COMMIT and the publish lose an event (3 minutes).", "双写，先提交后发布：看一次发生在 COMMIT 与发布之间的崩溃如何丢掉一个事件（3 分钟）。";
    }
}

words! {
    /// The quiz's words.
    QuizUi, quiz_words {
        title: "Interview questions", "面试题";
        right: "✓ Correct.", "✓ 回答正确。";
        wrong: "✗ Not quite — the answer is", "✗ 不对，正确答案是";
        model_answer: "Answer first, then show the model answer and the scoring points", "先自己作答，再展开参考答案与评分点";
        points: "Tick the points your answer made (one mark each):", "勾选你的答案覆盖的评分点（每点 1 分）：";
        show_me: "Show me ↗", "查看演示 ↗";
        answered: "Multiple choice answered", "选择题已答";
        correct: "right", "答对";
        points_total: "short-answer points", "简答题得分";
        not_saved: "This browser does not allow saving, so progress lasts until the page closes.", "这个浏览器不允许保存，进度只保留到页面关闭。";
        reset: "Reset progress", "重置进度";
        ready: "I could answer this aloud", "我能口头答好这题";
        ready_total: "follow-ups ready", "追问已准备";
    }
}

words! {
    /// The presenter's words.
    PresentUi, present_words {
        exit: "Exit presenter", "退出演示";
        speaker_notes: "Speaker notes", "演讲备注";
        predict_title: "Predict first", "先预测";
        predict_next: "Next step:", "下一步：";
        predict_question: "Before it is shown: which of these will still hold afterwards? Press → to reveal.", "揭晓之前：之后哪些不变量还成立？按 → 揭晓。";
        predict_reveal: "Reveal", "揭晓";
        /// The presenter's button that opens a window to share with the room.
        audience_window: "Audience window", "观众窗口";
        /// The audience window's bar: it follows the presenter's window.
        audience_following: "Audience view: follows the presenter's window", "观众视图：跟随演示者窗口";
        audience_reveal: "The presenter reveals it next.", "演示者接下来揭晓答案。";
        fullscreen: "Fullscreen", "全屏";
    }
}

words! {
    /// The export dialog's words.
    ExportUi, export_words {
        title: "Export this run", "导出这次运行";
        hint: "Files drawn from the run itself, up to the step shown: for notes, slides and sharing.", "文件直接由这次运行生成，截至当前这一步：可用于笔记、幻灯片和分享。";
        svg: "Timeline as SVG", "时间线（SVG）";
        png: "Timeline as PNG", "时间线（PNG）";
        md: "State tables as Markdown", "状态表（Markdown）";
        mermaid: "Run as a Mermaid sequence diagram", "运行过程（Mermaid 时序图）";
        json: "Run as a file (JSON)", "运行文件（JSON）";
        import_title: "Open a run file", "打开运行文件";
        import_label: "Choose a .json file saved from here", "选择从这里保存的 .json 文件";
        exported: "Download started.", "已开始下载。";
        failed: "The browser refused the download.", "浏览器拒绝了下载。";
        /// The export formats' module could not be fetched (split build).
        unloaded: "The export could not be loaded (offline, or the site was updated). Nothing changed; try again.", "导出功能未能加载（离线，或网站已更新）。页面没有改变；请再试一次。";
        imported: "Run file opened.", "已打开运行文件。";
    }
}

words! {
    /// The explorer panel's words.
    ExploreUi, explore_words {
        /// The explorer's bounds for a scenario without faults.
        interleavings: "Checks every run of this variant — every choice at every step: the order in which things happen, what the other side answers — up to 700 steps. There are no faults to inject here: the choices alone decide.", "检查这个变体的每一次运行——每一步的每一种选择：事情发生的先后、对方如何应答——最多 700 步。这里没有可注入的故障：只由这些选择决定结果。";
        intro: "Checks every run of this variant — every interleaving, every crash point — up to 700 steps, with at most this many faults per run:", "检查这个方案的每一次运行——每一种交错、每一个崩溃点——最多 700 步，每次运行最多注入这么多次故障：";
        faults_per_run: "Faults per run", "每次运行的故障数";
        show_me: "Show me", "查看演示";
        prove_fix: "Prove the fix:", "验证修复：";
        failed: "The explorer could not run:", "穷举检查无法运行：";
        not_fetched: "this scenario's explorer could not be loaded (offline?). Explore again to retry.", "无法加载这个场景的穷举检查模块（离线了？）。再点一次“检查所有运行”即可重试。";
        invariant: "Invariant", "不变量";
    }
}

words! {
    /// The comparison's and the challenge's words.
    CompareUi, compare_words {
        close: "Close the comparison", "关闭对比";
        only_here: "only here", "仅此方案有";
        same_schedule: "Both variants on the same fault schedule, driven by the one player below: the faults and moves you take are repeated on the right wherever they exist there.", "两个方案按同一故障时间表运行，由下方同一个播放器驱动：你注入的故障和选择的步骤，只要右侧也有，就会在右侧重演。";
        break_goal: "You are the adversary. Make any invariant fail in as few moves as possible: every step is a move — inject faults, pick what happens next, or step forward.", "你是对手。用尽量少的步数让任意一个不变量失败：每一步都算一步——注入故障、选择接下来发生什么，或直接前进。";
        break_fixed: "Nobody can win here: the explorer checked every run within the fault budget and no invariant fails.", "这里没人能赢：穷举检查已检查故障预算内的每一次运行，没有任何不变量失败。";
        leave_break: "Back to the player", "回到播放器";
        best_pending: "The explorer is working out the best possible…", "穷举检查正在计算最佳成绩…";
    }
}

words! {
    /// The embed dialog's words.
    EmbedUi, embed_words {
        title: "Embed this state", "嵌入当前状态";
        hint: "Paste it into your notes or slides: the iframe opens this scenario at this step as a compact player, with a link back to the full view.", "粘贴到你的笔记或幻灯片中：iframe 会以精简播放器打开这个场景的这一步，并附带返回完整视图的链接。";
        code: "Embed code", "嵌入代码";
        copy: "Copy embed code", "复制嵌入代码";
        copied: "Embed code copied to the clipboard.", "嵌入代码已复制到剪贴板。";
        size: "Size", "尺寸";
        theme: "Colours", "配色";
        compact: "Compact, 640 × 400", "紧凑，640 × 400";
        tall: "Tall, 360 × 640", "竖长，360 × 640";
        full: "Full width, 720 high", "全宽，高 720";
        theme_light: "Light", "浅色";
        theme_dark: "Dark", "深色";
        theme_auto: "The reader's system setting", "跟随读者的系统设置";
        preview: "Preview of the embedded player", "嵌入播放器的预览";
    }
}

pub fn ui(lang: Lang) -> &'static Ui {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// "Step 3 of 10" / "第 3 步，共 10 步".
pub fn step_of(lang: Lang, step: usize, last: usize) -> String {
    match lang {
        Lang::En => format!("Step {step} of {last}"),
        Lang::Zh => format!("第 {step} 步，共 {last} 步"),
    }
}

/// "violated at step 4" / "在第 4 步被违反".
pub fn violated_at(lang: Lang, step: usize) -> String {
    match lang {
        Lang::En => format!("violated at step {step}"),
        Lang::Zh => format!("在第 {step} 步被违反"),
    }
}

/// "Jump to step 3" / "跳到第 3 步".
pub fn jump_to(lang: Lang, step: usize) -> String {
    match lang {
        Lang::En => format!("Jump to step {step}"),
        Lang::Zh => format!("跳到第 {step} 步"),
    }
}

/// A count given as decimal digits, with thousands separators; beyond a trillion, as a power of
/// ten ("1.7 × 10²²"). Digits rather than a number: run counts exceed 64 bits.
pub fn count(digits: &str) -> String {
    let n = digits.len();
    if n > 12 {
        const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
        let sup: String = (n - 1)
            .to_string()
            .bytes()
            .map(|b| SUP[usize::from(b - b'0') % 10])
            .collect();
        return format!("{}.{} × 10{sup}", &digits[..1], &digits[1..2]);
    }
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "holds in all 1,024 runs" / "在全部 1,024 次运行中成立".
pub fn holds_in_all(lang: Lang, runs: &str) -> String {
    match lang {
        Lang::En => format!("holds in all {} runs", count(runs)),
        Lang::Zh => format!("在全部 {} 次运行中成立", count(runs)),
    }
}

/// "violated in 3 of 41 runs (7.3 %)" / "41 次运行中有 3 次被违反（7.3 %）", the share given in
/// tenths of a percent.
pub fn violated_in(lang: Lang, bad: &str, runs: &str, permille: u16) -> String {
    let share = if permille == 0 {
        "< 0.1 %".to_string()
    } else {
        format!("{}.{} %", permille / 10, permille % 10)
    };
    match lang {
        Lang::En => format!(
            "violated in {} of {} runs ({share})",
            count(bad),
            count(runs)
        ),
        Lang::Zh => format!(
            "{} 次运行中有 {} 次被违反（{share}）",
            count(runs),
            count(bad)
        ),
    }
}

/// "shortest counterexample: 9 steps" / "最短反例：9 步".
pub fn shortest(lang: Lang, steps: usize) -> String {
    match lang {
        Lang::En => format!("shortest counterexample: {steps} steps"),
        Lang::Zh => format!("最短反例：{steps} 步"),
    }
}

/// "117,610 distinct states · 1.7 × 10²² runs · 420 ms (280,023 states/s)": milliseconds under
/// a second, and a rate only from 10 ms (the worker's clock counts whole milliseconds).
pub fn explored(lang: Lang, states: usize, runs: &str, ms: u64) -> String {
    let zh = lang == Lang::Zh;
    // Integer arithmetic only: formatting an f64 would pull the float printer into the bundle.
    let took = match ms {
        0 if zh => "不到 1 毫秒".to_string(),
        0 => "under 1 ms".to_string(),
        1..=999 => format!("{ms} {}", if zh { "毫秒" } else { "ms" }),
        _ => format!(
            "{}.{:02} {}",
            ms / 1000,
            (ms % 1000) / 10,
            if zh { "秒" } else { "s" }
        ),
    };
    let rate = (states as u64)
        .checked_mul(1000)
        .filter(|_| ms >= 10)
        .map(|x| count(&(x / ms).to_string()));
    let (s, r) = (count(&states.to_string()), count(runs));
    match lang {
        Lang::En => format!(
            "{s} distinct states · {r} runs · {took}{}",
            rate.map_or(String::new(), |x| format!(" ({x} states/s)"))
        ),
        Lang::Zh => format!(
            "{s} 个不同状态 · {r} 次运行 · {took}{}",
            rate.map_or(String::new(), |x| format!("（每秒 {x} 个状态）"))
        ),
    }
}

/// "Exploring… 40,960 states" / "正在检查… 40,960 个状态".
pub fn exploring(lang: Lang, states: usize) -> String {
    match lang {
        Lang::En => format!("Exploring… {} states", count(&states.to_string())),
        Lang::Zh => format!("正在检查… {} 个状态", count(&states.to_string())),
    }
}

/// "Moves: 5" / "步数：5".
pub fn moves(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En => format!("Moves: {n}"),
        Lang::Zh => format!("步数：{n}"),
    }
}

/// "Best possible: 3 moves (name)" / "最佳成绩：3 步（name）".
pub fn best_possible(lang: Lang, n: usize, name: &str) -> String {
    match lang {
        Lang::En => format!("Best possible: {n} moves ({name})."),
        Lang::Zh => format!("最佳成绩：{n} 步（{name}）。"),
    }
}

/// The verdict of a finished challenge.
pub fn broke(lang: Lang, name: &str, n: usize, best: Option<usize>) -> String {
    let tail = match (lang, best) {
        (Lang::En, Some(b)) if n <= b => " That is the best possible.".to_string(),
        (Lang::En, Some(b)) => format!(" The explorer's shortest run does it in {b}."),
        (Lang::Zh, Some(b)) if n <= b => "这已是最佳成绩。".to_string(),
        (Lang::Zh, Some(b)) => format!("穷举检查的最短运行只需 {b} 步。"),
        (_, None) => String::new(),
    };
    match lang {
        Lang::En => format!("You broke “{name}” in {n} moves.{tail}"),
        Lang::Zh => format!("你用 {n} 步破坏了“{name}”。{tail}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// index.html paints the home page's top before the wasm arrives: its words are these.
    #[test]
    fn the_loading_shell_says_what_the_home_page_says() {
        let html = include_str!("../../index.html").replace("&amp;", "&");
        for (lang, ui) in [(Lang::En, &EN), (Lang::Zh, &ZH)] {
            let lead = home_words(lang).lead;
            assert!(html.contains(&format!("<h1>{}</h1>", ui.home_title)));
            assert!(html.contains(&format!("<p class=\"lead\">{lead}</p>")));
        }
    }

    #[test]
    fn counts_read_well_in_both_languages() {
        assert_eq!(count("0"), "0");
        assert_eq!(count("117610"), "117,610");
        assert_eq!(count("999999999999"), "999,999,999,999");
        assert_eq!(count("17153454166888319289822"), "1.7 × 10²²");
        assert_eq!(
            violated_in(Lang::En, "3", "41", 73),
            "violated in 3 of 41 runs (7.3 %)"
        );
        assert_eq!(
            violated_in(Lang::Zh, "3", "41", 73),
            "41 次运行中有 3 次被违反（7.3 %）"
        );
        assert!(violated_in(Lang::En, "1", "9999", 0).ends_with("(< 0.1 %)"));
        assert_eq!(
            explored(Lang::En, 1000, "5", 0),
            "1,000 distinct states · 5 runs · under 1 ms"
        );
        assert_eq!(
            explored(Lang::En, 187, "201", 2),
            "187 distinct states · 201 runs · 2 ms"
        );
        assert_eq!(
            explored(Lang::En, 117_610, "5", 420),
            "117,610 distinct states · 5 runs · 420 ms (280,023 states/s)"
        );
        assert_eq!(
            explored(Lang::Zh, 117_610, "5", 1420),
            "117,610 个不同状态 · 5 次运行 · 1.42 秒（每秒 82,823 个状态）"
        );
    }
}
