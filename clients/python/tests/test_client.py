"""Routes, bodies, If-Match helpers, page iterators and answer dataclasses, against the scripted server."""
import unittest

from memorychain import MemoryChain, RetryPolicy, files, if_match_header, models
from memorychain.errors import VersionConflictError
from tests.fake_server import FakeServer, Reply


def memory(mid, version=1, content="x"):
    return {"id": mid, "version": version, "content": content, "state": "active"}


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer().__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.client = MemoryChain(self.server.url + "/", "k", retry=RetryPolicy(max_attempts=1))

    def test_routes_methods_and_query_parameters(self):
        self.server.queue(Reply(200, {"items": [], "next": None}), Reply(200, memory("m 1")),
                          Reply(200, {"id": "m1", "relations": []}))
        self.client.list_memories("team.a", kind="semantic", limit=5, state=None)
        self.client.get_memory("team.a", "m 1", as_of_seq=3)
        self.client.unlink("team.a", "m1", "m2")
        listed, got, unlinked = self.server.requests
        self.assertEqual(("GET", "/v1/spaces/team.a/memories?kind=semantic&limit=5"), (listed.method, listed.path))
        self.assertEqual("/v1/spaces/team.a/memories/m%201?as_of_seq=3", got.path)
        self.assertEqual(("DELETE", "/v1/spaces/team.a/memories/m1/links/m2"), (unlinked.method, unlinked.path))
        self.assertIn("idempotency-key", unlinked.headers)

    def test_a_file_path_keeps_its_slashes_and_its_text_goes_as_markdown(self):
        self.server.queue(Reply(200, "# Preferences\n\n- tea <!-- id:m1 -->\n",
                                {"Content-Type": "text/markdown", "ETag": '"ab12"'}),
                          Reply(200, {"path": "facts/preferences.md", "applied": 1, "changes": []}))
        read = self.client.read_file("a", "facts/preferences.md")
        self.assertEqual('"ab12"', read.etag)
        self.assertIn("tea", read.text)
        written = self.client.write_file("a", "facts/preferences.md", read.text + "- coffee\n", if_match=read.etag)
        self.assertEqual(1, written.applied)
        get, put = self.server.requests
        self.assertEqual("/v1/spaces/a/files/facts/preferences.md", get.path)
        self.assertEqual("text/markdown", get.headers["accept"])
        self.assertEqual(("PUT", "text/markdown", '"ab12"'), (put.method, put.headers["content-type"],
                                                               put.headers["if-match"]))

    def test_if_match_carries_the_expected_version_as_an_entity_tag(self):
        self.assertEqual('"3"', if_match_header(3))
        self.assertEqual('W/"3"', if_match_header('W/"3"'))
        self.assertIsNone(if_match_header(None))
        with self.assertRaises(TypeError):
            if_match_header(True)
        self.server.queue(Reply(200, {"memory": memory("m1", 4), "seq": 9}))
        result = self.client.update_memory("a", "m1", {"content": "y"}, if_match=3, importance=5)
        self.assertEqual(4, result.memory.version)
        self.assertEqual('"3"', self.server.requests[0].headers["if-match"])
        self.assertEqual({"content": "y", "importance": 5}, self.server.requests[0].json())

    def test_a_checked_update_reads_again_after_a_version_conflict(self):
        self.server.queue(Reply(200, memory("m1", 1, "a")), Reply(409, {"code": "VERSION_CONFLICT", "message": "2"}),
                          Reply(200, memory("m1", 2, "ab")), Reply(200, {"memory": memory("m1", 3, "ab!"), "seq": 5}))
        result = self.client.update_memory_checked("a", "m1", lambda m: {"content": m.content + "!"})
        self.assertEqual(3, result.memory.version)
        patches = [r for r in self.server.requests if r.method == "PATCH"]
        self.assertEqual(['"1"', '"2"'], [p.headers["if-match"] for p in patches])
        self.assertEqual({"content": "ab!"}, patches[1].json())

    def test_a_checked_update_gives_up_after_its_attempts(self):
        for version in (1, 2):
            self.server.queue(Reply(200, memory("m1", version)), Reply(409, {"code": "VERSION_CONFLICT", "message": ""}))
        with self.assertRaises(VersionConflictError):
            self.client.update_memory_checked("a", "m1", lambda m: {"content": "z"}, attempts=2)

    def test_the_memory_iterator_follows_next_until_the_last_page(self):
        self.server.queue(Reply(200, {"items": [memory("m1"), memory("m2")], "next": "m2"}),
                          Reply(200, {"items": [memory("m3")], "next": None}))
        ids = [m.id for m in self.client.iter_memories("a", kind="semantic", limit=2)]
        self.assertEqual(["m1", "m2", "m3"], ids)
        self.assertEqual("/v1/spaces/a/memories?kind=semantic&limit=2&after=m2", self.server.requests[1].path)

    def test_file_writes_answer_the_hand_written_markdown_types(self):
        change = {"line": 3, "action": "created", "target": "m9", "seq": 12}
        info = {"path": "facts/preferences.md", "summary": "prefs", "size": 40, "entries": 2}
        self.server.queue(Reply(200, {"path": "facts/preferences.md", "applied": 1, "changes": [change], "file": info}))
        patch = files.MarkdownPatch(edits=[files.MarkdownEdit(old_text="tea", new_text="green tea")])
        written = self.client.patch_file("a", "facts/preferences.md", patch.to_dict())
        self.assertIsInstance(written, files.MarkdownFileWrite)
        self.assertIsInstance(written.changes[0], files.MarkdownFileChange)
        self.assertEqual("m9", written.changes[0].target)
        self.assertIsInstance(written.file, models.MarkdownFileInfo)
        self.assertEqual({"edits": [{"old_text": "tea", "new_text": "green tea"}]}, self.server.requests[0].json())
        self.assertFalse(hasattr(models, "MarkdownFileWrite"), "the generated models follow the served spec")

    def test_the_audit_iterator_follows_next_after_seq(self):
        self.server.queue(Reply(200, {"items": [{"seq": 1}, {"seq": 2}], "next_after_seq": 2}),
                          Reply(200, {"items": [{"seq": 3}], "next_after_seq": None}))
        self.assertEqual([1, 2, 3], [e.seq for e in self.client.iter_audit("a", limit=2)])
        self.assertEqual("/v1/spaces/a/audit?limit=2&after_seq=2", self.server.requests[1].path)

    def test_answers_are_dataclasses_with_nested_answers_and_unknown_fields_kept(self):
        self.server.queue(Reply(200, {"items": [{"id": "m1", "text": "tea", "score": 0.9, "new_field": 1}],
                                      "header": "h", "revision": 3, "omitted": 0, "text": "t", "tokens": 4}))
        answer = self.client.query("a", query="tea", top_k=3)
        self.assertIsInstance(answer, models.QueryJsonAnswer)
        self.assertIsInstance(answer.items[0], models.QueryJsonItem)
        self.assertEqual({"new_field": 1}, answer.items[0].extra)
        self.assertEqual({"query": "tea", "top_k": 3}, self.server.requests[0].json())
        self.assertEqual("tea", answer.to_dict()["items"][0]["text"])

    def test_the_export_of_the_chain_is_parsed_line_by_line(self):
        self.server.queue(Reply(200, '{"header":true}\n{"seq":1}\n', {"Content-Type": "application/x-ndjson"}))
        self.assertEqual([{"header": True}, {"seq": 1}], self.client.export_chain("a"))


if __name__ == "__main__":
    unittest.main()
