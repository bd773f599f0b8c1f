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
    pub narration: &'static str,
    pub code: &'static str,
    pub next_moves: &'static str,
    pub next_moves_hint: &'static str,
    pub faults: &'static str,
    pub faults_none: &'static str,
    pub state: &'static str,
    pub durable: &'static str,
    pub volatile: &'static str,
    pub lost: &'static str,
    pub changed: &'static str,
    pub dismiss: &'static str,
    pub notice: &'static str,
    pub fixed: &'static str,
    pub default_move: &'static str,
    pub down: &'static str,
    pub keys: &'static str,
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
    narration: "What just happened",
    code: "Code that ran",
    next_moves: "You are the scheduler",
    next_moves_hint: "Pick what happens next; Step forward takes the first.",
    faults: "Inject a fault",
    faults_none: "No fault can be injected at this step.",
    state: "State",
    durable: "durable",
    volatile: "memory",
    lost: "⚡ lost in the crash",
    changed: "changed",
    dismiss: "Dismiss",
    notice: "Notice",
    fixed: "fix",
    default_move: "default",
    down: "down",
    keys: "Keys: Space play/pause · ←/→ step · Home/End · PageUp/PageDown",
};

pub const ZH: Ui = Ui {
    tagline: "看清为什么“恰好一次”不是免费的",
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
    narration: "刚刚发生了什么",
    code: "执行的代码",
    next_moves: "由你来调度",
    next_moves_hint: "选择接下来发生什么；“前进一步”选第一个。",
    faults: "注入故障",
    faults_none: "这一步无法注入故障。",
    state: "状态",
    durable: "持久",
    volatile: "内存",
    lost: "⚡ 随崩溃丢失",
    changed: "已变化",
    dismiss: "关闭",
    notice: "提示",
    fixed: "修复",
    default_move: "默认",
    down: "已宕机",
    keys: "按键：空格 播放/暂停 · ←/→ 单步 · Home/End · PageUp/PageDown",
};

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
