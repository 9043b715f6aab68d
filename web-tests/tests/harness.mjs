// Shared by the browser tests: a `ply serve` on a free port, headless
// Chromium (Debian's, driven by playwright-core), screenshots under target/.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const bin = process.env.PLY_BIN || join(root, "target/release/ply");
export const shots = join(root, "target/browser-shots");

/** Starts `ply serve --port 0` and resolves to { url, stop }. */
export function startServer() {
  return new Promise((ok, fail) => {
    const child = spawn(bin, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.on("error", fail);
    child.on("exit", (code) => fail(new Error(`ply serve exited (${code}) before listening`)));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) ok({ url: m[1], stop: () => child.kill() });
    });
  });
}

/** Headless Chromium with a page, and the server; `done()` closes both. */
export async function open(path, viewport = { width: 1180, height: 720 }) {
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(server.url + path);
  return {
    page,
    url: server.url,
    errors,
    async shot(name) {
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `${name}.png`) });
    },
    async done() {
      await browser.close();
      server.stop();
    },
  };
}

/** A small seeded generator, so a failing game can be replayed. */
export function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
    return s / 2 ** 32;
  };
}

/** The status line's text once it matches `re`. */
export async function statusMatching(page, re, timeout = 20000) {
  const status = page.getByTestId("status");
  await status.filter({ hasText: re }).waitFor({ timeout });
  return status.textContent();
}

/** The moves played so far, in the game's notation: the record line's
 * `data-moves` (its text writes them as players do: SAN in chess). */
export async function played(page) {
  return ((await page.getByTestId("record").getAttribute("data-moves")) || "").split(" ").filter(Boolean);
}

/** Waits until at least `n` moves are on the record. A click's handler may
 * run after Playwright's click returns, so tests wait on what it changes. */
export async function movesAtLeast(page, n, timeout = 20000) {
  await page.waitForFunction(
    (n) => (document.querySelector("[data-testid=record]").dataset.moves || "").split(" ").filter(Boolean).length >= n,
    n,
    { timeout },
  );
}

/** axe-core's audit of the page as it is now: the violations whose impact
 * is serious or critical, each as "rule: target, ..." for a readable failure. */
export async function audit(page) {
  await page.addScriptTag({ path: join(root, "web-tests/node_modules/axe-core/axe.min.js") });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")), count: v.nodes.length }));
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}, ${v.count}): ${v.help} at ${v.targets.join(" | ")}`);
}
