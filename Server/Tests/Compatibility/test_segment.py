"""Segment's official Python SDK (`segment-analytics-python` from PyPI) against a live
collector, pointed at it as its host: tracks, screens, pages and identifies arrive and are
counted exactly, a retried batch counts once, a wrong key is refused with the status the
SDK treats as final, and uploads are gzip-compressed."""

import unittest
import uuid

import segment.analytics.request
from segment.analytics import Client

from collector import CollectorTestCase


class SegmentSDKTests(CollectorTestCase):
    @staticmethod
    def sdk_session():
        return segment.analytics.request._session

    def test_tracks_screens_pages_and_identifies_arrive_and_are_counted_exactly(self):
        errors = []
        client = Client(
            self.collector.ingest_key, host=self.collector.url, gzip=True, upload_size=4, max_retries=0,
            on_error=lambda error, batch: errors.append(error),
        )
        context = {"app": {"version": "3.1.0"}, "os": {"name": "iOS"}}
        for index in range(7):
            client.track(f"user-{index % 3}", "Order Completed", {"total": index}, context=context)
        for _ in range(3):
            client.screen("user-0", name="Home", context=context)
        client.page(anonymous_id="visitor-1", name="Pricing")
        client.identify("user-1", {"plan": "pro"})
        client.flush()
        client.join()

        self.assertEqual(errors, [])
        metrics = self.collector.metrics()
        self.assertEqual(
            metrics["events"], {"Order Completed": 7, "screen_view": 3, "page_view": 1, "identify": 1}
        )
        self.assertEqual(metrics["screens"], {"Home": 3})
        self.assertEqual(metrics["dau"], 4)
        self.assertTrue(self.uploads, "the SDK uploaded nothing")
        self.assertTrue(all(status == 200 and encoding == "gzip" for status, encoding in self.uploads), self.uploads)

    def test_a_retried_batch_counts_once(self):
        batch = [{"type": "track", "event": "Retried", "userId": "user-9", "messageId": str(uuid.uuid4())}]
        for _ in range(3):
            segment.analytics.request.post(self.collector.ingest_key, self.collector.url, gzip=True, batch=batch)
        self.assertEqual(self.collector.metrics()["events"].get("Retried"), 1)

    def test_a_wrong_key_is_refused_as_final(self):
        batch = [{"type": "track", "event": "Refused", "userId": "user-9", "messageId": str(uuid.uuid4())}]
        with self.assertRaises(segment.analytics.request.APIError) as refused:
            segment.analytics.request.post("wrong-write-key", self.collector.url, batch=batch)
        self.assertEqual(refused.exception.status, 401)
        self.assertEqual(refused.exception.code, "invalid_api_key")
        self.assertNotIn("Refused", self.collector.metrics()["events"])


if __name__ == "__main__":
    unittest.main()
