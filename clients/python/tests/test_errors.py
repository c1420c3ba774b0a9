"""Every error code of the service becomes its own exception class, carrying code, message, request id and status."""
import unittest

from memorychain import ERRORS, MemoryChain, MemoryChainError, RetryPolicy
from memorychain.errors import InternalError, NotFoundError, VersionConflictError
from tests.fake_server import FakeServer, Reply

# the service's codes and their HTTP status (memory-api io.memorychain.api.error.ErrorCodes)
STATUS = {
    "INVALID_ARGUMENT": 400, "UNKNOWN_BLOCK_LABEL": 400, "FORBIDDEN": 403, "CONSTITUTIONAL": 403,
    "NOT_IN_REFINEMENT": 403, "CATEGORY_NOT_ALLOWED": 403, "NOT_FOUND": 404, "VERSION_CONFLICT": 409,
    "INVALID_STATE": 409, "HELD_FOR_CONSENT": 409, "ALREADY_LINKED": 409, "ALREADY_RESOLVED": 409, "BUDGET_EXCEEDED": 409, "EXPIRED": 409,
    "TOO_LARGE": 413, "INVALID_PATH": 400, "INVALID_FILTER": 400, "PATCH_CONFLICT": 409,
    "INVALID_CONFIRMATION": 400, "CONFIRMATION_NOT_YOURS": 403, "UNAUTHENTICATED": 401, "SPACE_NOT_ALLOWED": 403,
    "ROLE_NOT_ALLOWED": 403, "GRANT_REQUIRED": 403, "METHOD_NOT_ALLOWED": 405, "NOT_ACCEPTABLE": 406,
    "UNSUPPORTED_MEDIA_TYPE": 415, "REJECTED": 422, "TIMEOUT": 503, "CHAIN_BROKEN": 409, "UNAVAILABLE": 503,
    "REBALANCING": 503, "RATE_LIMITED": 429, "NOT_OWNER": 421, "NOT_AVAILABLE": 501, "INTERNAL": 500,
}


class ErrorMappingTest(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer().__enter__()
        self.addCleanup(self.server.__exit__, None, None, None)
        self.client = MemoryChain(self.server.url, "k", retry=RetryPolicy(max_attempts=1), sleep=lambda s: None)

    def test_every_code_of_the_service_has_its_class(self):
        self.assertEqual(set(STATUS), set(ERRORS))

    def test_each_code_becomes_its_typed_error_with_code_message_request_id_and_status(self):
        for code, status in STATUS.items():
            with self.subTest(code=code):
                self.server.queue(Reply(status, {"code": code, "message": f"why {code}", "request_id": f"req-{code}"}))
                with self.assertRaises(ERRORS[code]) as caught:
                    self.client.update_memory("a", "m1", content="x")
                error = caught.exception
                self.assertIs(type(error), ERRORS[code])
                self.assertIsInstance(error, MemoryChainError)
                self.assertEqual(code, error.code)
                self.assertEqual(f"why {code}", error.message)
                self.assertEqual(f"req-{code}", error.request_id)
                self.assertEqual(status, error.status)
                self.assertIn(code, str(error))

    def test_a_read_error_takes_the_request_id_from_x_request_id(self):
        self.server.queue(Reply(404, {"code": "NOT_FOUND", "message": "no memory m9"}, {"X-Request-Id": "rid-9"}))
        with self.assertRaises(NotFoundError) as caught:
            self.client.get_memory("a", "m9")
        self.assertEqual("rid-9", caught.exception.request_id)

    def test_a_write_error_without_an_id_in_the_answer_names_the_key_sent(self):
        self.server.queue(Reply(409, {"code": "VERSION_CONFLICT", "message": "expected 1, is 2"}))
        with self.assertRaises(VersionConflictError) as caught:
            self.client.update_memory("a", "m1", content="x", if_match=1, idempotency_key="write-42")
        self.assertEqual("write-42", caught.exception.request_id)

    def test_an_unknown_code_of_a_newer_service_keeps_its_code(self):
        self.server.queue(Reply(422, {"code": "SOMETHING_NEW", "message": "newer sequencer"}))
        with self.assertRaises(MemoryChainError) as caught:
            self.client.create_memory("a", content="x")
        self.assertIs(type(caught.exception), MemoryChainError)
        self.assertEqual("SOMETHING_NEW", caught.exception.code)

    def test_an_answer_without_a_json_body_gets_the_code_of_its_status(self):
        self.server.queue(Reply(502, "<html>bad gateway</html>", {"Content-Type": "text/html"}))
        with self.assertRaises(InternalError) as caught:
            self.client.get_core("a")
        self.assertEqual(502, caught.exception.status)
        self.assertIn("bad gateway", caught.exception.message)


if __name__ == "__main__":
    unittest.main()
