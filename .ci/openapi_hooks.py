"""Schemathesis hooks for `.ci/run`'s OpenAPI step: the PostHog and Segment routes take the
app's ingest key in the body (`api_key`, `writeKey`), which no generated body can guess, so
each generated body gets the key of the app under test (`TALLY_INGEST_KEY`). Without them
those routes only ever answer 401, and their payloads go untested."""

import os

import schemathesis

INGEST_KEY = os.environ["TALLY_INGEST_KEY"]
KEY_FIELDS = {
    "/capture/": "api_key",
    "/batch/": "api_key",
    "/e/": "api_key",
    "/i/v0/e/": "api_key",
    "/v1/batch": "writeKey",
    "/v1/identify": "writeKey",
    "/v1/page": "writeKey",
    "/v1/screen": "writeKey",
    "/v1/track": "writeKey",
}


@schemathesis.hook
def map_body(context, body):
    """The key in every body shape: an object's own field, and each event of an array (PostHog's
    `/batch/` takes a bare array of events, each carrying the key); an array with no object in
    it gets one event, so that no generated shape is refused for its key alone."""
    field = KEY_FIELDS.get(context.operation.path)
    if field is None:
        return body
    if isinstance(body, dict):
        body[field] = INGEST_KEY
    elif isinstance(body, list):
        events = [item for item in body if isinstance(item, dict)]
        if not events:
            body.append({"event": "schemathesis", "distinct_id": "schemathesis"})
            events = body[-1:]
        for event in events:
            event[field] = INGEST_KEY
    return body
