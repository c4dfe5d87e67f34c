// One small driver interface over three browser engines, so each browser test is written once.
//
// Chromium and Firefox are driven by puppeteer-core (CDP and WebDriver BiDi); WebKit by
// WebKitWebDriver (W3C WebDriver) with WebKitGTK's MiniBrowser, which needs an X display
// (run the tests under `xvfb-run -a`). Coordinates are CSS pixels; offsets are measured from
// the element's top-left corner. Touch input goes through puppeteer's touchscreen (CDP
// Input.dispatchTouchEvent in Chromium, WebDriver BiDi input.performActions with pointerType
// "touch" in Firefox) and W3C actions with pointerType "touch" in WebKit; see NO_TOUCH.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import puppeteer from "puppeteer-core";
import { WEBDRIVER_KEYS, WebDriverSession } from "./webdriver.js";

/** Every engine the tests know how to drive. */
export const ENGINES = ["chromium", "firefox", "webkit"];

/** Browser binaries, overridable through the environment. */
const BINARIES = {
  chromium: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium",
  firefox: process.env.FIREFOX_BIN ?? "/usr/bin/firefox-esr",
  webkitDriver: process.env.WEBKIT_DRIVER_BIN ?? "/usr/bin/WebKitWebDriver",
  webkitBrowser: process.env.WEBKIT_BROWSER_BIN ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
};

/** Flags for Chromium on a machine with no network but loopback and no GPU, running as root. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Engines that cannot be given real touch input under automation here, with the reason. Tests check at run time
 * (the pointerType the page receives) before they rely on this, so an engine that gains touch is tested again.
 */
export const NO_TOUCH = {
  webkit:
    "WebKitWebDriver accepts W3C pointer actions with pointerType \"touch\", but WebKitGTK delivers them as mouse " +
    "events: WebAutomationSession::performInteractionSequence aliases Touch input sources to Mouse wherever " +
    "ENABLE(WEBDRIVER_TOUCH_INTERACTIONS) is off, which is every port but iOS; and Xvfb has no touch device " +
    "(nor is there /dev/uinput) to send real touches from outside the browser",
};

/** Window size used by every engine, so screenshots and coordinates agree. */
const VIEWPORT = { width: 1024, height: 768 };

/**
 * The engines to test: all of them, or the comma-separated list in `BROWSERS`.
 * @returns {string[]}
 */
export function enginesUnderTest() {
  const wanted = process.env.BROWSERS?.split(",").map((name) => name.trim()).filter(Boolean);
  if (!wanted?.length) return ENGINES;
  for (const name of wanted) {
    if (!ENGINES.includes(name)) throw new Error(`unknown engine in BROWSERS: ${name}`);
  }
  return wanted;
}

/**
 * Builds the source of an expression that evaluates `script` in the page and yields its result as JSON text.
 * @param {string | Function} script an expression, or a function called with `args`
 * @param {unknown[]} args JSON-serialisable arguments for a function
 */
function jsonExpression(script, args) {
  const call = typeof script === "function" ? `(${script})(...${JSON.stringify(args)})` : `(${script})`;
  return `Promise.resolve().then(() => ${call}).then((value) => JSON.stringify(value === undefined ? null : value))`;
}

/**
 * Runs in the page: scrolls the element into view and returns its box in viewport coordinates.
 * @param {string} selector
 */
function boxOf(selector) {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`no element matches ${selector}`);
  element.scrollIntoView({ block: "center", inline: "center" });
  const rect = element.getBoundingClientRect();
  return { left: rect.left, top: rect.top, width: rect.width, height: rect.height };
}

/**
 * @typedef {{x: number, y: number}} Offset  CSS pixels from the element's top-left corner
 */

/** The common driver; subclasses supply the engine-specific primitives. */
class Driver {
  /** @param {string} engine */
  constructor(engine) {
    /** Name of the engine, one of {@link ENGINES}. */
    this.engine = engine;
    /** Page errors a test provokes on purpose: kept out of `errors` whenever they arrive. */
    this.expectedErrors = [];
  }

  /**
   * Declares that page errors matching `pattern` are expected from now on (some browsers report a
   * failed load late, after the test that caused it has finished).
   * @param {RegExp} pattern
   */
  expectErrors(pattern) {
    this.expectedErrors.push(pattern);
  }

  /**
   * Records a page error unless a test declared it expected.
   * @param {string} text
   */
  recordError(text) {
    if (!this.expectedErrors.some((pattern) => pattern.test(text))) this.errors.push(text);
  }

  /**
   * The errors the current page recorded itself (tests/browser/page-errors.js, which the test server puts in every
   * page): uncaught errors, failed loads, unhandled rejections, console.error and CSP violations, in every engine
   * alike. Errors declared with {@link expectErrors} are left out.
   * @returns {Promise<string[]>}
   */
  async pageErrors() {
    const errors = await this.evaluate(() => window.__pageErrors ?? null);
    if (errors === null) throw new Error(`${this.engine}: the page has no error collector (was it served by server.js?)`);
    return errors.filter((text) => !this.expectedErrors.some((pattern) => pattern.test(text)));
  }

  /**
   * Loads `url` and returns once the new document has loaded. The old document is marked first and the wait is for
   * a document without the mark. Why: one WebKit run failed with "Out of bounds memory access" in the wasm module,
   * in a script evaluated just after navigating to the URL the page was already on; the likeliest reading is that
   * the script ran in the page being left, while it was torn down.
   * @param {string} url
   */
  async open(url) {
    await this.evaluate(() => {
      window.__homeostatLeft = true;
    }).catch(() => {});
    await this.navigate(url);
    await this.waitFor(() => !window.__homeostatLeft && document.readyState === "complete");
  }

  /**
   * Evaluates an expression, or calls a function with JSON arguments, in the page; returns the JSON result.
   * Promises are awaited. Only JSON-serialisable values come back.
   * @param {string | Function} script
   * @param {...unknown} args
   */
  async evaluate(script, ...args) {
    const text = await this.evaluateJsonText(jsonExpression(script, args));
    return JSON.parse(text);
  }

  /**
   * Polls `script` (as for {@link evaluate}) until it returns a truthy value, and returns that value.
   * @param {string | Function} script
   * @param {{timeout?: number, interval?: number}} [options] milliseconds
   * @param {...unknown} args
   */
  async waitFor(script, { timeout = 15_000, interval = 50 } = {}, ...args) {
    const deadline = Date.now() + timeout;
    let last;
    for (;;) {
      try {
        const value = await this.evaluate(script, ...args);
        if (value) return value;
        last = `last value ${JSON.stringify(value)}`;
      } catch (err) {
        last = `last error ${err.message}`;
      }
      if (Date.now() > deadline) throw new Error(`${this.engine}: timed out after ${timeout} ms waiting for ${script} (${last})`);
      await sleep(interval);
    }
  }

  /**
   * Waits for the player element `tag` to say it is ready. When it does not, the error says what the page shows:
   * its address and load state, the element's state and status words, and the page's errors.
   * @param {string} [tag]
   * @param {{timeout?: number}} [options]
   */
  async waitForReady(tag = "homeostat-chess", { timeout = 15_000 } = {}) {
    try {
      await this.waitFor((name) => document.querySelector(name)?.dataset.state === "ready", { timeout }, tag);
    } catch (err) {
      const seen = await this.evaluate((name) => {
        const el = document.querySelector(name);
        const words = (field) => el?.shadowRoot?.querySelector(`[data-field=${field}]`)?.textContent ?? null;
        return { url: location.href, readyState: document.readyState, element: Boolean(el), state: el?.dataset.state ?? null, mode: words("mode"), line: words("line"), status: words("status"), pageErrors: window.__pageErrors ?? null, fetched: performance.getEntriesByType("resource").map((e) => `${new URL(e.name).pathname} ${Math.round(e.responseEnd)}`) };
      }, tag).catch((e) => `(the page did not answer: ${e.message})`);
      throw new Error(`${err.message}\nthe page: ${JSON.stringify(seen)}`);
    }
  }

  /**
   * Saves a PNG of the viewport, after the browser has painted the latest changes.
   * @param {string} file
   */
  async screenshot(file) {
    await this.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
    await this.capturePng(file);
  }

  /**
   * Returns the viewport coordinates of a point inside an element, scrolling it into view first.
   * @param {string} selector CSS selector of the element
   * @param {Offset} [offset] from the top-left corner; the centre when omitted
   */
  async pointIn(selector, offset) {
    const box = await this.evaluate(boxOf, selector);
    const { x, y } = offset ?? { x: box.width / 2, y: box.height / 2 };
    return { x: box.left + x, y: box.top + y };
  }

  /**
   * Clicks with the primary mouse button inside an element.
   * @param {string} selector
   * @param {Offset} [offset] from the top-left corner; the centre when omitted
   */
  async click(selector, offset) {
    const point = await this.pointIn(selector, offset);
    await this.mouseClick(point);
  }

  /**
   * Turns the mouse wheel over an element: the pointer moves there, then one wheel action scrolls by `deltaY` CSS
   * pixels (negative scrolls up), as a person's wheel does, so the page sees a trusted wheel event and then scrolls.
   * @param {string} selector
   * @param {number} deltaY
   * @param {Offset} [offset] from the top-left corner; the centre when omitted
   */
  async wheel(selector, deltaY, offset) {
    await this.mouseWheel(await this.pointIn(selector, offset), deltaY);
  }

  /**
   * Presses the primary button at one point of an element, moves in steps to another, and releases.
   * @param {string} selector
   * @param {Offset} from
   * @param {Offset} to
   * @param {{steps?: number}} [options]
   */
  async drag(selector, from, to, { steps = 8 } = {}) {
    const start = await this.pointIn(selector, from);
    const box = await this.evaluate(boxOf, selector);
    const end = { x: box.left + to.x, y: box.top + to.y };
    await this.mouseDrag(start, end, steps);
  }

  /**
   * Taps with one finger inside an element: a touch press and release (pointerType "touch").
   * @param {string} selector
   * @param {Offset} [offset] from the top-left corner; the centre when omitted
   */
  async tap(selector, offset) {
    const point = await this.pointIn(selector, offset);
    await this.touchTap(point);
  }

  /**
   * Puts a finger down at one point of an element, slides it in steps to another, and lifts it.
   * @param {string} selector
   * @param {Offset} from
   * @param {Offset} to
   * @param {{steps?: number, beforeLift?: () => Promise<void>}} [options] beforeLift runs with the finger still down
   */
  async touchDrag(selector, from, to, { steps = 8, beforeLift } = {}) {
    const start = await this.pointIn(selector, from);
    const box = await this.evaluate(boxOf, selector);
    const end = { x: box.left + to.x, y: box.top + to.y };
    await this.fingerDrag(start, end, steps, beforeLift);
  }
}

/**
 * Points from `start` (excluded) to `end` (included) in equal steps, rounded to whole pixels.
 * @param {{x: number, y: number}} start
 * @param {{x: number, y: number}} end
 * @param {number} steps
 */
function pathPoints(start, end, steps) {
  return Array.from({ length: steps }, (_, i) => ({
    x: Math.round(start.x + ((end.x - start.x) * (i + 1)) / steps),
    y: Math.round(start.y + ((end.y - start.y) * (i + 1)) / steps),
  }));
}

/** Chromium or Firefox through puppeteer-core. */
class PuppeteerDriver extends Driver {
  /**
   * @param {string} engine
   * @param {import("puppeteer-core").Browser} browser
   * @param {import("puppeteer-core").Page} page
   * @param {string | null} profileDir temporary folder removed on close
   */
  constructor(engine, browser, page, profileDir) {
    super(engine);
    this.browser = browser;
    this.page = page;
    this.profileDir = profileDir;
    /** Messages the page wrote with console.error, and uncaught exceptions. */
    this.errors = [];
    page.on("console", (message) => {
      if (message.type() === "error") this.recordError(message.text());
    });
    page.on("pageerror", (error) => this.recordError(String(error)));
  }

  /** @param {string} url */
  async navigate(url) {
    await this.page.goto(url, { waitUntil: "load" });
  }

  /** @param {string} source */
  evaluateJsonText(source) {
    return this.page.evaluate(source);
  }

  /** @param {string} file PNG path */
  async capturePng(file) {
    await this.page.screenshot({ path: file });
  }

  /** @param {{x: number, y: number}} point viewport coordinates */
  async mouseClick(point) {
    await this.page.mouse.click(point.x, point.y);
  }

  /**
   * @param {{x: number, y: number}} point viewport coordinates
   * @param {number} deltaY
   */
  async mouseWheel(point, deltaY) {
    await this.page.mouse.move(point.x, point.y);
    await this.page.mouse.wheel({ deltaY });
  }

  async mouseDrag(start, end, steps) {
    await this.page.mouse.move(start.x, start.y);
    await this.page.mouse.down();
    await this.page.mouse.move(end.x, end.y, { steps });
    await this.page.mouse.up();
  }

  /** @param {{x: number, y: number}} point viewport coordinates */
  async touchTap(point) {
    await this.page.touchscreen.tap(point.x, point.y);
  }

  async fingerDrag(start, end, steps, beforeLift) {
    const touchscreen = this.page.touchscreen;
    await touchscreen.touchStart(start.x, start.y);
    for (const point of pathPoints(start, end, steps)) await touchscreen.touchMove(point.x, point.y);
    await beforeLift?.();
    await touchscreen.touchEnd();
  }

  /**
   * Presses and releases one key, named as in `KeyboardEvent.key` ("a", "Enter", "ArrowLeft").
   * @param {string} key
   */
  async press(key) {
    await this.page.keyboard.press(key);
  }

  /**
   * Sets the page's viewport. Puppeteer sends Firefox a screen-orientation override beside the viewport, a command
   * Firefox ESR 140 does not know; the viewport command goes with it and is applied, so that one refusal is let pass
   * once the page has the size asked for.
   * @param {{width: number, height: number, deviceScaleFactor?: number}} viewport
   */
  async resize(viewport) {
    try {
      await this.page.setViewport(viewport);
    } catch (err) {
      if (!String(err?.message).includes("unknown command emulation.setScreenOrientationOverride")) throw err;
      const { width, height } = viewport;
      await this.page.waitForFunction((w, h) => innerWidth === w && innerHeight === h, { timeout: 5000 }, width, height);
    }
  }

  /** Closes the browser and removes its profile. */
  async close() {
    await this.browser.close().catch(() => {});
    if (this.profileDir) await rm(this.profileDir, { recursive: true, force: true });
  }
}

/** WebKit (WebKitGTK's MiniBrowser) through WebKitWebDriver. */
class WebKitDriver extends Driver {
  /**
   * @param {WebDriverSession} session
   * @param {() => Promise<WebDriverSession>} [restart] opens a new session when the browser's has died
   */
  constructor(session, restart) {
    super("webkit");
    this.session = session;
    this.restart = restart;
    /** The page last loaded: a new browser opens it again. */
    this.url = undefined;
    /** Always empty: W3C WebDriver has no console log; check the page's own error display instead. */
    this.errors = [];
  }

  /**
   * One command to the session. When the browser has lost it ("invalid session id": its page process died), the
   * test that saw it fails with what the browser wrote, and a new browser, on the page the old one last loaded,
   * serves the tests that follow (a suite that loads its page once, before its tests, finds it there again).
   */
  async command(method, path, body) {
    try {
      return await this.session.command(method, path, body);
    } catch (err) {
      if (err?.code !== "invalid session id" || !this.restart || this.restarting) throw err;
      const said = this.session.stderr.trim().split("\n").slice(-15).join("\n");
      this.restarting = true;
      try {
        await this.session.close();
        this.session = await this.restart();
        await this.resize(VIEWPORT).catch(() => {});
        if (this.url) await this.open(this.url).catch(() => {});
      } finally {
        this.restarting = false;
      }
      throw new Error(`WebKit lost its session (its page process died); a new browser is started for the next test, on the same page. The browser wrote:\n${said}`);
    }
  }

  /**
   * Resizes the window so that the page's viewport (not the window with its toolbar) has the given size; WebKit
   * through WebDriver has no device scale factor to set.
   * @param {{width: number, height: number}} viewport
   */
  async resize({ width, height }) {
    await this.command("POST", "/window/rect", { width, height });
    const inner = await this.evaluate("({ width: innerWidth, height: innerHeight })");
    if (inner.width === width && inner.height === height) return;
    await this.command("POST", "/window/rect", {
      width: 2 * width - inner.width,
      height: 2 * height - inner.height,
    });
  }

  /** @param {string} url */
  async navigate(url) {
    this.url = url;
    await this.command("POST", "/url", { url });
  }

  /** @param {string} source */
  evaluateJsonText(source) {
    return this.command("POST", "/execute/sync", { script: `return ${source};`, args: [] });
  }

  /** @param {string} file PNG path */
  async capturePng(file) {
    const base64 = await this.command("GET", "/screenshot");
    await writeFile(file, Buffer.from(base64, "base64"));
  }

  /**
   * Performs one sequence of pointer actions and releases all input state afterwards.
   * @param {object[]} actions
   * @param {"mouse" | "touch"} [pointerType]
   */
  async pointer(actions, pointerType = "mouse") {
    await this.pointerActions(actions, pointerType);
    await this.command("DELETE", "/actions");
  }

  /**
   * Performs pointer actions, keeping the input state (a pressed button or finger stays down).
   * @param {object[]} actions
   * @param {"mouse" | "touch"} pointerType
   */
  async pointerActions(actions, pointerType) {
    const id = pointerType === "touch" ? "finger" : "mouse";
    await this.command("POST", "/actions", { actions: [{ type: "pointer", id, parameters: { pointerType }, actions }] });
  }

  /** @param {{x: number, y: number}} point viewport coordinates */
  async mouseClick(point) {
    await this.pointer([
      { type: "pointerMove", origin: "viewport", x: Math.round(point.x), y: Math.round(point.y), duration: 0 },
      { type: "pointerDown", button: 0 },
      { type: "pointerUp", button: 0 },
    ]);
  }

  /**
   * A W3C wheel input source's scroll action at a point of the viewport.
   * @param {{x: number, y: number}} point viewport coordinates
   * @param {number} deltaY
   */
  async mouseWheel(point, deltaY) {
    const scroll = { type: "scroll", origin: "viewport", x: Math.round(point.x), y: Math.round(point.y), deltaX: 0, deltaY, duration: 0 };
    await this.command("POST", "/actions", { actions: [{ type: "wheel", id: "wheel", actions: [scroll] }] });
    await this.command("DELETE", "/actions");
  }

  async mouseDrag(start, end, steps) {
    const moves = pathPoints(start, end, steps).map(({ x, y }) => ({ type: "pointerMove", origin: "viewport", x, y, duration: 16 }));
    await this.pointer([
      { type: "pointerMove", origin: "viewport", x: Math.round(start.x), y: Math.round(start.y), duration: 0 },
      { type: "pointerDown", button: 0 },
      ...moves,
      { type: "pointerUp", button: 0 },
    ]);
  }

  /**
   * A one-finger tap as W3C actions with pointerType "touch" (which WebKitGTK turns into mouse events: NO_TOUCH).
   * @param {{x: number, y: number}} point viewport coordinates
   */
  async touchTap(point) {
    await this.pointer(
      [
        { type: "pointerMove", origin: "viewport", x: Math.round(point.x), y: Math.round(point.y), duration: 0 },
        { type: "pointerDown", button: 0 },
        { type: "pointerUp", button: 0 },
      ],
      "touch",
    );
  }

  async fingerDrag(start, end, steps, beforeLift) {
    const moves = pathPoints(start, end, steps).map(({ x, y }) => ({ type: "pointerMove", origin: "viewport", x, y, duration: 16 }));
    try {
      await this.pointerActions(
        [
          { type: "pointerMove", origin: "viewport", x: Math.round(start.x), y: Math.round(start.y), duration: 0 },
          { type: "pointerDown", button: 0 },
          ...moves,
        ],
        "touch",
      );
      await beforeLift?.();
      await this.pointerActions([{ type: "pointerUp", button: 0 }], "touch");
    } finally {
      await this.command("DELETE", "/actions");
    }
  }

  /**
   * Presses and releases one key, named as in `KeyboardEvent.key` ("a", "Enter", "ArrowLeft").
   * @param {string} key
   */
  async press(key) {
    const value = WEBDRIVER_KEYS[key] ?? key;
    if ([...value].length !== 1) throw new Error(`unknown key name: ${key}`);
    await this.command("POST", "/actions", {
      actions: [
        {
          type: "key",
          id: "keyboard",
          actions: [
            { type: "keyDown", value },
            { type: "keyUp", value },
          ],
        },
      ],
    });
    await this.command("DELETE", "/actions");
  }

  /** Ends the session, which closes the browser, and stops WebKitWebDriver. */
  async close() {
    await this.session.close();
  }
}

/**
 * The driver at the test viewport. One that cannot be sized is closed, so that a failed start does not leave its
 * browser running and keep the test process from ending.
 */
async function atTestViewport(driver) {
  try {
    await driver.resize(VIEWPORT);
  } catch (err) {
    await driver.close();
    throw err;
  }
  return driver;
}

/** A driver on the browser's first page at the test viewport (the browser is closed if that fails). */
async function onFirstPage(engine, browser, profileDir) {
  let page;
  try {
    page = (await browser.pages())[0] ?? (await browser.newPage());
  } catch (err) {
    await browser.close().catch(() => {});
    throw err;
  }
  return atTestViewport(new PuppeteerDriver(engine, browser, page, profileDir));
}

/**
 * Starts a fresh browser of the given engine with one empty page.
 * @param {string} engine one of {@link ENGINES}
 * @returns {Promise<PuppeteerDriver | WebKitDriver>}
 */
export async function launch(engine) {
  switch (engine) {
    case "chromium": {
      const profileDir = await mkdtemp(path.join(os.tmpdir(), "homeostat-chromium-"));
      const browser = await puppeteer.launch({
        browser: "chrome",
        executablePath: BINARIES.chromium,
        headless: true,
        args: [...CHROMIUM_ARGS, `--user-data-dir=${profileDir}`],
        defaultViewport: VIEWPORT,
      });
      return onFirstPage(engine, browser, profileDir);
    }
    case "firefox": {
      const browser = await puppeteer.launch({
        browser: "firefox",
        executablePath: BINARIES.firefox,
        headless: true,
        defaultViewport: VIEWPORT,
      });
      return onFirstPage(engine, browser, null);
    }
    case "webkit": {
      if (!process.env.DISPLAY) {
        throw new Error("WebKit's MiniBrowser needs an X display: run the browser tests under `xvfb-run -a`");
      }
      const start = () =>
        WebDriverSession.start({
          driver: BINARIES.webkitDriver,
          capabilities: {
            "webkitgtk:browserOptions": { binary: BINARIES.webkitBrowser, args: ["--automation"] },
          },
        });
      return atTestViewport(new WebKitDriver(await start(), start));
    }
    default:
      throw new Error(`unknown engine: ${engine}`);
  }
}
