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

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from tally_server import DEMO_TIME_ZONE, TallyServer, new_driver, sign_in

DEFAULT_SECTIONS = [
    "app", "versions", "retention", "bills", "entry_quality", "ads", "record_time",
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
        self.driver.find_element(By.ID, button).click()
        self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "#sheet-slot .sheet"), message="no sheet")
        self.sheet_rect()  # clicks inside land where they aim once it stops sliding in

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

    def console_policy_messages(self):
        """The console's messages about the Content Security Policy since the last call, once
        what the page did last has had time to log (a blocked inline style logs one each)."""
        time.sleep(0.3)
        return [entry["message"] for entry in self.driver.get_log("browser") if "Content Security Policy" in entry["message"]]

    def test_pages_sheets_and_patches_keep_to_the_content_security_policy(self):
        """The login page, the dashboard (light and dark), each sheet, and the patches of a
        move, a hidden and shown section, a search, a range and a live update: none breaks
        the server's own policy, so every style the layout needs is applied."""
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

        events = self.metric("events")
        self.assertEqual(server.ingest("bill_created", "browser-" + uuid.uuid4().hex), 200)
        self.wait(lambda: self.metric("events") != events, message="the live update did not arrive")
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
