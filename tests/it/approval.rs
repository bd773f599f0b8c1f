//! Human approval, proven: a "yes" in the chat lets through an edited amount, a changed order,
//! an expired approval and a second refund; a versioned proposal, approved by digest and executed
//! by conditional UPDATEs, refuses each of them; exhaustive exploration with two and three
//! changes per run breaks the first and proves the second.

use crate::common::{assert_holds_everywhere, by_labels, table, verdict};
use effectively_once::scenarios::{approval_digest, ApVariant, Approval};
use effectively_once::sim::{explore, replay, Bounds, Status};

const EXACT: &str = "executed exactly what was approved";
const ONCE: &str = "executed at most once";
const ALL: [&str; 2] = [EXACT, ONCE];

const PROPOSE: &str = "Agent: propose the refund";
const YES: &str = "Alice: reply “yes”";
const CLICK: &str = "Alice: click Approve";
const EDIT: &str = "Agent edits the amount to 800.00";
const SUPPORT: &str = "Support refunds 50.00 meanwhile";
const EXPIRE: &str = "Let the approval expire (10:15 passes)";

fn approve(v: ApVariant) -> &'static str {
    match v {
        ApVariant::ChatText => YES,
        ApVariant::VersionedProposal => CLICK,
    }
}

fn again(v: ApVariant) -> &'static str {
    match v {
        ApVariant::ChatText => "Alice's “yes” arrives twice",
        ApVariant::VersionedProposal => "Alice clicks the approval link twice",
    }
}

fn bounds() -> Bounds {
    Bounds {
        max_depth: 64,
        max_states: 1_000_000,
    }
}

#[test]
fn without_a_change_both_variants_refund_80_once() {
    for v in ApVariant::ALL {
        let t = replay(&Approval::model(v, 2), &[]);
        let last = t.last();
        assert!(t.steps[last].quiet);
        assert_eq!(last, 3, "propose, approve, execute");
        let key = match v {
            ApVariant::ChatText => "(none)",
            ApVariant::VersionedProposal => "pr-1",
        };
        assert_eq!(
            table(&t, last, "ledger"),
            [["re_1", "agent-7", key, "80.00", "3", "10:03"]],
            "{v:?}"
        );
        assert_eq!(
            table(&t, last, "orders"),
            [["ord-2042", "PARTIALLY_REFUNDED", "4", "1,000.00", "80.00"]]
        );
        for name in ALL {
            assert_eq!(
                verdict(&t, last, name).status,
                Status::Holds,
                "{v:?} {name}"
            );
        }
    }
    // The versioned proposal carries every field Alice sees, and its digest.
    let t = replay(&Approval::model(ApVariant::VersionedProposal, 2), &[]);
    let d = approval_digest(80, 3);
    assert_eq!(d.len(), 8);
    assert_ne!(d, approval_digest(800, 3));
    assert_ne!(d, approval_digest(80, 4));
    assert_eq!(
        table(&t, 3, "proposals"),
        [[
            "pr-1", "m-88", "ord-2042", "refund", "80.00", "USD", "3", "10:15", "agent-7", &d,
            "EXECUTED"
        ]]
    );
    assert_eq!(
        table(&t, 3, "approvals"),
        [["pr-1", d.as_str(), "alice", "refunds.approve", "10:02"]]
    );
}

/// Propose, approve, then one change; the default continuation executes.
fn drill(v: ApVariant, change: &str) -> Vec<u8> {
    by_labels(&Approval::model(v, 2), &[PROPOSE, approve(v), change])
}

#[test]
fn chat_text_executes_the_edited_amount() {
    let v = ApVariant::ChatText;
    let t = replay(&Approval::model(v, 2), &drill(v, EDIT));
    let last = t.last();
    assert_eq!(last, 4);
    assert_eq!(table(&t, 3, "agent")[0][1], "800.00");
    assert_eq!(
        table(&t, last, "ledger"),
        [["re_1", "agent-7", "(none)", "800.00", "3", "10:03"]]
    );
    let chat = table(&t, last, "chat");
    assert_eq!(chat.len(), 2);
    assert_eq!(chat[1][1..], ["alice", "yes"]);
    let x = verdict(&t, last, EXACT);
    assert_eq!(x.status, Status::Violated);
    assert_eq!(x.cause, Some(3), "caused by the edit at step 3");
    assert!(
        x.why
            .en
            .contains("The provider refunded 800.00 (re_1) on ord-2042, but Alice approved 80.00"),
        "{}",
        x.why.en
    );
    assert_eq!(verdict(&t, last, ONCE).status, Status::Holds);
}

#[test]
fn chat_text_executes_on_a_changed_order_after_expiry_and_twice() {
    let v = ApVariant::ChatText;
    let m = Approval::model(v, 2);
    // Support refunds 50.00 meanwhile: the agent's 80.00 runs against version 4.
    let t = replay(&m, &drill(v, SUPPORT));
    let last = t.last();
    assert_eq!(
        table(&t, last, "ledger"),
        [
            ["re_1", "support", "sup-311", "50.00", "3", "10:03"],
            ["re_2", "agent-7", "(none)", "80.00", "4", "10:03"],
        ]
    );
    assert_eq!(
        table(&t, last, "orders")[0][2..],
        ["5", "1,000.00", "130.00"]
    );
    let x = verdict(&t, last, EXACT);
    assert_eq!(x.status, Status::Violated);
    assert!(
        x.why
            .en
            .contains("ran against order version 4, but the approval was for version 3"),
        "{}",
        x.why.en
    );
    // The approval expires: the refund runs at 10:20.
    let t = replay(&m, &drill(v, EXPIRE));
    let last = t.last();
    assert_eq!(table(&t, last, "ledger")[0][5], "10:20");
    let x = verdict(&t, last, EXACT);
    assert_eq!(x.status, Status::Violated);
    assert!(x.why.en.contains("the approval expired at 10:15"));
    // The "yes" arrives twice: two refunds of 80.00.
    let t = replay(&m, &drill(v, again(v)));
    let last = t.last();
    let ledger = table(&t, last, "ledger");
    assert_eq!(
        ledger.iter().map(|r| r[3].as_str()).collect::<Vec<_>>(),
        ["80.00", "80.00"]
    );
    assert_eq!(table(&t, last, "orders")[0][4], "160.00");
    let x = verdict(&t, last, ONCE);
    assert_eq!(x.status, Status::Violated);
    assert!(x.why.en.contains("executed 2 refunds on one approval"));
    // The first refund was the approved one; the second is judged by "at most once" alone.
    assert_eq!(verdict(&t, last, EXACT).status, Status::Holds);
}

#[test]
fn the_versioned_proposal_refuses_each_change() {
    let v = ApVariant::VersionedProposal;
    let m = Approval::model(v, 2);
    let cases = [
        (EDIT, "refused: not the approved digest; propose again", 0),
        (
            SUPPORT,
            "refused: order is at version 4, not 3; ask again",
            1,
        ),
        (EXPIRE, "refused: expired at 10:15; ask again", 0),
    ];
    for (change, why, ledger) in cases {
        let t = replay(&m, &drill(v, change));
        let last = t.last();
        let calls = table(&t, last, "calls");
        assert_eq!(calls.len(), 1, "{change}");
        assert_eq!(calls[0][2], why);
        assert!(calls[0][1].ends_with("→ ROLLBACK"));
        let l = table(&t, last, "ledger");
        assert_eq!(l.len(), ledger, "{change}");
        assert!(
            l.iter().all(|r| r[1] != "agent-7"),
            "no refund by the agent"
        );
        assert_eq!(table(&t, last, "proposals")[0][10], "APPROVED");
        for name in ALL {
            assert_eq!(verdict(&t, last, name).status, Status::Holds, "{change}");
        }
    }
    // The link clicked twice: one approval row, one refund, the second execute finds 0 rows.
    let t = replay(&m, &drill(v, again(v)));
    let last = t.last();
    assert_eq!(table(&t, last, "approvals").len(), 1);
    assert_eq!(table(&t, last, "ledger").len(), 1);
    let calls = table(&t, last, "calls");
    assert_eq!(calls[0][2], "executed: refund re_1");
    assert_eq!(calls[1][2], "refused: pr-1 is already EXECUTED");
    assert!(t
        .steps
        .iter()
        .any(|s| s.info.title.en == "second click: 0 rows"));
    for name in ALL {
        assert_eq!(verdict(&t, last, name).status, Status::Holds);
    }
}

#[test]
fn exploration_breaks_chat_text_and_proves_the_versioned_proposal() {
    let mut got = Vec::new();
    for v in ApVariant::ALL {
        for budget in [2, 3] {
            let m = Approval::model(v, budget);
            let r = explore(&m, bounds());
            assert!(!r.truncated && !r.cyclic, "{v:?} {budget}");
            for inv in &r.invariants {
                if let Some(cx) = &inv.counterexample {
                    let t = replay(&m, cx);
                    assert_eq!(verdict(&t, cx.len(), &inv.name.en).status, Status::Violated);
                }
            }
            let bad: Vec<u128> = r.invariants.iter().map(|i| i.violating_runs).collect();
            let cx: Vec<usize> = r
                .invariants
                .iter()
                .map(|i| i.counterexample.as_ref().map_or(0, |c| c.len()))
                .collect();
            println!(
                "{v:?} budget {budget}: {} states, {} runs, {bad:?}",
                r.states, r.runs
            );
            got.push((r.states, r.runs, bad, cx));
        }
    }
    // Chat text: both invariants break, each within four steps (propose, yes, a change,
    // execute; or propose, yes, execute, yes again, execute).
    for g in &got[..2] {
        assert!(g.2[0] > 0 && g.2[1] > 0, "{g:?}");
        assert_eq!(g.3, [4, 5], "shortest counterexamples {g:?}");
    }
    for g in &got[2..] {
        assert_eq!(g.2, [0, 0], "{g:?}");
    }
    assert_holds_everywhere(&Approval::model(ApVariant::VersionedProposal, 2), bounds());
    assert_holds_everywhere(&Approval::model(ApVariant::VersionedProposal, 3), bounds());
    let runs: Vec<u128> = got.iter().map(|g| g.1).collect();
    assert_eq!(runs, [27, 67, 27, 67], "runs, pinned");
    assert_eq!(
        [got[0].2.clone(), got[1].2.clone()],
        [[25, 15], [65, 55]],
        "chat text: violating runs per invariant, pinned"
    );
    let states: Vec<usize> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        states,
        [31, 42, 31, 42],
        "distinct states, (chat text, versioned) × budgets 2 and 3, pinned"
    );
}

/// The figure weighs what Alice approved against what the agent refunded: 80.00 approved,
/// 800.00 executed after the edit; the versioned proposal keeps them equal.
#[test]
fn the_figure_shows_800_executed_for_80_approved() {
    use effectively_once::scenarios;
    use effectively_once::sim::{decode_path, FigureBody};
    let s = scenarios::all()[scenarios::index_of("approval").unwrap()];
    let t = s.trace(0, &decode_path("0020").0);
    let f = t.view(4).figure.clone().unwrap();
    let FigureBody::Ledger(rows) = &f.body else {
        panic!("a ledger")
    };
    assert_eq!((rows[0].intended, rows[0].executed), (8_000, 80_000));
    assert!(
        f.name
            .en
            .starts_with("approved 80.00, the agent refunded 800.00"),
        "{}",
        f.name.en
    );
    // The wrong amount is a refund nobody approved, not a copy of one.
    let marks: Vec<_> = t.steps[4].info.marks.iter().map(|m| m.kind).collect();
    assert!(
        marks.contains(&effectively_once::sim::MarkKind::Fail),
        "{marks:?}"
    );
    let fixed = s.trace(1, &[]);
    let f = fixed.view(fixed.last()).figure.clone().unwrap();
    let FigureBody::Ledger(rows) = &f.body else {
        panic!("a ledger")
    };
    assert_eq!(rows[0].intended, rows[0].executed);
}
