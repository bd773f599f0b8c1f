"""Runs the checkpoint-replay scenario's graphs (src/scenarios/checkpoint_replay/*.py), the very
files the app shows, under LangGraph, on a run of the model given as its action keys. Used by
tests/it/checkpoint_replay.rs.

Usage: python graph_driver.py. Input (stdin): one case per line,
    <program.py> <durable|in-memory> <action key> <action key> ...
Each life of the service is a process of its own (forked), from the start (or a `resume`) to a
`crash`: it runs the graph as far as the model's steps before the crash take it (`run`,
`return`, `checkpoint`) and dies there with os._exit: inside the refund node after its tool
call; as a node returns, before LangGraph has its writes; or after a checkpoint is written. A
durable saver keeps what it wrote in a file that outlives the process; an in-memory one dies
with it, and the restarted service, finding no checkpoint, starts the run over. The refund
service (deduplicating by operation id) keeps its ledger in a file too. Output: one line per
case, the ledger (id, operation id, amount) and the messages sent, as JSON.
"""
import json
import os
import pickle
import sys
import tempfile
import threading
import traceback
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import StateGraph

PROGRAMS = Path(__file__).resolve().parents[2] / "src" / "scenarios" / "checkpoint_replay"
NODES = ("plan", "refund", "notify")
DIED = 3
DIE = {"returned": None, "checkpoint": None, "tool": False}  # this life's crash point


def die():
    os._exit(DIED)  # the process, every thread of it, now


def write(path, data):
    """Replaces the file at once: a crash mid-write leaves the old one, never half of it."""
    temp = path.with_suffix(".tmp%d" % threading.get_ident())
    temp.write_bytes(data)
    os.replace(temp, path)


# The crash "as a node returns": every node the programs add is wrapped to die there.
_add_node = StateGraph.add_node


def add_node(self, name, fn, **kw):
    def node(state):
        out = fn(state)
        if DIE["returned"] == name:
            die()
        return out

    return _add_node(self, name, node, **kw)


StateGraph.add_node = add_node


def events(first):
    """The model's steps of a process that starts at node `first`: (node, step)."""
    out = []
    for n in NODES[NODES.index(first):]:
        out.append((n, "run"))
        if n == "refund":
            out.append((n, "return"))
        out.append((n, "checkpoint"))
    return out


class Saver(InMemorySaver):
    """An in-memory saver that, when durable, keeps a copy of everything in a file after every
    write; its process dies after the checkpoint of a chosen loop step."""

    def __init__(self, path, durable):
        super().__init__()
        self.path, self.durable = path, durable
        # LangGraph writes from background threads: one write and its copy at a time, so that
        # the file always holds the newest state.
        self.lock = threading.Lock()
        if durable and path.exists():
            storage, writes, blobs = pickle.loads(path.read_bytes())
            for thread, spaces in storage.items():
                for ns, checkpoints in spaces.items():
                    self.storage[thread][ns] = checkpoints
            self.writes.update(writes)
            self.blobs.update(blobs)

    def keep(self):
        if self.durable:
            storage = {t: {ns: dict(c) for ns, c in s.items()} for t, s in self.storage.items()}
            write(self.path, pickle.dumps((storage, dict(self.writes), dict(self.blobs))))

    def put_writes(self, config, writes, task_id, task_path=""):
        with self.lock:
            out = super().put_writes(config, writes, task_id, task_path)
            self.keep()
        return out

    def put(self, config, checkpoint, metadata, new_versions):
        with self.lock:
            out = super().put(config, checkpoint, metadata, new_versions)
            self.keep()
            if DIE["checkpoint"] == metadata.get("step"):
                die()
        return out


class Tools:
    """The refund service and the messages: outside the process, in a file."""

    def __init__(self, path):
        self.path = path
        state = json.loads(path.read_text()) if path.exists() else {}
        self.ledger = state.get("ledger", [])
        self.messages = state.get("messages", 0)
        self.ops = state.get("ops", [])  # the intents, in order: one operation each

    def keep(self):
        state = {"ledger": self.ledger, "messages": self.messages, "ops": self.ops}
        write(self.path, json.dumps(state).encode())

    def create_operation(self, order, kind, amount):
        intent = [order, kind, amount]
        if intent not in self.ops:
            self.ops.append(intent)
            self.keep()
        n = [o for o in self.ops if o[:2] == [order, kind]].index(intent) + 1
        return type("Op", (), {"id": "op-%s-r%d" % (order, n)})()

    def refund_tool(self, order, amount, operation_id=None):
        known = [r for r in self.ledger if operation_id and r[1] == operation_id]
        if not known:
            row = ["re_%d" % (len(self.ledger) + 1), operation_id or "(none)", "%.2f" % amount]
            self.ledger.append(row)
            self.keep()
        if DIE["tool"]:
            die()
        return type("Refund", (), {"id": (known or self.ledger[-1:])[0][0]})()

    def send_message(self, text):
        self.messages += 1
        self.keep()


def life(program, durable, folder, steps):
    """One process of the service: resume the thread, or start it, and die after `steps`."""
    folder = Path(folder)
    scope = {"__name__": program}
    exec(compile((PROGRAMS / program).read_text(), program, "exec"), scope)
    tools = Tools(folder / "tools.json")
    app = scope["build"](Saver(folder / "saver.pickle", durable), tools)
    state = app.get_state(scope["CONFIG"])
    saved = bool(state.values)  # a checkpoint to resume from (a finished run: nothing to do)
    if steps is not None:
        first = state.next[0] if state.next else "plan"
        if steps == 0 or (saved and not state.next):
            die()
        node, step = events(first)[steps - 1]
        if step == "run" and node == "refund":
            DIE["tool"] = True
        elif step in ("run", "return"):
            DIE["returned"] = node
        else:
            DIE["checkpoint"] = NODES.index(node) + 1  # LangGraph's loop step after that node
    if saved:
        scope["resume"](app)
    else:
        scope["start"](app, {})


def lives(keys):
    """The steps each process takes before it dies (None: it does not)."""
    out, taken = [], 0
    for key in keys:
        if key in ("run", "return", "checkpoint"):
            taken += 1
        elif key == "crash":
            out.append(taken)
            taken = 0
    return out + [None]


def run(program, durable, keys):
    with tempfile.TemporaryDirectory() as folder:
        for steps in lives(keys):
            pid = os.fork()  # a process of its own, with LangGraph already imported
            if pid == 0:
                try:
                    life(program, durable, folder, steps)
                except BaseException:
                    traceback.print_exc()
                    os._exit(1)
                os._exit(0)
            code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            if code != (DIED if steps is not None else 0):
                raise SystemExit("%s %s: a life ended with %d" % (program, " ".join(keys), code))
        tools = Tools(Path(folder) / "tools.json")
    return {"ledger": tools.ledger, "messages": tools.messages}


def main():
    for line in sys.stdin:
        words = line.split()
        if words:
            print(json.dumps(run(words[0], words[1] == "durable", words[2:])), flush=True)


if __name__ == "__main__":
    main()
