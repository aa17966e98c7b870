"""Saves the README's dashboard screenshots: phone (390x844) and desktop (1280x900), light and dark.

Run from the package folder after `swift build`:
    cd Server && TALLY_BIN=.build/debug/tally python3 Tests/Browser/screenshots.py
"""

import os
import time

from selenium.webdriver.support.ui import WebDriverWait

from tally_server import TallyServer, new_driver, sign_in

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "screenshots")


def main():
    os.makedirs(FOLDER, exist_ok=True)
    server = TallyServer().start()
    try:
        for size, (width, height) in SIZES.items():
            driver = new_driver(width, height)
            try:
                if not sign_in(driver, server):
                    raise RuntimeError("the dashboard did not show after signing in")
                # Yesterday, by the date sheet's own link: a whole day of the demo whatever the
                # hour (today may have only just begun in the demo's time zone).
                driver.get(driver.current_url.split("?")[0] + "?sheet=date")
                # Read in one step: the socket's resync may replace the sheet at any time.
                yesterday = driver.execute_script("return document.querySelector(\"[data-event='range'][data-value='yesterday']\").href")
                driver.get(yesterday.replace("&sheet=date", ""))
                WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.body.dataset.live") == "open")
                for scheme in ("light", "dark"):
                    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                        "features": [{"name": "prefers-color-scheme", "value": scheme}],
                    })
                    time.sleep(0.3)  # let the new colours paint
                    path = os.path.normpath(os.path.join(FOLDER, f"dashboard-{size}-{scheme}.png"))
                    driver.save_screenshot(path)
                    print("saved", path)
            finally:
                driver.quit()
    except Exception:
        server.dump_output()
        raise
    finally:
        server.stop()


if __name__ == "__main__":
    main()
