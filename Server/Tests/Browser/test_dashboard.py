"""The dashboard in headless Chromium, against a real `tally serve --demo` (see tally_server.py).

Run in Server/: TALLY_BIN=.build/debug/tally python3 -m unittest discover -s Tests/Browser -p 'test_*.py' -v
"""

import re
import time
import unittest
import urllib.parse
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from tally_server import DEMO_TIME_ZONE, TallyServer, new_driver, sign_in

DEFAULT_SECTIONS = [
    "app", "revenue", "versions", "retention", "bills", "bill_funnel", "entry_quality", "ads", "record_time",
    "sessions", "ratings", "screens", "top_events", "live", "health",
]
server = None


def setUpModule():
    global server
    server = TallyServer().start()


def tearDownModule():
    if server:
        server.stop()


def number(text):
    """The integer a headline shows ("1,234" → 1234)."""
    digits = re.sub(r"[,\s\u00a0\u202f]", "", text)
    if not digits.isdigit():
        raise AssertionError(f"not a whole number: {text!r}")
    return int(digits)


class DashboardTests(unittest.TestCase):
    width, height = 1280, 900

    def setUp(self):
        self.driver = new_driver(self.width, self.height)
        self.addCleanup(self.driver.quit)

    def wait(self, condition, timeout=10, message=""):
        return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition(), message)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def sign_in(self):
        self.assertTrue(sign_in(self.driver, server), "the dashboard did not show after signing in")

    def wait_live(self):
        self.wait(lambda: self.js("return document.body.dataset.live") == "open", message="the WebSocket did not open")

    def section_order(self):
        return self.js("return [...document.querySelectorAll('[data-section]')].map(e => e.dataset.section)")

    def text(self, selector):
        """The element's text, read in one step (patches replace elements at any time)."""
        return self.js("const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null", selector)

    def metric(self, key):
        return self.text(f'[data-metric="{key}"]')

    def open_sheet(self, button):
        # The resync on connecting replaces the bar's buttons: a click may find one stale.
        self.retry(lambda: self.driver.find_element(By.ID, button).click(), f"cannot click #{button}")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#sheet-slot .sheet"), message="no sheet")
        self.sheet_rect()  # clicks inside land where they aim once it stops sliding in

    def demo_day(self, days_ago):
        return (datetime.now(ZoneInfo(DEMO_TIME_ZONE)) - timedelta(days=days_ago)).date().isoformat()

    def open_page(self, query):
        """Signs in and opens the demo app's page at `query`, live; yesterday and the week
        before are whole days of the demo whatever the hour."""
        self.sign_in()
        base = self.driver.current_url.split("?")[0]
        self.driver.get(f"{base}?{query}")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "[data-section]"), message="no sections")
        self.wait_live()
        return base

    def week_query(self):
        return f"date={self.demo_day(1)}&from={self.demo_day(7)}"

    def query(self):
        return urllib.parse.parse_qs(urllib.parse.urlparse(self.driver.current_url).query)

    def chips(self):
        return self.js("return [...document.querySelectorAll('#filter-bar .chip')].map(e => e.dataset.property)")

    def retry(self, action, message):
        """Runs `action` until it does not find its element stale or missing: the server
        draws a sheet again as its form changes."""
        def attempt():
            try:
                action()
                return True
            except (StaleElementReferenceException, NoSuchElementException):
                return False
        self.wait(attempt, message=message)

    def choose(self, select_id, value):
        self.retry(lambda: Select(self.driver.find_element(By.ID, select_id)).select_by_value(value),
                   f"cannot choose {value} in #{select_id}")

    def add_filter(self, property_name, value):
        """Adds `property_name is value` through the filter sheet, as a user does."""
        self.open_sheet("filter-button")
        self.choose("filter-property", property_name)
        self.retry(lambda: self.driver.find_element(
            By.CSS_SELECTOR, f"#filter-form input[name=value][value='{value}']").click(), f"no value {value} offered")
        self.wait(lambda: self.js(f"return !!document.querySelector(\"#filter-form input[value='{value}']:checked\")"),
                  message="the value is not ticked")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#filter-form button[type=submit]").click(), "no Apply button")
        self.wait(lambda: property_name in self.chips(), message=f"no chip for {property_name}: {self.chips()}")

    def sheet_rect(self):
        """The sheet's box once it stops moving (it slides in)."""
        script = "const r = document.querySelector('#sheet-slot .sheet').getBoundingClientRect();" \
                 "return [r.left, r.top, r.width, r.height, innerWidth, innerHeight]"
        previous = None
        for _ in range(40):
            rect = self.js(script)
            if rect == previous:
                return rect
            previous = rect
            time.sleep(0.1)
        self.fail(f"the sheet kept moving: {rect}")

    def test_sign_in_with_wrong_then_right_password(self):
        self.assertFalse(sign_in(self.driver, server, password="wrong-" + server.password))
        error = self.driver.find_element(By.CSS_SELECTOR, ".error")
        self.assertTrue(error.text.strip())
        self.assertTrue(sign_in(self.driver, server))
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "[data-section]"))

    def test_default_sections_and_a_headline(self):
        self.sign_in()
        self.assertCountEqual(self.section_order(), DEFAULT_SECTIONS)
        # Today may have no events yet (the demo's day starts at midnight in Asia/Shanghai):
        # the 30-day window always has some.
        self.assertGreaterEqual(number(self.metric("dau")), 0)
        self.assertGreater(number(self.metric("mau")), 0)
        for days in (1, 7, 30):
            self.assertRegex(self.metric(f"retention:{days}"), r"^(\d+%|—)$")

    def test_date_sheet_changes_values_without_page_load(self):
        self.sign_in()
        self.wait_live()
        self.js("window.__marker = 1")
        label = self.text("#date-button")
        dau = self.metric("dau")
        self.open_sheet("date-button")
        self.driver.find_element(By.CSS_SELECTOR, "#sheet [data-event=range][data-value=yesterday]").click()
        self.wait(lambda: self.metric("dau") != dau or self.text("#date-button") != label,
                  message="neither the headline nor the date label changed")
        self.assertEqual(self.js("return window.__marker"), 1, "the page was loaded again")
        yesterday = {(datetime.now(ZoneInfo(DEMO_TIME_ZONE)) - timedelta(days=days)).date().isoformat() for days in (1, 2)}
        self.wait(lambda: urllib.parse.parse_qs(urllib.parse.urlparse(self.driver.current_url).query).get("date", [None])[0] in yesterday,
                  message=f"the URL has no date of yesterday: {self.driver.current_url}")

    def test_reorder_is_kept_after_reload(self):
        self.sign_in()
        self.wait_live()
        before = self.section_order()
        self.assertGreater(before.index("ads"), 0, f"ads is already first: {before}")
        self.open_sheet("sections-button")
        self.driver.find_element(
            By.XPATH, "//ol[@id='section-manager']//button[@data-event='move'][@data-for='ads'][normalize-space()='Up']"
        ).click()
        self.wait(lambda: self.section_order().index("ads") < before.index("ads"),
                  message=f"ads did not move up: {self.section_order()}")
        moved = self.section_order()
        self.driver.refresh()
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "[data-section]"))
        self.assertEqual(self.section_order(), moved)

    def test_ingested_event_shows_within_a_second(self):
        self.sign_in()
        self.wait_live()
        self.js("window.__marker = 1")
        before = number(self.metric("events"))
        self.assertEqual(server.ingest("bill_created", "browser-" + uuid.uuid4().hex), 200)
        sent = time.monotonic()
        seen = None
        while time.monotonic() - sent < 1.0:
            if number(self.metric("events")) == before + 1:
                seen = time.monotonic() - sent
                break
            time.sleep(0.05)
        self.assertIsNotNone(seen, f"events still {self.metric('events')} (was {before}) after 1 s")
        print(f"\n  ingest to dashboard: {seen * 1000:.0f} ms", flush=True)
        self.assertEqual(self.js("return window.__marker"), 1, "the page was loaded again")

    def test_a_filter_changes_the_numbers_and_the_url_keeps_it(self):
        self.open_page(self.week_query())
        mau, events = number(self.metric("range_users")), number(self.metric("range_events"))
        self.assertEqual(self.chips(), [])
        self.add_filter("platform", "android")
        self.wait(lambda: number(self.metric("range_users")) < mau, message=f"the range's users did not drop under the filter: {self.metric('range_users')} of {mau}")
        self.assertLessEqual(number(self.metric("range_events")), events)
        self.assertEqual(self.query().get("filters"), ["platform==android"])
        self.assertIn("Platform is android", self.text("#filter-bar .chip"))
        # Back shows the page before the filter, Forward the filtered one again.
        self.driver.back()
        self.wait(lambda: self.chips() == [] and number(self.metric("range_users")) == mau, message="Back did not restore the page")
        self.assertNotIn("filters", self.query())
        self.driver.forward()
        self.wait(lambda: self.chips() == ["platform"] and number(self.metric("range_users")) < mau, message="Forward did not restore the filter")

    def test_a_filtered_url_reloads_and_its_chip_removes_it(self):
        base = self.open_page(self.week_query())
        mau = number(self.metric("range_users"))
        self.driver.get(f"{base}?{self.week_query()}&filters=plan==pro")
        self.wait(lambda: self.chips() == ["plan"], message="the address's filter has no chip")
        self.wait_live()
        pro = number(self.metric("range_users"))
        self.assertLess(pro, mau, "the pro plan's users are not fewer than all")
        self.assertGreater(pro, 0, "the demo has no pro users")
        self.driver.refresh()
        self.wait(lambda: self.chips() == ["plan"] and self.metric("range_users") is not None, message="the filter did not survive a reload")
        self.assertEqual(number(self.metric("range_users")), pro)
        self.wait_live()
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#filter-bar .chip[data-property=plan] .chip-remove").click(),
                   "cannot click the chip's ×")
        self.wait(lambda: self.chips() == [] and number(self.metric("range_users")) == mau, message="removing the chip did not unfilter")
        self.assertNotIn("filters", self.query())

    def segment_names(self):
        return self.js("return [...document.querySelectorAll('#filter-bar .saved-segments a')].map(e => e.textContent)")

    def open_segments_menu(self):
        # The bar is drawn again as the filter changes: a click may find the menu stale.
        self.retry(lambda: self.js("return document.querySelector('#segments[open]')") or
                   self.driver.find_element(By.CSS_SELECTOR, "#segments > summary").click(), "no Segments menu")
        self.wait(lambda: self.js("return !!document.querySelector('#segments[open]')"), message="the Segments menu did not open")

    def test_a_segment_saved_from_the_filter_bar_is_picked_after_a_reload(self):
        base = self.open_page(self.week_query())
        mau = number(self.metric("range_users"))
        self.add_filter("platform", "android")
        self.wait(lambda: number(self.metric("range_users")) < mau, message="the range's users did not drop under the filter")
        android = number(self.metric("range_users"))
        # Saved from the bar's Segments menu under a name of its own (the server is shared).
        name = f"Android {uuid.uuid4().hex[:6]}"
        self.open_segments_menu()
        self.retry(lambda: self.driver.find_element(By.ID, "segment-name").send_keys(name), "no name field")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#segment-save button[type=submit]").click(), "no Save button")
        self.wait(lambda: name in self.segment_names(), message=f"the segment is not listed: {self.segment_names()}")
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))

        # A reload of the unfiltered page lists it; picking it applies its filter, in the address too.
        self.driver.get(f"{base}?{self.week_query()}")
        self.wait(lambda: self.chips() == [] and name in self.segment_names(), message="the reloaded page does not list the segment")
        self.wait_live()
        self.wait(lambda: number(self.metric("range_users")) == mau, message="the unfiltered page shows other numbers")
        self.open_segments_menu()
        self.retry(lambda: next(link for link in self.driver.find_elements(By.CSS_SELECTOR, "#filter-bar .saved-segments a")
                                if link.text == name).click(), f"cannot pick {name}")
        self.wait(lambda: self.chips() == ["platform"] and number(self.metric("range_users")) == android,
                  message=f"picking the segment did not filter: {self.chips()}, MAU {self.metric('range_users')}")
        self.assertEqual(self.query().get("filters"), ["platform==android"])
        self.assertFalse(self.js("return !!document.querySelector('#segments[open]')"), "the menu stayed open after a pick")
        # The link shares it: a fresh load of the address shows the same numbers.
        self.driver.get(self.driver.current_url)
        self.wait(lambda: self.chips() == ["platform"] and self.metric("range_users") is not None, message="the link lost the filter")
        self.assertEqual(number(self.metric("range_users")), android)

        # Its × deletes it; the filter stays.
        self.wait_live()
        self.open_segments_menu()
        self.retry(lambda: self.driver.find_element(
            By.CSS_SELECTOR, f"#filter-bar .segment-delete[data-value='{name}']").click(), "no delete button")
        self.wait(lambda: name not in self.segment_names(), message="the segment is still listed")
        self.assertEqual(self.chips(), ["platform"])
        self.driver.refresh()
        self.wait(lambda: self.chips() == ["platform"], message="no chip after the reload")
        self.assertNotIn(name, self.segment_names())

    def test_a_bad_filter_in_the_url_shows_a_message_and_the_whole_page(self):
        base = self.open_page(self.week_query())
        mau = number(self.metric("range_users"))
        for bad in ("plan=pro", "country==fr"):
            self.driver.get(f"{base}?{self.week_query()}&filters={bad}")
            self.wait(lambda: self.text("#filter-bar .notice"), message=f"no notice for {bad}")
            self.assertIn("left out", self.text("#filter-bar .notice"))
            self.assertEqual(number(self.metric("range_users")), mau)
            self.assertEqual(self.chips(), [])
            self.wait_live()
            self.wait(lambda: "filters" not in self.query(), message="the bad filter stayed in the address")

    def test_a_funnel_section_draws_its_steps(self):
        self.open_page(self.week_query())
        first = number(self.metric("funnel:bill_funnel:1"))
        second, third = number(self.metric("funnel:bill_funnel:2")), number(self.metric("funnel:bill_funnel:3"))
        self.assertGreater(first, 0)
        self.assertTrue(first >= second >= third, (first, second, third))
        self.assertEqual(self.js("return document.querySelectorAll('[data-section=bill_funnel] svg.funnel-bar').length"), 3)
        details = self.js("return [...document.querySelectorAll('[data-section=bill_funnel] .cell-step .detail')].map(e => e.textContent)")
        self.assertEqual(len(details), 3)
        self.assertIn("of step 1", details[1])
        self.assertIn("dropped", details[1])
        self.assertIn("converted within 1 hour", self.text("[data-section=bill_funnel] .note"))
        # Under a filter the funnel counts fewer users.
        self.add_filter("platform", "android")
        self.wait(lambda: number(self.metric("funnel:bill_funnel:1")) < first, message="the funnel did not count under the filter")

    def test_an_annotation_is_marked_on_the_chart_and_a_rule_is_added_in_the_alerts_sheet(self):
        text = f"Release {uuid.uuid4().hex[:6]}"
        server.annotate(self.demo_day(3), text)
        self.open_page(self.week_query())
        marker = "[data-section=app] svg .annotation"
        self.wait(lambda: any(text in label for label in self.js(
            f"return [...document.querySelectorAll('{marker}')].map(e => e.getAttribute('aria-label'))")),
            message="no marker with the annotation's text on the App section's chart")
        # Focusing the marker's chart day shows the note in the readout.
        self.js(f"const m = [...document.querySelectorAll('{marker}')].find(e => e.getAttribute('aria-label').includes(arguments[0]));"
                "m.focus(); m.closest('svg').dispatchEvent(new PointerEvent('pointermove', {bubbles: true,"
                " clientX: m.querySelector('circle').getBoundingClientRect().x + 4}))", text)
        self.wait(lambda: text in (self.text("[data-section=app] .chart-readout") or ""), message="the readout does not show the note")

        self.open_sheet("alerts-button")
        self.wait(lambda: text in (self.text("#sheet-slot .annotations") or ""), message="the sheet does not list the annotation")
        name = f"Few bills {uuid.uuid4().hex[:4]}"
        for field, value in [("alert-name", name), ("alert-metric", "event:bill_created"), ("alert-condition", "below 1"),
                             ("alert-webhook", "https://example.com/hook")]:
            self.retry(lambda: self.driver.find_element(By.ID, field).send_keys(value), f"no field {field}")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#alert-add button[type=submit]").click(), "no Add button")
        self.wait(lambda: "whs_" in (self.text("#sheet-slot .alert-secret") or ""), message="the rule's secret is not shown")
        self.assertIn(name, self.text("#sheet-slot .alert-rules"))
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, f".alert-delete[data-value='{name}']").click(), "no Delete button")
        self.wait(lambda: name not in (self.text("#sheet-slot .alert-rules") or ""), message="the rule is still listed")

    def test_the_funnel_sheet_breaks_a_funnel_down(self):
        self.open_page(self.week_query())
        self.open_sheet("funnel-button")
        self.assertIn("Pick at least two steps", self.text("#sheet"))
        self.choose("funnel-step-1", "screen_view")
        self.choose("funnel-step-2", "bill_created")
        self.wait(lambda: self.metric("funnel-step:2") is not None, message="the funnel was not counted")
        self.choose("funnel-breakdown", "plan")
        self.wait(lambda: self.js("return document.querySelectorAll('#sheet .funnel-breakdown tbody tr').length") >= 2,
                  message="no breakdown rows")
        values = self.js("return [...document.querySelectorAll('#sheet .funnel-breakdown tbody tr')].map(r => r.dataset.breakdownValue)")
        self.assertTrue(set(values) <= {"free", "pro", "team", ""} and {"free", "pro"} <= set(values), values)
        first = number(self.metric("funnel-step:1"))
        self.assertGreaterEqual(first, number(self.metric("funnel-step:2")))
        rows = self.js("return [...document.querySelectorAll('#sheet .funnel-breakdown tbody tr')]"
                       ".map(r => [...r.querySelectorAll('td')].map(c => c.textContent))")
        self.assertTrue(all(len(row) == 3 and row[2].endswith("%") for row in rows), rows)
        self.assertGreaterEqual(sum(int(row[0]) for row in rows), first, "every user of the first step is in a row")
        query = self.query()
        self.assertEqual((query.get("sheet"), query.get("steps"), query.get("breakdown")),
                         (["funnel"], ["screen_view,bill_created"], ["plan"]))
        self.driver.refresh()
        self.wait(lambda: self.js("return document.querySelectorAll('#sheet .funnel-breakdown tbody tr').length") >= 2,
                  message="the funnel sheet did not survive a reload")

    # ---- A user's timeline and the user search

    def feed_link(self, user_id):
        """The live feed's link to `user_id`'s sheet, once the feed shows it."""
        script = "return [...document.querySelectorAll('[data-section=live] a.user-link')]" \
                 ".find(a => a.dataset.value === 'user:' + arguments[0]) || null"
        return self.wait(lambda: self.js(script, user_id), message=f"the live feed has no link to {user_id!r}")

    def timeline(self):
        """The open user sheet as it reads: the user id, the days, the sessions of each day
        and the event names of each session, in order."""
        return self.js("""
            const sheet = document.querySelector('#sheet[data-sheet=user]');
            if (!sheet || !sheet.querySelector('.user-facts')) return null;
            return {id: sheet.querySelector('.user-facts .user-id').textContent,
                    days: [...sheet.querySelectorAll('.timeline-day')].map(day => ({
                        day: day.dataset.day,
                        sessions: [...day.querySelectorAll('.timeline-session')].map(session => ({
                            id: session.dataset.session,
                            label: session.querySelector('.session-id').textContent,
                            events: [...session.querySelectorAll('.event-name')].map(e => e.textContent)}))}))};""")

    def test_a_timeline_opened_from_the_live_feed(self):
        """A user id in the live feed is a link: a click opens the user's timeline in a sheet,
        live (no page load), grouped by day and session, and the address keeps it."""
        # An id with what HTML and URLs treat specially, and events of two sessions and none.
        user_id = f"browser <b>&\"{uuid.uuid4().hex[:8]}\"+%20"
        self.sign_in()
        self.wait_live()
        self.assertEqual(server.ingest("login", user_id, {"method": "apple"}, session_id="s-1"), 200)
        self.assertEqual(server.ingest("bill_created", user_id, {"amount": 12.5, "note": "<i>lunch</i>"}), 200)
        self.assertEqual(server.ingest("screen_view", user_id, {"screen": "Home"}, session_id="s-2"), 200)
        self.js("window.__marker = 1")
        link = self.feed_link(user_id)
        self.assertIn("sheet=user&user=", link.get_attribute("href"))
        self.retry(lambda: self.feed_link(user_id).click(), "cannot click the user's link")
        self.wait(lambda: (self.timeline() or {}).get("id") == user_id, message=f"no timeline of the user: {self.timeline()}")
        today = self.demo_day(0)
        expected = {"id": user_id, "days": [{"day": today, "sessions": [
            {"id": "s-2", "label": "Session s-2", "events": ["screen_view"]},
            {"id": "", "label": "No session", "events": ["bill_created"]},
            {"id": "s-1", "label": "Session s-1", "events": ["login"]}]}]}
        self.wait(lambda: self.timeline() == expected, message=f"the timeline reads {self.timeline()}")
        self.assertIn("note=<i>lunch</i>", self.text("#sheet .timeline"), "the property, as text")
        self.assertEqual(self.text("#sheet .event-screen"), "Home")
        self.assertEqual(self.js("return window.__marker"), 1, "the page was loaded again")
        self.wait(lambda: self.query().get("user") == [user_id], message=f"the address has no user: {self.driver.current_url}")
        self.assertEqual(self.query().get("sheet"), ["user"])
        # The address opens it again.
        self.driver.refresh()
        self.wait(lambda: self.timeline() == expected, message=f"after a reload the timeline reads {self.timeline()}")

    def test_user_search_opens_a_users_timeline(self):
        """The Users button opens the search: typing a prefix lists the ids that start with it,
        choosing one opens that user's timeline, and its link goes back to the search."""
        self.open_page(self.week_query())
        self.open_sheet("users-button")
        results = "return [...document.querySelectorAll('#user-results .user-link')].map(a => a.textContent)"
        self.wait(lambda: len(self.js(results)) > 0, message="the empty search lists nobody")
        self.retry(lambda: self.driver.find_element(By.ID, "user-prefix").send_keys("user-00"), "no search field")
        self.wait(lambda: self.js(results) == [f"user-00{number:02}" for number in range(20)],
                  message=f"the search lists {self.js(results)}")
        # The field came again with the answer: typing goes on where it was.
        self.retry(lambda: self.driver.switch_to.active_element.send_keys("1"), "the search field lost the focus")
        self.wait(lambda: self.js(results) == [f"user-001{digit}" for digit in range(10)],
                  message=f"the search lists {self.js(results)}")
        self.assertEqual(self.driver.find_element(By.ID, "user-prefix").get_attribute("value"), "user-001", "the typing was kept")
        self.wait(lambda: self.query().get("prefix") == ["user-001"], message=f"the address has no prefix: {self.driver.current_url}")
        self.retry(lambda: next(a for a in self.driver.find_elements(By.CSS_SELECTOR, "#user-results .user-link")
                                if a.text == "user-0013").click(), "cannot choose user-0013")
        self.wait(lambda: (self.timeline() or {}).get("id") == "user-0013", message="the user's timeline did not open")
        self.assertGreater(len(self.timeline()["days"]), 0, "the demo user has no events")
        days = [day["day"] for day in self.timeline()["days"]]
        self.assertEqual(days, sorted(days, reverse=True), "days are not newest first")
        self.assertEqual(self.query().get("sheet"), ["user"])
        # Older events: the next page is read onto the timeline, still newest first.
        events = "return [...document.querySelectorAll('#sheet .timeline-event time')].map(t => t.getAttribute('datetime'))"
        first = self.js(events)
        self.assertTrue(self.driver.find_elements(By.ID, "older-events"), f"the demo user has {len(first)} events only")
        self.retry(lambda: self.driver.find_element(By.ID, "older-events").click(), "cannot click Older events")
        self.wait(lambda: len(self.js(events)) > len(first), message="no older events were read")
        self.assertEqual(self.js(events)[:len(first)], first)
        self.assertEqual(self.js(events), sorted(self.js(events), reverse=True), "the events are not newest first")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#sheet .user-nav a").click(), "no link back to the search")
        self.wait(lambda: self.js(results) == [f"user-001{digit}" for digit in range(10)], message="the search lost its prefix")
        self.retry(lambda: self.driver.find_element(By.ID, "user-prefix").send_keys("x"), "no search field")
        self.wait(lambda: "No user id starts with" in (self.text("#user-results") or ""), message="no word for an unknown prefix")

    # ---- The paths sheet

    def path_columns(self):
        """The open paths sheet's columns as drawn: per column, each step's name (as the
        store gives it) and sessions, in order; None until they are drawn."""
        return self.js("""
            const svg = document.querySelector('#sheet[data-sheet=paths] svg.paths');
            if (!svg) return null;
            const columns = [];
            for (const step of svg.querySelectorAll('.path-step')) {
                (columns[+step.dataset.level] ||= []).push([step.dataset.step, +step.dataset.sessions]);
            }
            return columns;""")

    def api_columns(self, start, direction="after", depth=3):
        """The columns `GET /v1/paths` gives for the week of `week_query`, the start first."""
        query = urllib.parse.urlencode({"from": self.demo_day(7), "to": self.demo_day(1), "start": start, "kind": "screen",
                                        "direction": direction, "depth": depth})
        paths = server.read(f"/v1/paths?{query}")
        return [[[start, paths["sessions"]]]] + [[[step["step"], step["sessions"]] for step in level] for level in paths["levels"]]

    def test_a_paths_sheet_opened_from_a_screen_row(self):
        """A screen's row links to its paths: a click opens the sheet live (no page load), its
        columns are the read API's counts for the same range, and the address keeps it."""
        self.open_page(self.week_query())
        link = "[data-section=screens] a.paths-link[data-value='paths:Home']"
        href = self.wait(lambda: self.js("return document.querySelector(arguments[0])?.href", link), message="Home's row has no paths link")
        self.assertIn("&sheet=paths&start=Home&kind=screen", href)
        expected = self.api_columns("Home")
        self.assertGreater(expected[0][0][1], 0, "no demo session showed Home")
        self.js("window.__marker = 1")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, link).click(), "cannot click Home's paths link")
        self.wait(lambda: self.path_columns() == expected, message=f"the sheet draws {self.path_columns()}, not {expected}")
        self.assertEqual(number(self.metric("paths-sessions")), expected[0][0][1])
        self.assertEqual(self.js("return window.__marker"), 1, "the page was loaded again")
        self.assertEqual({name: self.query().get(name) for name in ("sheet", "start", "kind")},
                         {"sheet": ["paths"], "start": ["Home"], "kind": ["screen"]})
        # The store's special steps read as words, and a bar is as long as its share.
        names = self.js("return [...document.querySelectorAll('#sheet .path-step.special .path-name')].map(e => e.textContent)")
        self.assertTrue(set(names) <= {"Session ended", "Other"}, names)
        self.assertEqual(len(names), sum(step in ("$end", "$other") for column in expected for step, _ in column))
        widths = self.js("return [...document.querySelectorAll('#sheet .path-step .fill')].map(e => e.getBBox().width)")
        sessions = [count for column in expected for _, count in column]
        for width, count in zip(widths, sessions):
            self.assertAlmostEqual(width, 150 * count / expected[0][0][1], delta=0.1)
        # The address opens it again.
        self.driver.refresh()
        self.wait(lambda: self.path_columns() == expected, message=f"after a reload the sheet draws {self.path_columns()}")

    def test_the_paths_form_changes_the_direction_and_the_depth(self):
        """The filter bar's Paths button opens the sheet on the day's most shown screen; its
        form counts again as the depth and the direction change, and the address follows."""
        self.open_page(self.week_query())
        start = self.js("return document.getElementById('paths-button').dataset.value").removeprefix("paths:")
        self.assertTrue(start, "the button names no screen")
        self.open_sheet("paths-button")
        self.wait(lambda: self.path_columns() == self.api_columns(start), message=f"the sheet draws {self.path_columns()}")
        self.assertEqual(self.js("return document.getElementById('paths-start').value"), start)
        self.choose("paths-depth", "2")
        self.wait(lambda: self.path_columns() == self.api_columns(start, depth=2), message=f"depth 2 draws {self.path_columns()}")
        self.assertEqual(len(self.path_columns()), 3)
        self.choose("paths-direction", "before")
        expected = self.api_columns(start, direction="before", depth=2)
        self.wait(lambda: self.path_columns() == expected, message=f"before draws {self.path_columns()}, not {expected}")
        titles = self.js("return [...document.querySelectorAll('#sheet .path-title')].map(e => e.textContent)")
        self.assertEqual(titles, ["Start", "1 step before", "2 steps before"])
        self.assertEqual((self.query().get("direction"), self.query().get("depth")), (["before"], ["2"]))
        # Its table lists the same numbers.
        rows = self.js("return [...document.querySelectorAll('#sheet .path-table tbody tr')].map(r => +r.querySelector('td[data-n]').dataset.n)")
        self.assertEqual(rows, [count for column in expected for _, count in column])

    def console_policy_messages(self):
        """The console's messages about the Content Security Policy since the last call, once
        what the page did last has had time to log (a blocked inline style logs one each)."""
        time.sleep(0.3)
        return [entry["message"] for entry in self.driver.get_log("browser") if "Content Security Policy" in entry["message"]]

    def test_pages_sheets_and_patches_keep_to_the_content_security_policy(self):
        """The login page, the dashboard (light and dark), each sheet (the user search and a
        user's timeline among them), and the patches of a move, a hidden and shown section, a
        search, a range and a live update: none breaks the server's own policy, so every style
        the layout needs is applied."""
        found = {}

        def check(step):
            messages = self.console_policy_messages()
            if messages:
                found[step] = messages
            print(f"\n  {self.width} px, {step}: {len(messages)} CSP console messages", end="", flush=True)

        def close_sheet():
            self.driver.find_element(By.CSS_SELECTOR, "#sheet a.close").click()
            self.wait(lambda: not self.driver.find_elements(By.CSS_SELECTOR, "#sheet-slot .sheet"), message="the sheet stayed open")

        self.driver.get(server.page("/login"))
        check("login page")
        self.sign_in()
        self.wait_live()
        check("dashboard")

        self.driver.find_element(By.CSS_SELECTOR, "a.metric[data-event=sheet]").click()
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#sheet[data-sheet=metric]"), message="no metric sheet")
        check("metric sheet")
        close_sheet()

        label = self.text("#date-button")
        self.open_sheet("date-button")
        check("date sheet")
        self.driver.find_element(By.CSS_SELECTOR, "#sheet [data-event=range][data-value='7d']").click()
        self.wait(lambda: self.text("#date-button") != label, message="the range did not change")
        check("date sheet, another range")
        close_sheet()

        self.open_sheet("filter-button")
        self.choose("filter-property", "plan")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#filter-form input[name=value]"), message="no values offered")
        check("filter sheet")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#filter-form input[name=value]").click(), "no value to tick")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#filter-form button[type=submit]").click(), "no Apply button")
        self.wait(lambda: self.chips() == ["plan"], message="no chip")
        check("filter chip")
        self.open_sheet("funnel-button")
        self.choose("funnel-step-1", "screen_view")
        self.choose("funnel-step-2", "bill_created")
        self.choose("funnel-breakdown", "platform")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#sheet .funnel-breakdown"), message="no breakdown")
        check("funnel sheet")
        close_sheet()
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#filter-bar .chip-remove").click(), "cannot click the chip's ×")
        self.wait(lambda: self.chips() == [], message="the chip stayed")

        self.open_sheet("paths-button")
        self.wait(lambda: self.path_columns(), message="no paths drawn")
        check("paths sheet")
        self.choose("paths-depth", "5")
        self.wait(lambda: len(self.path_columns() or []) == 6, message="the depth did not change")
        check("paths sheet, another depth")
        close_sheet()

        self.open_sheet("users-button")
        self.retry(lambda: self.driver.find_element(By.ID, "user-prefix").send_keys("user-00"), "no search field")
        self.wait(lambda: self.query().get("prefix") == ["user-00"], message="the search did not run")
        check("user search")
        self.retry(lambda: self.driver.find_element(By.CSS_SELECTOR, "#user-results .user-link").click(), "cannot choose a user")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#sheet .timeline-event"), message="no timeline")
        check("user sheet")
        close_sheet()

        self.open_sheet("sections-button")
        check("sections sheet")
        before = self.section_order()
        self.driver.find_element(
            By.XPATH, "//ol[@id='section-manager']//button[@data-event='move'][@data-for='health'][normalize-space()='Up']"
        ).click()
        self.wait(lambda: self.section_order().index("health") < before.index("health"), message="health did not move up")
        check("section moved")
        self.sheet_rect()  # the sheet comes again with each change
        self.driver.find_element(By.ID, "hide-health").click()
        self.wait(lambda: "health" not in self.section_order(), message="health was not hidden")
        self.sheet_rect()
        self.driver.find_element(By.ID, "hide-health").click()
        self.wait(lambda: "health" in self.section_order(), message="health did not show again")
        check("section hidden and shown")
        close_sheet()

        search = self.driver.find_element(By.ID, "search")
        search.send_keys("ads")
        self.wait(lambda: "ads" in self.section_order() and len(self.section_order()) < len(DEFAULT_SECTIONS),
                  message=f"the search did not filter: {self.section_order()}")
        search.send_keys(Keys.BACKSPACE * 3)
        self.wait(lambda: len(self.section_order()) == len(DEFAULT_SECTIONS), message="the sections did not come back")
        check("search")

        events = self.metric("range_events")
        self.assertEqual(server.ingest("bill_created", "browser-" + uuid.uuid4().hex), 200)
        self.wait(lambda: self.metric("range_events") != events, message="the live update did not arrive")
        check("live update")

        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.driver.refresh()
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "[data-section]"))
        self.wait_live()
        check("dashboard, dark")
        self.assertEqual({step: len(messages) for step, messages in found.items()}, {},
                         f"the page broke its Content Security Policy: {next(iter(found.values()), [''])[0][:300]}")
        self.assertEqual(self.js("return [...document.querySelectorAll('.list-items')].map(e => getComputedStyle(e).display)"),
                         ["grid"] * len(DEFAULT_SECTIONS), "the sections' items are not laid out as grids")


class PhoneTests(DashboardTests):
    """The same flows at phone size (each inherited test runs again at 390x844), plus the layout."""
    width, height = 390, 844

    def test_no_horizontal_scroll_with_chips_and_funnels(self):
        base = self.open_page(self.week_query())
        long_filter = "app_version==3.0.0|3.1.0|3.2.0|3.3.0;platform!=android;plan==pro|team;method!=wechat"
        self.driver.get(f"{base}?{self.week_query()}&filters={urllib.parse.quote(long_filter, safe='=;!')}")
        self.wait(lambda: len(self.chips()) == 4, message=f"chips: {self.chips()}")
        self.wait_live()
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))
        height = self.js("return document.querySelector('#filter-bar .chip').getBoundingClientRect().height")
        self.assertLessEqual(height, 36, "chips are not compact")
        self.open_sheet("funnel-button")
        self.choose("funnel-step-1", "screen_view")
        self.choose("funnel-step-2", "bill_created")
        self.choose("funnel-step-3", "ad_shown")
        self.choose("funnel-breakdown", "app_version")
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#sheet .funnel-breakdown"), message="no breakdown")
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))

    def test_no_horizontal_scroll_with_a_users_timeline(self):
        """A user's timeline with a long id, long session id and long properties scrolls
        neither the page nor the sheet sideways."""
        user_id = "browser-" + uuid.uuid4().hex + "x" * 200
        self.sign_in()
        self.wait_live()
        long_text = "y" * 250
        self.assertEqual(server.ingest("screen_view", user_id, {"screen": long_text, "note": long_text}, session_id="z" * 250), 200)
        self.retry(lambda: self.feed_link(user_id).click(), "cannot click the user's link")
        self.wait(lambda: (self.timeline() or {}).get("id") == user_id, message="no timeline of the user")
        self.sheet_rect()
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))
        self.assertLessEqual(*self.js("const s = document.querySelector('#sheet'); return [s.scrollWidth, s.clientWidth]"),
                             "the sheet scrolls sideways")
        # The feed shows the id on one line, cut short; its link holds it whole.
        link = self.feed_link(user_id)
        self.assertLess(self.js("return arguments[0].getBoundingClientRect().height", link), 30, "the feed's id is not cut short")
        self.assertTrue(self.js("return arguments[0].scrollWidth > arguments[0].clientWidth", link), "the feed's id is not cut short")

    def test_no_horizontal_scroll_with_the_paths_sheet(self):
        """Five levels of paths scroll sideways in their box, never the page nor the sheet, and
        the last column can be scrolled to."""
        self.open_page(f"{self.week_query()}&sheet=paths&start=Home&kind=screen&depth=5")
        self.wait(lambda: len(self.path_columns() or []) == 6, message=f"the sheet draws {self.path_columns()}")
        self.sheet_rect()
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))
        self.assertLessEqual(*self.js("const s = document.querySelector('#sheet'); return [s.scrollWidth, s.clientWidth]"),
                             "the sheet scrolls sideways")
        box = "document.getElementById('path-scroll')"
        self.assertGreater(*self.js(f"return [{box}.scrollWidth, {box}.clientWidth]"), "the columns do not scroll sideways")
        self.js(f"{box}.scrollLeft = {box}.scrollWidth")
        right = self.js("return document.querySelector('#sheet .path-column[data-level=\"5\"]').getBoundingClientRect().right")
        self.assertLessEqual(right, self.js("return innerWidth"), "the last column cannot be scrolled to")

    def test_no_horizontal_scroll_and_sheet_placement(self):
        self.sign_in()
        self.wait_live()
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))
        self.open_sheet("date-button")
        left, top, width, height, inner_width, inner_height = self.sheet_rect()
        self.assertGreaterEqual(top, inner_height / 2 - 1, "the sheet is not in the bottom half")
        self.assertLessEqual(top + height, inner_height + 1)
        self.assertLessEqual(height, 0.55 * inner_height)
        self.assertLessEqual(self.js("return document.documentElement.scrollWidth"), inner_width)

        self.driver.set_window_size(1280, 800)
        left, top, width, height, inner_width, inner_height = self.sheet_rect()
        self.assertGreater(left, inner_width / 2, "the sheet is not a side panel")
        self.assertLessEqual(abs(height - inner_height), 1, "the side panel is not full height")


if __name__ == "__main__":
    unittest.main()
