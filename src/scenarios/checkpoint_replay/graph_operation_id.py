from typing import TypedDict

from langgraph.graph import START, StateGraph

CONFIG = {"configurable": {"thread_id": "t-42"}}


class RefundState(TypedDict, total=False):
    amount: int
    operation_id: str
    refund_id: str


def build(saver, tools):
    def plan(state):
        # The operation is the intent the user approved, not this run:
        # one row per intent, so a re-run of plan gets the same one.
        op = tools.create_operation(order="ord-1701", kind="refund", amount=80)
        return {"amount": 80, "operation_id": op.id}  # op-ord-1701-r1

    def refund_node(state):
        # Re-runs are harmless: the same operation id every time,
        # and the refund service deduplicates by it.
        result = tools.refund_tool(
            order="ord-1701",
            amount=state["amount"],
            operation_id=state["operation_id"],
        )
        return {"refund_id": result.id}

    def notify(state):
        tools.send_message("Your refund is on its way")
        return {}

    graph = StateGraph(RefundState)
    graph.add_node("plan", plan)
    graph.add_node("refund", refund_node)
    graph.add_node("notify", notify)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "refund")
    graph.add_edge("refund", "notify")
    return graph.compile(checkpointer=saver)


def start(app, request):
    # Each checkpoint is written before the next node runs.
    return app.invoke(request, CONFIG, durability="sync")


def resume(app):  # after a restart: from the last checkpoint
    return app.invoke(None, CONFIG, durability="sync")
