"""Runs the duplicate-charge scenario's consumers (src/scenarios/duplicate_charge/*.py), the
very files the app shows, against PostgreSQL and a provider that keeps a ledger by idempotency
key, on a run of the model given as its action keys. Used by tests/it/duplicate_charge.rs.

Usage: python3 consumer_driver.py <port>. Input (stdin): one case per line,
    <program.py> <action key> <action key> ...
A delivery (`deliver-N`) runs `on_message` on message N (msg-(N+1)) once, as far as the run
takes that job: the consumer's steps that follow it (`open`, `charge`, `save`, `ack`) until the
job ends, by its `ack`, a `crash` (the handler dies before its next step) or a `timeout` (the
provider's answer was lost: the charge is committed, the call raises). Other actions are the
broker's, the reconciliation's and the world's, which the model alone plays. Output: one line
per case, the committed payment rows, the inbox and the provider's charges, as JSON.
"""
import json
import sys
from contextlib import contextmanager
from pathlib import Path

import psycopg2

PROGRAMS = Path(__file__).resolve().parents[2] / "src" / "scenarios" / "duplicate_charge"
SCHEMA = """
DROP TABLE IF EXISTS payments, processed_messages, payment_intents;
DROP SEQUENCE IF EXISTS payment_no;
CREATE SEQUENCE payment_no;
CREATE TABLE payments (payment_no text PRIMARY KEY, order_id text NOT NULL,
  idempotency_key text NOT NULL, status text NOT NULL, charge_id text);
CREATE TABLE processed_messages (message_id text PRIMARY KEY);
CREATE TABLE payment_intents (intent_id text PRIMARY KEY, order_id text NOT NULL UNIQUE,
  status text NOT NULL, charge_id text);
"""
STEPS = ("open", "charge", "save", "ack")


class Crash(Exception):
    """The consumer's process died here."""


class Db:
    """The handler's connection: each statement commits unless inside `transaction()`."""

    def __init__(self, conn, job):
        self.conn, self.job, self.depth = conn, job, 0

    def one(self, sql, *args):
        return self._run(sql, args, lambda c: c.fetchone())

    def execute(self, sql, *args):
        return self._run(sql, args, lambda c: c.rowcount)

    def _run(self, sql, args, answer):
        self.job.step("save" if self.job.charged else "open")
        with self.conn.cursor() as c:
            c.execute(sql, args)
            out = answer(c)
        if self.depth == 0:
            self.conn.commit()
        return out

    @contextmanager
    def transaction(self):
        self.depth += 1
        try:
            yield
            self.conn.commit()
        except BaseException:
            self.conn.rollback()
            raise
        finally:
            self.depth -= 1


class Provider:
    """Charges once per idempotency key; a key it has seen replays its charge."""

    def __init__(self):
        self.charges = []  # (charge id, key), in order

    def charge(self, job, order, amount, idempotency_key):
        job.step("charge")
        job.charged = True
        known = [c for c in self.charges if c[1] == idempotency_key]
        if not known:
            self.charges.append(("ch_%d" % (len(self.charges) + 1), idempotency_key))
        if job.end == "timeout" and job.taken == job.allowed:
            raise TimeoutError("the answer was lost")
        charge_id = (known or self.charges[-1:])[0][0]
        return Charge(charge_id)


class Charge:
    def __init__(self, charge_id):
        self.id = charge_id


class Job:
    """One delivery's run of the handler: it may take `allowed` steps, then ends by `end`."""

    def __init__(self, allowed, end):
        self.allowed, self.end, self.taken, self.charged, self.last = allowed, end, 0, False, None

    def step(self, name):
        if name == self.last and name in ("open", "save"):
            return  # one step of the model is every statement of that part
        if self.taken == self.allowed:
            raise Crash(name)
        self.taken, self.last = self.taken + 1, name


class Msg:
    """Message `n` of the run (msg-1, msg-2: the same command re-published gets a new id)."""

    def __init__(self, n, job):
        self.id, self.order_id, self.intent_id, self.job = "msg-%d" % (n + 1), "ord-1701", "pay-1701", job

    def ack(self):
        self.job.step("ack")


class Calls:
    """The provider as one job's handler calls it."""

    def __init__(self, provider, job):
        self.provider, self.job = provider, job

    def charge(self, **kw):
        return self.provider.charge(self.job, **kw)


def plan(keys, i):
    """The consumer's steps after the delivery at `i`, and how that job ends."""
    taken = 0
    for key in keys[i + 1:]:
        if key in STEPS:
            taken += 1
            if key == "ack":
                return taken, "ack"
        elif key in ("crash", "timeout") or key.startswith("deliver-"):
            return taken, key if not key.startswith("deliver-") else "crash"
    return taken, "crash"


def run(conn, program, keys):
    with conn.cursor() as c:
        c.execute(SCHEMA)
    conn.commit()
    scope = {}
    exec(compile((PROGRAMS / program).read_text(), program, "exec"), scope)
    provider = Provider()
    for i, key in enumerate(keys):
        if not key.startswith("deliver-"):
            continue
        n = int(key.split("-")[1])
        allowed, end = plan(keys, i)
        job = Job(allowed, end)
        try:
            scope["on_message"](Msg(n, job), Db(conn, job), Calls(provider, job))
        except (Crash, TimeoutError):
            conn.rollback()  # the process is gone, or gave up: its open transaction too
    with conn.cursor() as c:
        c.execute("SELECT payment_no, order_id, idempotency_key, status,"
                  " coalesce(charge_id, '—') FROM payments ORDER BY 1")
        payments = c.fetchall()
        c.execute("SELECT intent_id, order_id, intent_id, status, coalesce(charge_id, '—')"
                  " FROM payment_intents ORDER BY 1")
        payments += c.fetchall()
        c.execute("SELECT message_id FROM processed_messages ORDER BY 1")
        inbox = [r[0] for r in c.fetchall()]
    conn.commit()
    return {"payments": [list(r) for r in payments], "inbox": inbox,
            "charges": [list(c) for c in provider.charges]}


def main():
    conn = psycopg2.connect(host="127.0.0.1", port=int(sys.argv[1]), user="postgres",
                            dbname="postgres")
    with conn.cursor() as c:
        c.execute("SET lock_timeout = '2s'; SET statement_timeout = '5s'")
    conn.commit()
    for line in sys.stdin:
        words = line.split()
        if words:
            print(json.dumps(run(conn, words[0], words[1:]), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
