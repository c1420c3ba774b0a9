"""The watch of a space's changes: the event stream parsed as the standard says, resumed without gap or duplicate."""
import unittest

from memorychain import MemoryChain, RetryPolicy
from memorychain.errors import SpaceNotAllowedError, UnauthenticatedError
from memorychain.watch import Event, parse
from tests.fake_server import FakeServer, Reply


def event(seq, kind="MemoryCreated"):
    return f'id: {seq}\nevent: {kind}\ndata: {{"seq": {seq}, "event_type": "{kind}"}}\n\n'


def stream(text):
    return Reply(200, text, {"Content-Type": "text/event-stream"})


class EventStreamTest(unittest.TestCase):
    def test_fields_multi_line_data_comments_and_the_last_event_id(self):
        lines = ["\ufeff: opening", "retry: 2000", "", "id: 7", "event: MemoryCreated", "data: {\"a\":", "data:  1}", "",
                 ": keep-alive", "", "data: no id of its own", "", "id: 8", "event: cut before its blank line"]
        self.assertEqual([Event("7", "MemoryCreated", "{\"a\":\n 1}"), Event("7", "message", "no id of its own")],
                         list(parse(lines)))


class WatchTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer().__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.slept = []
        self.client = MemoryChain(self.server.url, "k", retry=RetryPolicy(max_attempts=1), sleep=self.slept.append)

    def test_a_stream_cut_inside_an_event_is_resumed_after_the_last_seq_without_gap_or_duplicate(self):
        self.server.queue(stream("retry: 500\n\n" + event(1) + event(2) + "id: 3\nevent: MemoryCreated\n"),
                          Reply(503, {"code": "REBALANCING", "message": "moving"}, {"Retry-After": "2"}),
                          stream(event(2) + event(3) + event(4)))
        changes = self.client.watch_changes("team.a")
        seqs = [next(changes).seq for _ in range(4)]
        changes.close()
        self.assertEqual([1, 2, 3, 4], seqs)
        self.assertEqual(["0", "2", "2"], [r.headers.get("last-event-id") for r in self.server.requests])
        self.assertEqual("/v1/spaces/team.a/changes", self.server.requests[0].path)
        self.assertEqual("text/event-stream", self.server.requests[0].headers.get("accept"))
        self.assertEqual([0.5, 2.0], self.slept, "the stream's retry, then the 503's Retry-After")

    def test_an_error_event_of_a_revoked_key_ends_the_watch_with_its_typed_error(self):
        self.server.queue(stream(event(5) + 'event: error\ndata: {"code": "UNAUTHENTICATED", "message": "revoked"}\n\n'))
        changes = self.client.watch_changes("a", 4)
        self.assertEqual(5, next(changes).seq)
        with self.assertRaises(UnauthenticatedError):
            next(changes)
        self.assertEqual(1, len(self.server.requests))

    def test_an_error_answer_other_than_429_or_503_is_raised_at_once(self):
        self.server.queue(Reply(403, {"code": "SPACE_NOT_ALLOWED", "message": "not yours"}))
        with self.assertRaises(SpaceNotAllowedError):
            next(self.client.watch_changes("a"))
        with self.assertRaises(ValueError):
            next(self.client.watch_changes("a", -1))


if __name__ == "__main__":
    unittest.main()
