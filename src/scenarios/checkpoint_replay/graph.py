def plan(state):
    return {"amount": 80}

def refund_node(state):
    # On resume this node runs again
    # from its first line.
    result = refund_tool(
        order="ord-1701",
        amount=state["amount"],
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
