"""PostHog's official Python SDK (`posthog` from PyPI) against a live collector, pointed at
it as its host: events, screens and identifies arrive and are counted exactly, a retried
batch counts once, a wrong key is refused with the status the SDK treats as final, and
uploads are gzip-compressed."""

import unittest
import uuid

import posthog.request
from posthog import Posthog

from collector import CollectorTestCase


class PostHogSDKTests(CollectorTestCase):
    @staticmethod
    def sdk_session():
        return posthog.request._get_session()

    def test_events_screens_and_identifies_arrive_and_are_counted_exactly(self):
        client = Posthog(self.collector.ingest_key, host=self.collector.url, gzip=True, flush_at=4, max_retries=0)
        # A user counts under the version of their last event, and a `$set` carries none: set
        # the profile first, so each user's last event is one that says the app's version, as
        # every event of a mobile SDK does.
        client.set(distinct_id="user-1", properties={"plan": "pro"})
        for index in range(7):
            client.capture("purchase", distinct_id=f"user-{index % 3}", properties={
                "amount": index, "$app_version": "2.0.0", "$os": "Android", "$session_id": "session-1",
            })
        for _ in range(3):
            client.capture("$screen", distinct_id="user-0", properties={"$screen_name": "Home", "$app_version": "2.0.0"})
        client.flush()
        client.shutdown()

        metrics = self.collector.metrics()
        self.assertEqual(metrics["events"], {"purchase": 7, "screen_view": 3, "$set": 1})
        self.assertEqual(metrics["screens"], {"Home": 3})
        self.assertEqual(metrics["dau"], 3)
        self.assertEqual(metrics["versions"], {"2.0.0": 3})
        self.assertTrue(self.uploads, "the SDK uploaded nothing")
        self.assertTrue(all(status == 200 and encoding == "gzip" for status, encoding in self.uploads), self.uploads)

    def test_a_retried_batch_counts_once(self):
        batch = [{"event": "retried", "distinct_id": "user-9", "uuid": str(uuid.uuid4()), "properties": {}}]
        for _ in range(3):
            posthog.request.batch_post(self.collector.ingest_key, self.collector.url, gzip=True, batch=batch)
        self.assertEqual(self.collector.metrics()["events"].get("retried"), 1)

    def test_a_wrong_key_is_refused_as_final(self):
        batch = [{"event": "refused", "distinct_id": "user-9", "uuid": str(uuid.uuid4()), "properties": {}}]
        with self.assertRaises(posthog.request.APIError) as refused:
            posthog.request.batch_post("phc_wrong", self.collector.url, batch=batch)
        # 401: a client error the SDK does not retry.
        self.assertEqual(refused.exception.status, 401)
        self.assertNotIn("refused", self.collector.metrics()["events"])


if __name__ == "__main__":
    unittest.main()
