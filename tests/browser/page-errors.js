// Served by the test server as /__page-errors.js and loaded first by every HTML page it serves: it records the
// page's errors inside the page — uncaught errors and failed loads (`error`), unhandled promise rejections,
// console.error calls and Content-Security-Policy violations — in `window.__pageErrors`, so that "no page errors"
// means the same in Chromium, Firefox and WebKit (whose WebDriver has no console log).

(() => {
  const errors = (window.__pageErrors = []);
  /** The players' own `error` events (bad attributes, illegal moves): counted apart, they are not page errors. */
  const playerErrors = (window.__playerErrors = []);
  const text = (value) => (value instanceof Error ? `${value.name}: ${value.message}` : String(value));
  addEventListener(
    "error",
    (event) => {
      if (event instanceof CustomEvent) return void playerErrors.push(event.detail?.message ?? "");
      const target = event.target;
      if (target && target !== window && (target.src || target.href)) errors.push(`failed to load ${target.src || target.href}`);
      else errors.push(event.error ? text(event.error) : event.message || "error");
    },
    true,
  );
  addEventListener("unhandledrejection", (event) => errors.push(`unhandled rejection: ${text(event.reason)}`));
  addEventListener("securitypolicyviolation", (event) => errors.push(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
  const consoleError = console.error.bind(console);
  console.error = (...args) => {
    errors.push(args.map(text).join(" "));
    consoleError(...args);
  };
})();
