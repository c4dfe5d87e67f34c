// A minimal W3C WebDriver client over HTTP, used to drive WebKit through WebKitWebDriver.

import { spawn } from "node:child_process";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** Key names (as in `KeyboardEvent.key`) mapped to WebDriver's private-use code points. */
export const WEBDRIVER_KEYS = {
  Backspace: "\uE003",
  Tab: "\uE004",
  Enter: "\uE007",
  Shift: "\uE008",
  Control: "\uE009",
  Alt: "\uE00A",
  Escape: "\uE00C",
  PageUp: "\uE00E",
  PageDown: "\uE00F",
  End: "\uE010",
  Home: "\uE011",
  ArrowLeft: "\uE012",
  ArrowUp: "\uE013",
  ArrowRight: "\uE014",
  ArrowDown: "\uE015",
  Delete: "\uE017",
  Meta: "\uE03D",
};

/** An error answered by a WebDriver server, carrying the W3C error code. */
export class WebDriverError extends Error {
  /**
   * @param {string} code W3C error code, such as "no such element"
   * @param {string} message
   */
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

/** Returns a TCP port on the loopback interface that was free a moment ago. */
export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One WebDriver server process and at most one session on it. */
export class WebDriverSession {
  /**
   * @param {string} base server URL, e.g. http://127.0.0.1:4444
   * @param {import("node:child_process").ChildProcess} process the server process
   */
  constructor(base, process) {
    this.base = base;
    this.process = process;
    /** @type {string | null} */
    this.id = null;
    /** The end of what the server (and the browser it started) wrote to stderr. */
    this.stderr = "";
  }

  /**
   * Starts a WebDriver server binary on a free port and opens a session on it.
   * @param {object} options
   * @param {string} options.driver path of the WebDriver server, e.g. /usr/bin/WebKitWebDriver
   * @param {object} options.capabilities W3C capabilities for `alwaysMatch`
   * @param {number} [options.timeout] milliseconds allowed for the server and the browser to start
   */
  static async start({ driver, capabilities, timeout = 30_000 }) {
    const port = await freePort();
    // Its own process group, so that closing stops the browser it started too: an orphaned browser would keep
    // the stderr pipe (and this test process) alive.
    const child = spawn(driver, [`--port=${port}`], { stdio: ["ignore", "ignore", "pipe"], detached: true });
    const session = new WebDriverSession(`http://127.0.0.1:${port}`, child);
    child.stderr.on("data", (chunk) => {
      session.stderr = (session.stderr + chunk).slice(-4000);
    });
    const stderr = () => session.stderr;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      const deadline = Date.now() + timeout;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`${driver} exited early: ${stderr()}`);
        try {
          const status = await session.request("GET", "/status", undefined, 1000);
          if (status?.ready !== false) break;
        } catch (err) {
          if (Date.now() > deadline) throw new Error(`${driver} did not start: ${err.message} ${stderr()}`);
        }
        await sleep(50);
      }
      const created = await Promise.race([
        session.request("POST", "/session", { capabilities: { alwaysMatch: capabilities } }, timeout),
        exited.then(() => {
          throw new Error(`${driver} exited while creating a session: ${stderr()}`);
        }),
      ]);
      session.id = created.sessionId;
      return session;
    } catch (err) {
      await session.close();
      throw new Error(`cannot start a WebDriver session: ${err.message}\n${stderr()}`);
    }
  }

  /**
   * Sends one request to the server and returns the `value` of its answer.
   * @param {"GET" | "POST" | "DELETE"} method
   * @param {string} path path below the server URL
   * @param {unknown} [body] JSON body for POST
   * @param {number} [timeout] milliseconds before giving up
   */
  async request(method, path, body, timeout = 60_000) {
    const response = await fetch(this.base + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json; charset=utf-8" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
    const text = await response.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path}: HTTP ${response.status}: ${text.slice(0, 500)}`);
    }
    const value = json?.value;
    if (!response.ok || (value && typeof value === "object" && typeof value.error === "string")) {
      throw new WebDriverError(value?.error ?? `HTTP ${response.status}`, value?.message ?? text.slice(0, 500));
    }
    return value;
  }

  /**
   * Sends a command to the current session.
   * @param {"GET" | "POST" | "DELETE"} method
   * @param {string} path path below /session/{id}, starting with "/" (or "" for the session itself)
   * @param {unknown} [body]
   */
  command(method, path, body) {
    if (this.id === null) throw new Error("no WebDriver session");
    return this.request(method, `/session/${this.id}${path}`, method === "POST" ? (body ?? {}) : undefined);
  }

  /** Sends `signal` to the server's process group (the server and the browser it started). */
  signalGroup(signal) {
    try {
      process.kill(-this.process.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Ends the session and stops the server process. */
  async close() {
    try {
      if (this.id !== null) await this.command("DELETE", "");
    } catch {
      // The browser may already be gone; the server is stopped below either way.
    } finally {
      this.id = null;
      if (this.process.exitCode === null) {
        const exited = new Promise((resolve) => this.process.once("exit", resolve));
        this.signalGroup("SIGTERM");
        await Promise.race([exited, sleep(5000)]);
      }
      // Whatever of the group is left (a browser whose driver is gone) goes too, and nothing holds this process.
      this.signalGroup("SIGKILL");
      this.process.stderr?.destroy();
      this.process.unref();
    }
  }
}
