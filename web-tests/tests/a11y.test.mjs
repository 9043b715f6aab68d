// Every page for a class and a pocket: axe-core finds no serious or
// critical violation in normal or large-text (projector) mode, nothing
// scrolls sideways at 390 px, the large-text choice is remembered, and a
// game can be played from the keyboard alone with focus kept on the board.
import { test } from "node:test";
import assert from "node:assert/strict";
import { audit, movesAtLeast, open, statusMatching } from "./harness.mjs";

// Each page in a state that shows what it draws: a tree stepped to its
// cutoff and to the end, MCTS mid-iteration, compare's table, every board.
const PAGES = [
  ["home", "/", null],
  ["tree", "/tree?tree=((3 12 8) (2 4 6) (14 5 2))&algo=alphabeta&step=end", null],
  ["mcts", "/mcts?iterations=1000&phase=1", null],
  ["mcts-puct", "/mcts?algo=puct&simulations=100&phase=2", null],
  ["compare", "/compare?game=tictactoe&position=XO.X..O..", (p) => p.getByTestId("verdict").filter({ hasText: "agree" }).waitFor()],
  ["tictactoe", "/play/tictactoe?position=XO.X..O..", (p) => statusMatching(p, /your move/)],
  ["connect4", "/play/connect4?position=4453", (p) => statusMatching(p, /your move/)],
  ["chess", "/play/chess?moves=e2e4", (p) => statusMatching(p, /your move/)],
  ["gomoku", "/play/gomoku?position=h8", (p) => statusMatching(p, /your move/)],
  ["pig", "/play/pig", (p) => statusMatching(p, /your move/)],
  ["coins", "/play/coins", (p) => statusMatching(p, /your move/)],
  ["cfr", "/cfr?game=kuhn", null],
  ["kuhn", "/play/kuhn", (p) => statusMatching(p, /your move/)],
  ["leduc", "/play/leduc", (p) => statusMatching(p, /your move/)],
];

async function settled(t, ready) {
  await t.page.evaluate(async () => { await window.ready; if (window.lab) await window.lab.idle(); });
  if (ready) await ready(t.page);
}

for (const projector of [false, true]) {
  test(`axe-core: no serious or critical violation on any page${projector ? " in large-text mode" : ""}`, async () => {
    for (const [name, path, ready] of PAGES) {
      const t = await open(path, projector ? { width: 1180, height: 720 } : { width: 1366, height: 900 });
      try {
        if (projector) {
          await t.page.evaluate(() => localStorage.setItem("ply-projector", "1"));
          await t.page.reload();
          assert.equal(await t.page.evaluate(() => document.documentElement.classList.contains("projector")), true);
        }
        await settled(t, ready);
        assert.deepEqual(await audit(t.page), [], `${name}${projector ? " (large text)" : ""}`);
        if (projector && ["tree", "tictactoe", "mcts"].includes(name)) await t.shot(`projector-${name}`);
        if (!projector) await t.shot(`wide-${name}`);
        assert.deepEqual(t.errors, [], name);
      } finally {
        await t.done();
      }
    }
  });
}

test("at 390 px wide no page scrolls sideways", async () => {
  for (const [name, path, ready] of PAGES) {
    const t = await open(path, { width: 390, height: 844 });
    try {
      await settled(t, ready);
      const width = await t.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${name}: ${width} px wide at 390`);
      if (["tree", "tictactoe", "chess"].includes(name)) await t.shot(`phone-${name}`);
    } finally {
      await t.done();
    }
  }
});

test("the large-text toggle is a pressed button, remembered across pages", async () => {
  const t = await open("/tree");
  try {
    const toggle = t.page.getByTestId("projector");
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    const before = await t.page.locator("h1").evaluate((h) => h.getBoundingClientRect().height);
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    const after = await t.page.locator("h1").evaluate((h) => h.getBoundingClientRect().height);
    assert.ok(after > before * 1.3, `the heading grows: ${before} -> ${after} px`);
    await t.page.goto(t.url + "/play/tictactoe");
    assert.equal(await t.page.getByTestId("projector").getAttribute("aria-pressed"), "true");
    assert.equal(await t.page.evaluate(() => document.documentElement.classList.contains("projector")), true);
    await t.page.getByTestId("projector").click();
    await t.page.goto(t.url + "/");
    assert.equal(await t.page.evaluate(() => document.documentElement.classList.contains("projector")), false);
  } finally {
    await t.done();
  }
});

test("tic-tac-toe by keyboard alone: Tab to the board, arrows, Enter; focus stays on the board", async () => {
  const t = await open("/play/tictactoe?time=100");
  try {
    await statusMatching(t.page, /your move \(X\)/);
    // Tab until the board: its one stop is the first open square.
    for (let i = 0; i < 40; i++) {
      await t.page.keyboard.press("Tab");
      if (await t.page.evaluate(() => document.activeElement.matches("[data-testid^=square-]"))) break;
    }
    const focused = () => t.page.evaluate(() => document.activeElement.dataset.testid);
    assert.equal(await focused(), "square-0");
    await t.page.keyboard.press("ArrowRight");
    await t.page.keyboard.press("ArrowDown");
    assert.equal(await focused(), "square-4");
    await t.page.keyboard.press("Enter");
    await movesAtLeast(t.page, 2);
    await statusMatching(t.page, /your move \(X\)/);
    assert.equal(await t.page.getByTestId("square-4").getAttribute("aria-label"), "square 4: X");
    // After the engine's reply the keyboard is still where it was.
    assert.equal(await focused(), "square-4");
    // The status line is a live region: a screen reader hears each change.
    assert.equal(await t.page.getByTestId("status").getAttribute("role"), "status");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("chess by keyboard: a piece, then its square, by arrows and Enter; moves read in SAN", async () => {
  const t = await open("/play/chess?time=100");
  try {
    await statusMatching(t.page, /your move \(White\)/);
    await t.page.getByTestId("square-g1").focus();
    await t.page.keyboard.press("Enter");
    assert.match(await t.page.getByTestId("square-g1").getAttribute("aria-label"), /g1, white knight, picked/);
    assert.match(await t.page.getByTestId("square-f3").getAttribute("aria-label"), /Nf3 moves here/);
    // g1 -> f3: up two ranks, left one file.
    await t.page.keyboard.press("ArrowUp");
    await t.page.keyboard.press("ArrowUp");
    await t.page.keyboard.press("ArrowLeft");
    assert.equal(await t.page.evaluate(() => document.activeElement.dataset.testid), "square-f3");
    await t.page.keyboard.press("Enter");
    await movesAtLeast(t.page, 2);
    await statusMatching(t.page, /your move \(White\)/);
    const record = await t.page.getByTestId("record").textContent();
    assert.match(record, /^moves: Nf3 \S+$/, record);
    assert.match(await t.page.getByTestId("said").textContent(), /^the engine plays [a-hKQRBNO]/);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

/** WCAG contrast of two computed colours, `rgb(r, g, b)`. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("the states a learner must see stand out at 4.5:1: the current node, a visited leaf, a pruned one, MCTS's path", async () => {
  const t = await open("/tree?tree=((3 12 8) (2 4 6) (14 5 2))&algo=alphabeta&step=14");
  try {
    await t.page.evaluate(() => window.lab.idle());
    const style = (sel, prop) => t.page.locator(sel).first().evaluate((e, p) => getComputedStyle(e)[p], prop);
    const white = "rgb(255, 255, 255)";
    for (const [what, sel, prop] of [
      ["the current node's outline", ".node.current .shape", "stroke"],
      ["a visited leaf's outline", ".node.leaf.visited .shape", "stroke"],
      ["a pruned leaf's outline", '.node[data-pruned="true"] .shape', "stroke"],
      ["a pruned leaf's value", '.node[data-pruned="true"] text', "fill"],
      ["the cutoff's reason", ".node .why", "fill"],
    ]) {
      const c = await style(sel, prop);
      assert.ok(contrast(c, white) >= 4.5, `${what}: ${c} is ${contrast(c, white).toFixed(2)}:1 on white`);
    }
  } finally {
    await t.done();
  }
  const m = await open("/mcts?iterations=10&phase=1");
  try {
    await m.page.evaluate(() => window.ready);
    const c = await m.page.locator(".node.path circle").first().evaluate((e) => getComputedStyle(e).stroke);
    assert.ok(contrast(c, "rgb(255, 255, 255)") >= 4.5, `MCTS's path: ${c}`);
  } finally {
    await m.done();
  }
});
