"""The OpenAI-style tool definitions and the tool runner, against the scripted server."""
import json
import unittest
from pathlib import Path

from memorychain import MemoryChain, RetryPolicy, TOOL_DEFINITIONS, run_tool, tool_definitions
from memorychain.errors import UnknownBlockLabelError
from tests.fake_server import FakeServer, Reply

DOCS_TOOLS = Path(__file__).resolve().parents[3] / "docs" / "openai-tools.json"


class ToolsTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer().__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.client = MemoryChain(self.server.url, "k", retry=RetryPolicy(max_attempts=1))

    @unittest.skipUnless(DOCS_TOOLS.is_file(), "not run from a checkout: docs/openai-tools.json is not beside it")
    def test_the_shipped_definitions_are_the_documented_ones(self):
        self.assertEqual(json.loads(DOCS_TOOLS.read_text(encoding="utf-8"))["tools"], TOOL_DEFINITIONS)

    def test_definitions_by_name_are_copies_and_unknown_names_are_refused(self):
        tools = tool_definitions(["memory_commit", "memory_recall"])
        self.assertEqual(["memory_commit", "memory_recall"], [t["function"]["name"] for t in tools])
        self.assertEqual("function", tools[0]["type"])
        tools[0]["function"]["name"] = "changed"
        self.assertEqual("memory_commit", tool_definitions(["memory_commit"])[0]["function"]["name"])
        with self.assertRaisesRegex(ValueError, "unknown tool"):
            tool_definitions(["nope"])

    def test_a_call_runs_through_mcp_with_the_space_and_an_idempotency_key(self):
        self.server.queue(Reply(200, {"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": '{"memory":{"id":"m1"},"seq":2}'}], "isError": False}}))
        call = {"id": "call-1", "type": "function",
                "function": {"name": "memory_commit", "arguments": '{"content": "Ana likes tea"}'}}
        self.assertEqual({"memory": {"id": "m1"}, "seq": 2}, run_tool(self.client, call, space="a"))
        sent = self.server.requests[0]
        self.assertEqual(("POST", "/mcp"), (sent.method, sent.path))
        body = sent.json()
        self.assertEqual("tools/call", body["method"])
        self.assertEqual("memory_commit", body["params"]["name"])
        arguments = body["params"]["arguments"]
        self.assertEqual(("a", "Ana likes tea"), (arguments["space"], arguments["content"]))
        self.assertTrue(arguments["idempotency_key"])

    def test_a_plain_text_answer_comes_back_as_text_and_the_models_space_wins(self):
        self.server.queue(Reply(200, {"jsonrpc": "2.0", "id": 1, "result": {
            "content": [{"type": "text", "text": "- Ana likes tea"}]}}))
        answer = run_tool(self.client, {"name": "memory_recall", "arguments": {"query": "tea", "space": "b"}}, space="a")
        self.assertEqual("- Ana likes tea", answer)
        self.assertEqual("b", self.server.requests[0].json()["params"]["arguments"]["space"])

    def test_a_refusal_is_raised_as_its_typed_error(self):
        self.server.queue(Reply(200, {"jsonrpc": "2.0", "id": 1, "result": {"isError": True, "content": [
            {"type": "text", "text": '{"code":"UNKNOWN_BLOCK_LABEL","message":"unknown block label","request_id":"r-7"}'}]}}))
        with self.assertRaises(UnknownBlockLabelError) as raised:
            run_tool(self.client, {"name": "block_update", "arguments": {"label": "nope", "content": "x"}})
        self.assertEqual(("UNKNOWN_BLOCK_LABEL", "r-7"), (raised.exception.code, raised.exception.request_id))


if __name__ == "__main__":
    unittest.main()
