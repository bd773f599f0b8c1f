def plan(state):
    # The operation is the intent the user approved, not this run:
    # a row of its own, whose id the checkpoint after plan keeps.
    op = create_operation(order="ord-1701", kind="refund", amount=80)
    return {"amount": 80, "operation_id": op.id}  # op-ord-1701-r1

def refund_node(state):
    # Re-runs are harmless: the same operation id every time,
    # and the refund service deduplicates by it.
    result = refund_tool(
        order="ord-1701",
        amount=state["amount"],
        operation_id=state["operation_id"],
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
