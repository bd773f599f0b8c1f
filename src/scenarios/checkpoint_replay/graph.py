from typing import TypedDict

from langgraph.graph import START, StateGraph

CONFIG = {"configurable": {"thread_id": "t-42"}}


class RefundState(TypedDict, total=False):
    amount: int
    refund_id: str


def build(saver, tools):
    def plan(state):
        return {"amount": 80}

    def refund_node(state):
        # On resume this node runs again
        # from its first line.
        result = tools.refund_tool(
            order="ord-1701",
            amount=state["amount"],
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
