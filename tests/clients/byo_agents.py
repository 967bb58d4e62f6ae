"""Harnesses a lab might write, loaded as ``--agent tests.clients.byo_agents:NAME``."""

from __future__ import annotations

import json

import anyio

from mcpgym_clients import Agent, AgentResult, EpisodeContext, FunctionAgent, HarnessContext


class OrderStatusAgent(Agent):
    """Class form: answers an `order-status` easy ticket, leaving ``submit`` to the driver."""

    name = "order-status-bot"
    model = "scripted-v1"

    def settings(self) -> dict[str, object]:
        """Recorded with the run."""
        return {"temperature": 0.0}

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """get_ticket, get_order, reply with the tracking number, close; answer in the result."""
        ticket_id = int(ctx.instruction.split("#")[1].split()[0])
        ticket = json.loads((await ctx.call_tool("get_ticket", {"ticket_id": ticket_id})).text)
        order = json.loads(
            (await ctx.call_tool("get_order", {"order_id": ticket["order_id"]})).text
        )
        ship = order["shipments"][0]
        body = f"Order #{order['id']} is with {ship['carrier']}: {ship['tracking_number']}."
        await ctx.call_tool("reply_to_customer", {"ticket_id": ticket_id, "body": body})
        await ctx.call_tool(
            "close_ticket", {"ticket_id": ticket_id, "resolution_code": "information_provided"}
        )
        return AgentResult(
            "completed",
            [{"role": "user", "content": ctx.instruction}, {"role": "assistant", "content": body}],
            usage={"requests": 1, "prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            answer=body,
        )


async def crashing_loop(task: HarnessContext) -> str:
    """Function form: reads the ticket, then its 'model' fails."""
    await task.call_tool("get_ticket", {"ticket_id": int(task.instruction.split("#")[1][:4])})
    task.usage["requests"] = 1
    raise ValueError("the model API said no")


class CrashingAgent(Agent):
    """Class form that raises."""

    name = "crashing-class"

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Fail at once."""
        raise KeyError("missing")


async def returns_a_number(task: HarnessContext) -> int:
    """Function form returning the wrong type."""
    return 7


def make_agent() -> FunctionAgent:
    """A factory: the function form with a name and a model."""
    return FunctionAgent(crashing_loop, name="made", model="m-1", settings={"top_p": 0.5})


not_an_agent = 42


def needs_args(task: object) -> str:
    """A plain (not async) function: the usual mistake."""
    return "x"


class NeedsArgs(Agent):
    """An agent whose constructor needs an argument."""

    def __init__(self, key: str) -> None:
        self.key = key

    async def run(self, ctx: EpisodeContext) -> AgentResult:
        """Never run."""
        return AgentResult("completed")


class CallableLoop:
    """An object with an async ``__call__``: the function form too."""

    async def __call__(self, task: HarnessContext) -> str:
        """Answer at once."""
        return "ok"


callable_loop = CallableLoop()


async def hangs(task: HarnessContext) -> str:
    """Calls one tool, then never returns (to hit --time-limit)."""
    await task.call_tool("get_ticket", {"ticket_id": 1})
    await anyio.Event().wait()
    return "never"
