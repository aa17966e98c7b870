"""The dashboard as people read it, in headless Chromium against `tally serve --demo`: charts
with a hover value, ranked lists, a grid without gaps, contrast, the keyboard alone, and the
page's weight.

Run in Server/: TALLY_BIN=.build/debug/tally python3 -m unittest discover -s Tests/Browser -p 'test_*.py' -v
"""

import unittest

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import test_dashboard
from tally_server import TallyServer

server = None


def setUpModule():
    global server
    server = TallyServer().start()
    test_dashboard.server = server


def tearDownModule():
    if server:
        server.stop()


# The contrast of two sRGB colours ([r, g, b] of 0–255), as WCAG 2 defines it.
def contrast(first, second):
    def luminance(rgb):
        def channel(value):
            value /= 255
            return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# Every visible text of the sections and the bar: its colour, the colour behind it (the first
# opaque background up its ancestors, the bars of ranked rows included) and its size.
TEXTS = r"""
const rgb = (text) => (text.match(/[\d.]+/g) || []).map(Number);
const behind = (el) => {
  for (let node = el; node; node = node.parentElement) {
    const color = rgb(getComputedStyle(node).backgroundColor);
    if (color.length === 3 || (color.length === 4 && color[3] === 1)) return color.slice(0, 3);
  }
  return [255, 255, 255];
};
const out = [];
for (const el of document.querySelectorAll('header.bar *, #sections *')) {
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || !el.getClientRects().length) continue;
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden' || +style.opacity === 0) continue;
  const fill = el instanceof SVGElement ? style.fill : style.color;
  out.push({text: el.textContent.trim().slice(0, 30), color: rgb(fill).slice(0, 3), background: behind(el),
            size: parseFloat(style.fontSize), bold: +style.fontWeight >= 700, row: !!el.closest('.cell-row')});
}
return out;
"""


class Page(unittest.TestCase):
    """A browser window with the dashboard tests' helpers (sign in, open a page, read text)."""
    width, height = 1280, 900


for _helper in ("setUp", "wait", "js", "sign_in", "wait_live", "text", "open_page", "demo_day", "week_query"):
    setattr(Page, _helper, getattr(test_dashboard.DashboardTests, _helper))


class ReadingTests(Page):

    def test_a_chart_shows_the_hovered_point_and_follows_the_arrow_keys(self):
        self.open_page(self.week_query())
        # A live patch may replace the chart between two steps (the demo keeps sending
        # events): the check then starts over on the chart drawn since.
        for attempt in range(5):
            try:
                self.check_the_app_chart()
                return
            except StaleElementReferenceException:
                if attempt == 4:
                    raise

    def check_the_app_chart(self):
        chart = self.wait(lambda: self.driver.find_elements(By.CSS_SELECTOR, "[data-section=app] figure.chart > svg"),
                          message="no chart")[0]
        values = [int(v) for v in chart.get_attribute("data-values").split(",")]
        dates = chart.get_attribute("data-dates").split(",")
        width = chart.size["width"]
        # The pointer a quarter of the way across: the day a quarter of the way through.
        ActionChains(self.driver).move_to_element_with_offset(chart, int(width / 4 - width / 2), 0).perform()
        index = round((len(values) - 1) / 4)
        readout = self.wait(lambda: self.text("[data-section=app] .chart-readout"), message="no readout on hover")
        day = int(dates[index][8:])
        self.assertIn(f" {day} ", f" {readout.split(':')[0]} ".replace(",", " "), f"{readout!r} is not day {dates[index]}")
        self.assertTrue(readout.endswith(f": {values[index]:,}") or f": {values[index]:,} ·" in readout, readout)
        # The keyboard: focus shows the last day, the left arrow the day before.
        self.js("arguments[0].focus()", chart)
        self.wait(lambda: (self.text("[data-section=app] .chart-readout") or "").find(f"{values[-1]:,}") >= 0,
                  message="focus does not show the last day")
        chart.send_keys(Keys.ARROW_LEFT)
        self.wait(lambda: self.js("return arguments[0].dataset.index", chart) == str(len(values) - 2),
                  message="the left arrow does not move to the day before")
        self.assertIn(f"{values[-2]:,}", self.text("[data-section=app] .chart-readout"))
        # The table behind the toggle has every day.
        rows = self.js("return document.querySelectorAll('[data-section=app] .chart-table tbody tr').length")
        self.assertEqual(rows, len(values))

    def test_ranked_rows_have_bars_in_order_and_show_all_with_the_keyboard(self):
        self.open_page(self.week_query())
        rows = self.wait(lambda: self.js(
            "return [...document.querySelectorAll('[data-section=top_events] .cell-row')]"
            ".map(r => [+r.querySelector('.value').dataset.n, +r.querySelector('rect').getAttribute('width')])"),
            message="no ranked rows")
        self.assertEqual([v for v, _ in rows], sorted((v for v, _ in rows), reverse=True))
        for value, bar in rows:
            self.assertAlmostEqual(bar, value / rows[0][0] * 100, delta=0.06)
        # The value sits at the row's right edge.
        right = self.js("const r = document.querySelector('[data-section=top_events] .cell-row');"
                        "return [r.getBoundingClientRect().right, r.querySelector('.value').getBoundingClientRect().right]")
        self.assertLessEqual(right[0] - right[1], 12)
        more = self.js("return document.querySelector('[data-section=top_events] [data-event=expand]')")
        if more is None:
            self.assertLessEqual(len(rows), 10)
            return
        self.js("arguments[0].focus()", more)
        more.send_keys(Keys.ENTER)
        self.wait(lambda: self.js("return document.querySelectorAll('[data-section=top_events] .cell-row').length") > 10,
                  message="Show all did not show every row")

    def test_cards_leave_no_gap_taller_than_their_margin(self):
        for width in (1280, 1920):
            self.driver.set_window_size(width, 1000)
            self.open_page(self.week_query())
            cards = self.js("return [...document.querySelectorAll('#sections > .list-component')].map(e => {"
                            "const r = e.getBoundingClientRect(); return [Math.round(r.left), r.top, r.bottom]})")
            margin = self.js("return parseFloat(getComputedStyle(document.querySelector('#sections > .list-component')).marginBottom)")
            columns = {}
            for left, top, bottom in cards[1:]:  # the App section spans the columns, above them
                columns.setdefault(left, []).append((top, bottom))
            self.assertGreaterEqual(len(columns), 3, f"{width} px: {len(columns)} columns")
            for left, stack in columns.items():
                stack.sort()
                for (_, above), (below, _) in zip(stack, stack[1:]):
                    self.assertLessEqual(below - above, margin + 1, f"{width} px: a gap of {below - above} px at x={left}")
            self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))

    def test_text_contrast_meets_wcag_aa_in_light_and_dark(self):
        self.open_page(self.week_query())
        for scheme in ("light", "dark"):
            self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            texts = self.js(TEXTS)
            self.assertGreater(len(texts), 50)
            for text in texts:
                large = text["size"] >= 24 or (text["size"] >= 18.66 and text["bold"])
                ratio = contrast(text["color"], text["background"])
                self.assertGreaterEqual(ratio, 3 if large else 4.5, f"{scheme}: {text}")
            # The bars behind ranked rows are drawn over the card: their labels against the bar.
            bar = self.js("const r = document.querySelector('.row-bar rect'); return getComputedStyle(r).fill")
            self.assertTrue(bar, "no bar")

    def test_the_keyboard_alone_opens_a_metric_and_closes_it(self):
        self.open_page(self.week_query())
        body = self.driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        for _ in range(60):
            if self.js("return document.activeElement.matches('a.metric')"):
                break
            self.driver.switch_to.active_element.send_keys(Keys.TAB)
        else:
            self.fail("Tab never reached a metric")
        self.assertTrue(self.js("return getComputedStyle(document.activeElement).outlineStyle !== 'none'"), "no visible focus")
        key = self.js("return document.activeElement.dataset.value")
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(lambda: self.js("return !!document.querySelector('#sheet[data-sheet=metric]')"), message="Enter did not open the sheet")
        self.wait(lambda: self.js("return document.querySelector('#sheet').contains(document.activeElement)"),
                  message="the focus did not move into the sheet")
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait(lambda: not self.js("return !!document.querySelector('#sheet')"), message="Escape did not close the sheet")
        self.wait(lambda: self.js("return document.activeElement.dataset.value") == key, message="the focus did not return to the metric")

    def test_the_page_weighs_under_100_kib(self):
        self.open_page(self.week_query())
        sizes = self.js("return [performance.getEntriesByType('navigation')[0].decodedBodySize,"
                        "...performance.getEntriesByType('resource').filter(e => /\\.(css|js)$/.test(e.name)).map(e => e.decodedBodySize)]")
        self.assertEqual(len(sizes), 3, sizes)
        self.assertLess(sum(sizes), 100 * 1024, f"HTML, CSS and JS: {sizes}")
        print(f"\n  page weight: HTML {sizes[0]} + CSS and JS {sizes[1:]} = {sum(sizes)} bytes", end="", flush=True)


class PhoneReadingTests(Page):
    width, height = 390, 844

    def test_no_horizontal_scroll_on_a_range(self):
        self.open_page(self.week_query())
        self.assertLessEqual(*self.js("return [document.documentElement.scrollWidth, innerWidth]"))
        # The App section's headlines scroll sideways inside their row instead.
        row = self.js("const r = document.querySelector('[data-section=app] .list-items'); return [r.scrollWidth, r.clientWidth]")
        self.assertGreaterEqual(row[0], row[1])


if __name__ == "__main__":
    unittest.main()
