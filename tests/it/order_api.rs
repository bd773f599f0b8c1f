//! The order API, proven: holding the request open for the consumer answers 504 at 3 s and the
//! client's retry makes a second order; accepting at once without a request key makes one too
//! when a 202 is lost; a request key, a 202 and a status URL make one order, answer a reused key
//! with another cart with 409, and let the client learn even a rejection — exhaustively, within
//! two and three faults.

use crate::common::{assert_holds_everywhere, by_labels, explored, table, verdict};
use effectively_once::scenarios::{OaVariant, OrderApi};
use effectively_once::sim::{replay, Bounds, Status};

const ONE: &str = "one order per request";
const FAST: &str = "accepted within 300 ms";
const LEARNS: &str = "the client learns the outcome";

#[test]
fn accepting_by_key_answers_in_40_ms_and_completes_within_5_s() {
    let t = replay(&OrderApi::model(OaVariant::Accept202, 2), &[]);
    let end = t.last();
    assert_eq!(
        table(&t, end, "orders"),
        [["ord-1701", "req-1701", "cart-A", "COMPLETED"]]
    );
    assert_eq!(table(&t, end, "posts")[0][3], "202 ord-1701 · 40 ms");
    assert_eq!(table(&t, end, "targets")[1][1], "4,300 ms");
    for name in [ONE, FAST, LEARNS] {
        assert_eq!(verdict(&t, end, name).status, Status::Holds, "{name}");
    }
}

#[test]
fn waiting_in_the_request_times_out_and_the_retry_orders_twice() {
    let m = OrderApi::model(OaVariant::SyncWait, 2);
    let t = replay(&m, &[]);
    let end = t.last();
    assert_eq!(verdict(&t, 2, FAST).status, Status::Violated);
    assert_eq!(table(&t, 2, "posts")[0][3], "504 · 3,000 ms");
    assert_eq!(table(&t, end, "orders").len(), 2);
    assert_eq!(verdict(&t, end, ONE).status, Status::Violated);
    assert_eq!(verdict(&t, end, LEARNS).status, Status::Violated);
}

#[test]
fn a_lost_202_without_a_key_orders_twice_and_with_one_returns_the_same_order() {
    let lose = [
        "API handles POST #1; its answer is lost",
        "Client retries the POST",
        "API handles POST #2",
    ];
    let m = OrderApi::model(OaVariant::NoRequestKey, 2);
    let t = replay(&m, &by_labels(&m, &lose));
    assert_eq!(verdict(&t, 3, ONE).status, Status::Violated);
    assert_eq!(table(&t, 3, "orders").len(), 2);
    let m = OrderApi::model(OaVariant::Accept202, 2);
    let t = replay(&m, &by_labels(&m, &lose));
    assert_eq!(table(&t, 3, "orders").len(), 1);
    assert_eq!(table(&t, 3, "posts")[1][3], "202 ord-1701 · 40 ms");
    assert_eq!(t.steps[3].info.title.en, "same key: 202 ord-1701 again");
}

#[test]
fn a_reused_key_with_another_cart_gets_409_and_a_rejection_is_learned() {
    let m = OrderApi::model(OaVariant::Accept202, 2);
    let path = by_labels(
        &m,
        &[
            "API handles POST #1; its answer is lost",
            "Client reuses req-1701 for another cart",
            "API handles POST #2",
        ],
    );
    let t = replay(&m, &path);
    assert_eq!(table(&t, 3, "posts")[1][3], "409 · 40 ms");
    assert_eq!(verdict(&t, t.last(), ONE).status, Status::Holds);
    let path = by_labels(
        &m,
        &[
            "API handles POST #1",
            "Relay publishes ord-1701's event",
            "Consumer rejects the order: out of stock",
            "Client reads the status URL",
        ],
    );
    let t = replay(&m, &path);
    assert_eq!(table(&t, 4, "posts")[1][3], "REJECTED");
    assert_eq!(verdict(&t, 4, LEARNS).status, Status::Holds);
}

#[test]
fn exploration_proves_the_key_and_finds_each_mistake() {
    let mut states = Vec::new();
    for v in OaVariant::ALL {
        for budget in [2, 3] {
            let (n, broken) = explored(&OrderApi::model(v, budget));
            states.push(n);
            let want = match v {
                OaVariant::SyncWait => [true, true, true],
                OaVariant::NoRequestKey => [true, false, true],
                OaVariant::Accept202 => [false; 3],
            };
            assert_eq!(broken, want, "{v:?} at budget {budget}");
        }
    }
    assert_eq!(
        states,
        [29, 29, 54, 61, 47, 61],
        "distinct states, budgets 2 and 3, pinned"
    );
    for budget in [2, 3] {
        assert_holds_everywhere(
            &OrderApi::model(OaVariant::Accept202, budget),
            Bounds::default(),
        );
    }
}
