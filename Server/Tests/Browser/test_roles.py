"""Per-app roles in headless Chromium against `tally serve --demo`: a user sees only the apps
they have a role in, a viewer's page offers no change, and an owner manages the members from
the Members sheet, a removed member's open page losing its live connection.

Run in Server/: TALLY_BIN=.build/debug/tally python3 -m unittest discover -s Tests/Browser -p 'test_*.py' -v
"""

import json
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import test_dashboard
from tally_server import TallyServer, new_driver, sign_in

server = None
PASSWORD = "correct horse battery staple"

# The status and body of a same-origin GET, read by the page's own fetch (with its cookie).
FETCH = """
const done = arguments[arguments.length - 1];
fetch(arguments[0], {redirect: 'manual'}).then(async r => done([r.status, await r.text()]), e => done([0, String(e)]));
"""


def setUpModule():
    global server
    server = TallyServer(demo_users=8).start()
    test_dashboard.server = server


def tearDownModule():
    if server:
        server.stop()


class RoleTests(unittest.TestCase):
    width, height = 1280, 900

    @classmethod
    def setUpClass(cls):
        cls.app = server.keys["app_id"]
        for name, role in (("nora", None), ("vera", "viewer"), ("edna", None)):
            server.command("user", "create", name, "--password-stdin", input=PASSWORD + "\n")
            if role:
                server.command("user", "grant", name, str(cls.app), role)
        cls.shop = json.loads(server.command("app", "create", "Shop", "--owner", server.user))["app_id"]

    def browser(self):
        driver = new_driver(self.width, self.height)
        self.addCleanup(driver.quit)
        return driver

    def wait(self, driver, condition, timeout=10, message=""):
        return test_dashboard.WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda _: condition(), message)

    def fetch(self, driver, path):
        return driver.execute_async_script(FETCH, path)

    def live(self, driver):
        return driver.execute_script("return document.body.dataset.live")

    def test_a_user_without_a_role_sees_no_app_and_learns_nothing_of_it(self):
        driver = self.browser()
        self.assertFalse(sign_in(driver, server, PASSWORD, user="nora"))
        self.assertEqual(driver.find_element(By.TAG_NAME, "h1").text, "No apps yet")
        # The demo app answers as an app that does not exist, its downloads too.
        for suffix in ("", "/metrics/day.csv"):
            theirs = self.fetch(driver, f"/apps/{self.app}{suffix}")
            missing = self.fetch(driver, f"/apps/987654{suffix}")
            self.assertEqual(theirs[0], 404, theirs)
            self.assertEqual(theirs, missing)

    def test_a_viewer_reads_the_page_but_is_offered_no_change(self):
        driver = self.browser()
        self.assertTrue(sign_in(driver, server, PASSWORD, user="vera"))
        base = driver.current_url.split("?")[0]
        self.assertTrue(base.endswith(f"/apps/{self.app}"), base)
        driver.get(f"{base}?filters=platform==ios")
        self.wait(driver, lambda: self.live(driver) == "open", message="the WebSocket did not open")
        self.assertTrue(driver.find_elements(By.CSS_SELECTOR, "[data-section]"))
        self.assertFalse(driver.find_elements(By.ID, "members-button"))
        self.assertFalse(driver.find_elements(By.ID, "apps"))  # one app: no app menu, no other app named
        self.assertNotIn("Shop", driver.page_source)
        self.assertFalse(driver.find_elements(By.CSS_SELECTOR, '[data-event="save-segment"], [data-event="delete-segment"]'))
        # Nothing the page loads fails (the icon is linked: no request for a missing /favicon.ico).
        self.assertEqual([e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"], [])

    def test_the_app_menu_opens_the_users_other_app(self):
        driver = self.browser()
        self.assertTrue(sign_in(driver, server))
        driver.find_element(By.CSS_SELECTOR, "#apps > summary").click()
        links = driver.find_elements(By.CSS_SELECTOR, "#apps .apps-menu a")
        self.assertEqual([(a.text, a.get_attribute("aria-current")) for a in links], [("Demo Bookkeeping", "page"), ("Shop", None)])
        links[1].click()
        self.wait(driver, lambda: driver.current_url.split("?")[0].endswith(f"/apps/{self.shop}"), message="Shop did not open")
        self.assertEqual(driver.find_element(By.CSS_SELECTOR, "#apps > summary").text, "Shop")

    def test_an_owner_adds_a_member_who_then_sees_the_app_and_removes_them(self):
        owner = self.browser()
        self.assertTrue(sign_in(owner, server))
        self.wait(owner, lambda: self.live(owner) == "open", message="the owner's WebSocket did not open")
        self.wait(owner, lambda: owner.find_elements(By.ID, "members-button")).pop().click()
        # The sheet is drawn again once the members are read: the form is filled after that.
        self.wait(owner, lambda: "demo" in owner.execute_script(
            "return [...document.querySelectorAll('.member-name')].map(e => e.textContent)"), message="no members listed")
        owner.find_element(By.ID, "member-name").send_keys("edna")
        Select(owner.find_element(By.CSS_SELECTOR, "#member-add select")).select_by_value("editor")
        owner.find_element(By.CSS_SELECTOR, "#member-add button[type=submit]").click()

        def role_of(member):
            # Read in one step: the sheet's patches replace its rows at any time.
            return owner.execute_script(
                "const row = [...document.querySelectorAll('.member')]"
                ".find(r => r.querySelector('.member-name').textContent === arguments[0]);"
                "return row ? row.querySelector('select').value : null", member)

        self.wait(owner, lambda: role_of("edna") == "editor", message="edna is not listed as an editor")

        # The new editor sees the app, and may save a filter as a segment.
        editor = self.browser()
        self.assertTrue(sign_in(editor, server, PASSWORD, user="edna"))
        base = editor.current_url.split("?")[0]
        editor.get(f"{base}?filters=platform==ios")
        self.wait(editor, lambda: self.live(editor) == "open", message="the editor's WebSocket did not open")
        self.assertTrue(editor.find_elements(By.CSS_SELECTOR, '[data-event="save-segment"]'))

        # Removed, the editor's open page loses its connection and cannot get it back.
        owner.find_element(By.CSS_SELECTOR, '.member-remove[data-value="edna"]').click()
        self.wait(owner, lambda: role_of("edna") is None, message="edna is still listed")
        self.wait(editor, lambda: self.live(editor) != "open", timeout=15, message="the removed editor's socket stayed open")
        self.assertEqual(self.fetch(editor, f"/apps/{self.app}")[0], 404)


if __name__ == "__main__":
    unittest.main()
