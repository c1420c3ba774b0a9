"""Against a running service: MEMORY_CHAIN_URL, MEMORY_CHAIN_AGENT_KEY (an agent key on every space, '*') and
MEMORY_CHAIN_ADMIN_KEY (an admin key). Skipped, with the reason, when they are not set. Each run writes to spaces
of its own."""
import os
import unittest
import uuid

from memorychain import TOOL_DEFINITIONS, MemoryChain, fetch_tool_definitions, models, run_tool
from memorychain.errors import (AlreadyLinkedError, InvalidArgumentError, InvalidFilterError, NotFoundError,
                                PatchConflictError, RoleNotAllowedError, SpaceNotAllowedError, TooLargeError,
                                UnauthenticatedError, UnknownBlockLabelError, VersionConflictError)

URL = os.environ.get("MEMORY_CHAIN_URL")
AGENT_KEY = os.environ.get("MEMORY_CHAIN_AGENT_KEY")
ADMIN_KEY = os.environ.get("MEMORY_CHAIN_ADMIN_KEY")
REASON = "set MEMORY_CHAIN_URL, MEMORY_CHAIN_AGENT_KEY and MEMORY_CHAIN_ADMIN_KEY to run against a service"


@unittest.skipUnless(URL and AGENT_KEY and ADMIN_KEY, REASON)
class LiveServiceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.agent = MemoryChain(URL, AGENT_KEY)
        cls.admin = MemoryChain(URL, ADMIN_KEY)
        cls.space = "py-" + uuid.uuid4().hex[:10]

    def test_who_am_i_names_the_agent(self):
        me = self.agent.who_am_i()
        self.assertIsInstance(me, models.Caller)
        self.assertEqual("agent", me.role)
        self.assertIn("*", me.spaces)

    def test_a_memory_lives_through_create_read_update_delete_and_restore(self):
        created = self.agent.create_memory(self.space, content="Ana likes green tea", kind="semantic", importance=4)
        memory = created.memory
        self.assertIsInstance(memory, models.Memory)
        self.assertEqual((1, "active"), (memory.version, memory.state))
        self.assertGreater(created.seq, 0)
        self.assertEqual("Ana likes green tea", self.agent.get_memory(self.space, memory.id).content)
        updated = self.agent.update_memory(self.space, memory.id, content="Ana likes jasmine tea", if_match=1)
        self.assertEqual(2, updated.memory.version)
        with self.assertRaises(VersionConflictError) as stale:
            self.agent.update_memory(self.space, memory.id, content="stale", if_match=1, idempotency_key="stale-" +
                                     memory.id)
        self.assertEqual(409, stale.exception.status)
        self.assertEqual("stale-" + memory.id, stale.exception.request_id)
        checked = self.agent.update_memory_checked(self.space, memory.id, lambda m: {"content": m.content + "!"})
        self.assertEqual("Ana likes jasmine tea!", checked.memory.content)
        deleted = self.agent.delete_memory(self.space, memory.id, reason="test")
        self.assertEqual("soft_deleted", deleted.memory.state)
        self.assertEqual("active", self.agent.restore_memory(self.space, memory.id).memory.state)
        history = self.agent.get_history(self.space, memory.id)
        self.assertGreaterEqual(len(history.items), 4)

    def test_a_retried_write_with_the_same_key_applies_once(self):
        space = self.space + "-idem"
        key = "py-idem-" + uuid.uuid4().hex
        first = self.agent.create_memory(space, content="Ben plays the cello", idempotency_key=key)
        again = self.agent.create_memory(space, content="Ben plays the cello", idempotency_key=key)
        self.assertEqual(first.memory.id, again.memory.id)
        self.assertEqual(first.seq, again.seq)
        self.assertEqual([first.memory.id], [m.id for m in self.agent.iter_memories(space)])

    def test_the_memory_iterator_walks_every_page(self):
        space = self.space + "-pages"
        ids = {self.agent.create_memory(space, content=f"fact number {i}").memory.id for i in range(5)}
        self.assertEqual(ids, {m.id for m in self.agent.iter_memories(space, limit=2)})
        entries = list(self.agent.iter_audit(space, limit=2))
        self.assertEqual(sorted(e.seq for e in entries), [e.seq for e in entries])
        self.assertGreaterEqual(len(entries), 5)

    def test_query_context_blocks_and_core(self):
        space = self.space + "-recall"
        self.agent.create_memory(space, content="The user's dog is called Pixel", kind="semantic")
        answer = self.agent.query(space, query="What is the dog called?", top_k=3)
        self.assertIsInstance(answer, models.QueryJsonAnswer)
        self.assertTrue(any("Pixel" in (item.text or "") for item in answer.items), answer.text)
        self.agent.put_block(space, "persona", content="A helpful assistant")
        self.assertEqual("A helpful assistant", self.agent.get_block(space, "persona").content)
        self.assertIn("A helpful assistant", self.agent.get_core(space).text)
        context = self.agent.context(space, message="Tell me about my dog")
        self.assertIn("Pixel", context.text)

    def test_links_and_relations(self):
        a = self.agent.create_memory(self.space, content="Paris is in France").memory.id
        b = self.agent.create_memory(self.space, content="The Louvre is in Paris").memory.id
        linked = self.agent.link(self.space, a, to=b)
        self.assertEqual([b], [r.to_id for r in linked.relations if r.from_id == a])
        with self.assertRaises(AlreadyLinkedError) as again:
            self.agent.link(self.space, a, to=b)
        self.assertEqual("ALREADY_LINKED", again.exception.code)
        self.assertIsNotNone(again.exception.request_id)
        self.agent.unlink(self.space, a, b)
        self.assertEqual([], self.agent.get_relations(self.space, a).relations)

    def test_the_markdown_files(self):
        space = self.space + "-files"
        self.agent.append_file(space, "facts/preferences.md", text="- Ana prefers mornings")
        listed = self.agent.list_files(space)
        self.assertIn("facts/preferences.md", [f.path for f in listed.files])
        read = self.agent.read_file(space, "facts/preferences.md")
        self.assertIn("Ana prefers mornings", read.text)
        self.assertIsNotNone(read.etag)
        with self.assertRaises(PatchConflictError):
            self.agent.patch_file(space, "facts/preferences.md", edits=[{"old_text": "absent", "new_text": "x"}])

    def test_the_chain_verifies_and_exports(self):
        space = self.space + "-chain"
        self.agent.create_memory(space, content="Chain me")
        self.assertTrue(self.admin.verify_chain(space).ok)
        self.assertEqual(space, self.admin.chain_checkpoint(space).space)
        self.assertTrue(self.agent.chain_keys().keys)
        lines = self.agent.export_chain(space)
        self.assertGreaterEqual(len(lines), 2)
        export = self.agent.export_space(space)
        self.assertEqual("memory-chain-export/1", export["format"])

    def test_the_watch_yields_the_backlog_then_a_change_written_while_it_waits(self):
        space = self.space + "-watch"
        self.agent.create_memory(space, content="before the watch")
        changes = self.agent.watch_changes(space)
        try:
            first = next(changes)
            self.assertEqual((1, "MemoryCreated"), (first.seq, first.event_type))
            self.agent.create_memory(space, content="while it waits")
            self.assertEqual(2, next(changes).seq)
        finally:
            changes.close()

    def test_errors_of_the_real_service_are_typed(self):
        with self.assertRaises(NotFoundError) as missing:
            self.agent.get_memory(self.space, "m-does-not-exist")
        self.assertEqual((404, "NOT_FOUND"), (missing.exception.status, missing.exception.code))
        self.assertTrue(missing.exception.message)
        with self.assertRaises(UnauthenticatedError):
            MemoryChain(URL, "mc_nope_nope").get_core(self.space)
        with self.assertRaises(InvalidArgumentError):
            self.agent.list_memories(self.space, limit=0)
        with self.assertRaises(RoleNotAllowedError):
            self.agent.list_keys()
        with self.assertRaises(TooLargeError) as large:
            self.agent.create_memory(self.space, content="x" * 40000, idempotency_key="too-large-" + self.space)
        self.assertEqual("too-large-" + self.space, large.exception.request_id)
        with self.assertRaises(InvalidFilterError):
            self.agent.query(self.space, query="x", filters={"colour": "red"})
        with self.assertRaises(UnknownBlockLabelError):
            self.agent.put_block(self.space, "no_such_label", content="x")

    def test_a_key_of_one_space_is_refused_another(self):
        issued = self.admin.issue_key(id="py-narrow-" + self.space, role="agent", spaces=[self.space])
        self.assertTrue(issued.key)
        narrow = MemoryChain(URL, issued.key)
        try:
            with self.assertRaises(SpaceNotAllowedError):
                narrow.get_core(self.space + "-other")
            self.assertIn(issued.key_id, [k.key_id for k in self.admin.list_keys().items])
        finally:
            self.assertTrue(self.admin.revoke_key(issued.key_id).revoked)

    def test_a_sub_agent_proposes_and_the_agent_commits(self):
        space = self.space + "-proposals"
        sub = self.admin.issue_key(id="py-sub-" + self.space, role="subagent", spaces=[space])
        try:
            proposed = MemoryChain(URL, sub.key).propose(space, content="Ana's sister is called Eva")
            self.assertEqual("pending", proposed.proposal.status)
            open_ids = [p.id for p in self.agent.list_proposals(space).items]
            self.assertIn(proposed.proposal.id, open_ids)
            committed = self.agent.commit_proposal(space, proposed.proposal.id, reason="looks right")
            self.assertEqual("Ana's sister is called Eva", committed.memory.content)
        finally:
            self.admin.revoke_key(sub.key_id)

    def test_ships_the_tool_definitions_the_service_serves_and_runs_a_tool_call(self):
        self.assertEqual(fetch_tool_definitions(self.agent), TOOL_DEFINITIONS)
        space = self.space + "-tools"
        call = {"function": {"name": "memory_commit", "arguments": '{"content": "Ana\'s favourite colour is teal"}'}}
        committed = run_tool(self.agent, call, space=space)
        self.assertEqual("Ana's favourite colour is teal", self.agent.get_memory(space, committed["memory"]["id"]).content)
        with self.assertRaises(UnknownBlockLabelError):
            run_tool(self.agent, {"name": "block_update", "arguments": {"space": space, "label": "nope", "content": "x"}})


if __name__ == "__main__":
    unittest.main()
