"""A minimal agent loop on Memory Chain with a scripted model: no LLM, no network but the memory service.

    source data/keys/api-keys.env              # MEMORY_AGENT_KEY from the service's first start
    python3 examples/python-agent/agent.py     # MEMORY_CHAIN_URL defaults to http://localhost:8080

Each turn: the agent asks the service for its context (core memory + what is relevant to the message), the model
answers or calls a tool (remember / recall), the tool runs through the Python client, the model sees the result and
answers. Two sessions share nothing but the memory service: what the first is told, the second recalls.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

try:
    import memorychain
except ImportError:  # run from a checkout: the client next door
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
    import memorychain

from memorychain import MemoryChain

TOOLS = {
    "remember": "Store one self-contained fact about the user in long-term memory",
    "recall": "Search long-term memory for what is relevant to a question",
}


@dataclass
class ToolCall:
    name: str
    arguments: dict


@dataclass
class Reply:
    text: str | None = None
    tool_call: ToolCall | None = None


class ScriptedModel:
    """Stands in for an LLM with fixed rules: 'remember ...' stores the rest, a question recalls, then it answers
    from what the tool returned (never from its own knowledge: it has none)."""

    def reply(self, messages: list[dict], tools: dict[str, str]) -> Reply:
        last = messages[-1]
        if last["role"] == "tool":
            if last["name"] == "remember":
                return Reply(text="Noted, I will remember that.")
            found = last["content"]
            return Reply(text=f"From memory: {found}" if found else "I do not remember anything about that.")
        said = last["content"].strip()
        match = re.match(r"(?i)remember(?: that)?\s+(.*)", said)
        if match and "remember" in tools:
            return Reply(tool_call=ToolCall("remember", {"content": match.group(1).rstrip(".") + "."}))
        if said.endswith("?") and "recall" in tools:
            return Reply(tool_call=ToolCall("recall", {"query": said}))
        return Reply(text="I see.")


@dataclass
class Agent:
    memory: MemoryChain
    space: str
    model: ScriptedModel = field(default_factory=ScriptedModel)
    thread_id: str = field(default_factory=lambda: "thread-" + uuid.uuid4().hex[:8])

    def turn(self, user_message: str) -> str:
        context = self.memory.context(self.space, message=user_message, thread_id=self.thread_id, max_tokens=800)
        messages = [{"role": "system", "content": "You are a helpful assistant.\n" + (context.text or "")},
                    {"role": "user", "content": user_message}]
        for _ in range(4):  # a bounded number of tool rounds per turn
            reply = self.model.reply(messages, TOOLS)
            if reply.tool_call is None:
                return reply.text or ""
            messages.append({"role": "tool", "name": reply.tool_call.name, "content": self.run(reply.tool_call)})
        return "(gave up after four tool calls)"

    def run(self, call: ToolCall) -> str:
        if call.name == "remember":
            written = self.memory.create_memory(self.space, content=call.arguments["content"], kind="semantic",
                                                thread_id=self.thread_id)
            return f"stored as {written.memory.id}"
        if call.name == "recall":
            answer = self.memory.query(self.space, query=call.arguments["query"], top_k=1)
            return answer.items[0].text if answer.items else ""
        raise ValueError(f"unknown tool {call.name}")


SCRIPT = [
    ["Remember that my sister Eva lives in Lisbon.", "Remember that I am allergic to peanuts."],
    ["Where does my sister Eva live?", "Which food am I allergic to?"],
]
EXPECTED = ["Lisbon", "peanuts"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=os.environ.get("MEMORY_CHAIN_URL", "http://localhost:8080"))
    parser.add_argument("--space", default=os.environ.get("MEMORY_CHAIN_SPACE", "assistant"))
    args = parser.parse_args(argv)
    key = os.environ.get("MEMORY_CHAIN_AGENT_KEY") or os.environ.get("MEMORY_AGENT_KEY")
    if not key:
        print("set MEMORY_AGENT_KEY (source data/keys/api-keys.env) or MEMORY_CHAIN_AGENT_KEY", file=sys.stderr)
        return 2
    memory = MemoryChain(args.url, key)
    answers = []
    for session, turns in enumerate(SCRIPT, start=1):
        agent = Agent(memory, args.space)  # a new agent each session: only the memory service carries over
        print(f"--- session {session} ({agent.thread_id})")
        for said in turns:
            print(f"user:  {said}")
            answer = agent.turn(said)
            print(f"agent: {answer}")
            answers.append(answer)
    recalled = answers[len(SCRIPT[0]):]
    missing = [word for word, answer in zip(EXPECTED, recalled) if word not in answer]
    if missing:
        print(f"the second session did not recall: {', '.join(missing)}", file=sys.stderr)
        return 1
    print("the second session recalled what the first was told")
    return 0


if __name__ == "__main__":
    sys.exit(main())
