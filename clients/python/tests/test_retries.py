"""Retries of 429/503/timeouts/dropped answers: bounded, honouring Retry-After, one Idempotency-Key per write."""
import unittest

from memorychain import MemoryChain, RetryPolicy
from memorychain.errors import InvalidArgumentError, RebalancingError, TimeoutError as ChainTimeout, UnavailableError
from tests.fake_server import FakeServer, Reply

WRITTEN = {"memory": {"id": "m1", "content": "Ana likes tea", "version": 1}, "seq": 7}


class RetryTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer().__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.slept = []
        self.client = MemoryChain(self.server.url, "k", timeout=2.0, sleep=self.slept.append,
                                  retry=RetryPolicy(max_attempts=3, initial_backoff=0.01, max_backoff=0.02))

    def test_a_503_is_retried_after_its_retry_after_with_the_same_idempotency_key(self):
        self.server.queue(Reply(503, {"code": "REBALANCING", "message": "moving"}, {"Retry-After": "2"}),
                          Reply(201, WRITTEN))
        result = self.client.create_memory("a", content="Ana likes tea")
        self.assertEqual("m1", result.memory.id)
        self.assertEqual(7, result.seq)
        self.assertEqual([2.0], self.slept)
        keys = [r.headers.get("idempotency-key") for r in self.server.requests]
        self.assertEqual(2, len(keys))
        self.assertIsNotNone(keys[0])
        self.assertEqual(keys[0], keys[1])
        self.assertEqual({"content": "Ana likes tea"}, self.server.requests[1].json())

    def test_a_429_with_an_http_date_is_retried(self):
        self.server.queue(Reply(429, {"code": "RATE_LIMITED", "message": "slow down"},
                                {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}), Reply(200, {"text": "", "tokens": 0}))
        core = self.client.get_core("a")
        self.assertEqual(0, core.tokens)
        self.assertEqual([0.0], self.slept)  # a date in the past: at once

    def test_retries_are_bounded_and_the_last_answer_is_raised_typed(self):
        self.server.queue(*[Reply(503, {"code": "REBALANCING", "message": "moving", "request_id": "r-1"},
                                  {"Retry-After": "1"}) for _ in range(3)])
        with self.assertRaises(RebalancingError) as caught:
            self.client.create_memory("a", content="x", idempotency_key="r-1")
        self.assertEqual(3, len(self.server.requests))
        self.assertEqual({"r-1"}, {r.headers["idempotency-key"] for r in self.server.requests})
        self.assertEqual(503, caught.exception.status)
        self.assertEqual(1.0, caught.exception.retry_after)
        self.assertEqual("r-1", caught.exception.request_id)

    def test_a_timed_out_write_is_retried_with_the_same_key(self):
        self.client.transport.timeout = 1.0  # the second answer comes at once, even on a busy machine
        self.server.queue(Reply(201, WRITTEN, delay=5.0), Reply(201, WRITTEN))
        result = self.client.create_memory("a", content="x")
        self.assertEqual("m1", result.memory.id)
        self.assertEqual(2, len(self.server.requests))
        self.assertEqual(self.server.requests[0].headers["idempotency-key"],
                         self.server.requests[1].headers["idempotency-key"])

    def test_a_dropped_answer_is_retried_with_the_same_key(self):
        self.server.queue(Reply(drop=True), Reply(201, WRITTEN))
        self.client.create_memory("a", content="x", idempotency_key="mine-1")
        self.assertEqual(["mine-1", "mine-1"], [r.headers["idempotency-key"] for r in self.server.requests])
        self.assertEqual(1, len(self.slept))

    def test_timeouts_every_time_end_in_a_timeout_error(self):
        self.client.transport.timeout = 0.2
        self.server.queue(*[Reply(200, {}, delay=1.0) for _ in range(3)])
        with self.assertRaises(ChainTimeout) as caught:
            self.client.get_core("a")
        self.assertEqual("TIMEOUT", caught.exception.code)
        self.assertEqual(3, len(self.server.requests))

    def test_a_400_is_not_retried(self):
        self.server.queue(Reply(400, {"code": "INVALID_ARGUMENT", "message": "content is required"}))
        with self.assertRaises(InvalidArgumentError):
            self.client.create_memory("a")
        self.assertEqual(1, len(self.server.requests))
        self.assertEqual([], self.slept)

    def test_issuing_a_key_is_not_retried_after_a_503(self):
        self.server.queue(Reply(503, {"code": "UNAVAILABLE", "message": "store down"}))
        with self.assertRaises(UnavailableError):
            self.client.issue_key(id="x", role="agent", spaces=["a"])
        self.assertEqual(1, len(self.server.requests))
        self.assertNotIn("idempotency-key", self.server.requests[0].headers)

    def test_every_write_gets_a_fresh_key_and_reads_get_none(self):
        self.server.queue(Reply(201, WRITTEN), Reply(201, WRITTEN), Reply(200, {"items": [], "next": None}))
        self.client.create_memory("a", content="one")
        self.client.create_memory("a", content="two")
        self.client.list_memories("a")
        first, second, read = self.server.requests
        self.assertNotEqual(first.headers["idempotency-key"], second.headers["idempotency-key"])
        self.assertNotIn("idempotency-key", read.headers)
        self.assertEqual("Bearer k", read.headers["authorization"])


if __name__ == "__main__":
    unittest.main()
