def plan(state):
    return {"amount": 80}

def refund_node(state):
    # Re-runs are harmless: the same id every time,
    # and the refund service deduplicates by it.
    op_id = f"{thread_id(state)}:refund"  # t-42:refund
    result = refund_tool(
        order="ord-1701",
        amount=state["amount"],
        operation_id=op_id,
    )
    return {"refund_id": result.id}

def notify(state):
    send_message("Your refund is on its way")
    return {}

graph = StateGraph(RefundState)
graph.add_node("plan", plan)
graph.add_node("refund", refund_node)
graph.add_node("notify", notify)
graph.add_edge(START, "plan")
graph.add_edge("plan", "refund")
graph.add_edge("refund", "notify")
app = graph.compile(checkpointer=saver)
app.invoke(request, {"configurable": {"thread_id": "t-42"}})
