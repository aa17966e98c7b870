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
    field = KEY_FIELDS.get(context.operation.path)
    if field and isinstance(body, dict):
        body[field] = INGEST_KEY
    return body
