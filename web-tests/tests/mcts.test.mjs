// The MCTS lab: its numbers are the command line's for the same seed and
// iterations, the lesson's figure comes out, and one iteration steps
// through its four phases.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { bin, open } from "./harness.mjs";

const LESSON = ".OX..X..O";

/** `ply analyze GAME --algo mcts --iterations N --seed S --json`'s moves. */
function cli(game, position, iterations, seed) {
  const args = ["analyze", game, "--algo", "mcts", "--iterations", String(iterations), "--seed", String(seed), "--json"];
  if (position) args.push("--position", position);
  return JSON.parse(execFileSync(bin, args, { encoding: "utf8" })).moves;
}

/** The root's moves as the lab's table shows them. */
async function shown(page) {
  return page.$$eval("[data-testid=moves] tr[data-move]", (rows) =>
    rows.map((r) => ({ move: r.dataset.move, visits: Number(r.dataset.visits), mean: Number(r.dataset.mean) })));
}

const settle = (page) => page.evaluate(() => window.lab.idle());

test("the lesson's figure: after 1,000 iterations (seed 1) the centre has 856 visits, mean 0.94, as the CLI says", async () => {
  const t = await open("/mcts");
  try {
    await t.page.evaluate(() => window.ready);
    assert.equal(await t.page.getByTestId("position").inputValue(), LESSON);
    await t.page.getByTestId("run-medium").click();
    await settle(t.page);
    assert.equal(await t.page.getByTestId("iteration").getAttribute("data-iteration"), "1000");
    const centre = t.page.locator("[data-square='4']");
    assert.equal(await centre.getAttribute("data-visits"), "856");
    assert.equal(Number(await centre.getAttribute("data-mean")).toFixed(2), "0.94");
    const expected = cli("tictactoe", LESSON, 1000, 1).map(({ move, visits, mean }) => ({ move, visits, mean }));
    assert.deepEqual(await shown(t.page), expected);
    // The tree's first level carries the same numbers as hooks.
    for (const m of expected.filter((m) => m.visits > 0)) {
      assert.equal(await t.page.locator(`[data-node="${m.move}"]`).getAttribute("data-visits"), String(m.visits));
    }
    assert.equal(await t.page.locator("[data-node=root]").getAttribute("data-visits"), "1000");
    await t.shot("mcts-lesson-1000");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("another seed, another game: the lab agrees with the CLI move for move", async () => {
  for (const [game, iterations, seed] of [["tictactoe", 100, 7], ["coins", 200, 3], ["connect4", 300, 5]]) {
    const t = await open(`/mcts?game=${game}&iterations=${iterations}&seed=${seed}`);
    try {
      await t.page.evaluate(() => window.ready);
      const expected = cli(game, null, iterations, seed).map(({ move, visits, mean }) => ({ move, visits, mean }));
      assert.deepEqual(await shown(t.page), expected, game);
      assert.deepEqual(t.errors, []);
    } finally {
      await t.done();
    }
  }
});

test("one iteration, phase by phase: selection, expansion, playout, backpropagation; keys step and go back", async () => {
  const t = await open("/mcts");
  try {
    await t.page.evaluate(() => window.ready);
    const at = async () => [
      Number(await t.page.getByTestId("iteration").getAttribute("data-iteration")),
      Number(await t.page.locator("#phases").getAttribute("data-phase")),
    ];
    assert.deepEqual(await at(), [0, 0]);
    assert.equal(await t.page.locator("[data-node=root]").getAttribute("data-visits"), "0");
    // Iteration 1: the root has untried moves, so selection stops at once.
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 1]);
    assert.match(await t.page.getByTestId("explain").textContent(), /never tried/);
    await t.page.keyboard.press(" ");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 2]);
    const text = await t.page.getByTestId("explain").textContent();
    assert.match(text, /Expansion/);
    const added = t.page.locator(".node.new");
    assert.equal(await added.count(), 1, "the expanded node is drawn, not yet visited");
    assert.equal(await added.getAttribute("data-visits"), "0");
    const move = await added.getAttribute("data-node");
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 3]);
    assert.match(await t.page.getByTestId("explain").textContent(), /Playout/);
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 4]);
    assert.equal(await t.page.locator("[data-node=root]").getAttribute("data-visits"), "1");
    assert.equal(await t.page.locator(`[data-node="${move}"]`).getAttribute("data-visits"), "1");
    // Back a phase, then forward through iteration 2.
    await t.page.keyboard.press("ArrowLeft");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 3]);
    for (let i = 0; i < 5; i++) await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [2, 4]);
    assert.equal(await t.page.locator("[data-node=root]").getAttribute("data-visits"), "2");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("selection follows the highest UCT value, and the formula's numbers are the row's", async () => {
  const t = await open(`/mcts?iterations=1000&phase=1`);
  try {
    await t.page.evaluate(() => window.ready);
    const tables = await t.page.$$eval("[data-testid=uct]", (ts) => ts.map((tb) =>
      [...tb.rows].slice(1).map((r) => ({ chosen: r.className === "chosen", n: Number(r.cells[1].textContent.replace(/,/g, "")), mean: Number(r.cells[2].textContent), uct: r.cells[4].textContent }))));
    assert.ok(tables.length >= 2, "selection passed the root and below");
    for (const rows of tables) {
      const N = rows.reduce((a, r) => a + r.n, 0);
      const chosen = rows.filter((r) => r.chosen);
      assert.equal(chosen.length, 1);
      for (const r of rows) {
        // Recomputed from the row's own n and mean, with N the children's visits summed
        // (a node's visits are its children's plus its own first one, or none at the root).
        const u = r.mean + 1.414 * Math.sqrt(Math.log(N + (rows === tables[0] ? 0 : 1)) / r.n);
        assert.ok(Math.abs(u - Number(r.uct)) < 2e-3, `${u} vs ${r.uct}`);
        assert.ok(Number(r.uct) <= Number(chosen[0].uct));
      }
    }
    await t.shot("mcts-selection");
  } finally {
    await t.done();
  }
});

test("at 390 px wide the MCTS lab (both searches) and the home page do not scroll sideways", async () => {
  for (const path of ["/mcts?iterations=1000", "/mcts?algo=puct&simulations=100&phase=1", "/"]) {
    const t = await open(path, { width: 390, height: 844 });
    try {
      await t.page.evaluate(() => window.ready);
      const width = await t.page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `${path}: ${width} px wide`);
      await t.shot(path === "/" ? "home-390" : path.includes("puct") ? "puct-390" : "mcts-390");
    } finally {
      await t.done();
    }
  }
});

test("the home page links the labs and every game, a line each", async () => {
  const t = await open("/");
  try {
    const games = (await (await fetch(t.url + "/api/games")).json()).games.map((g) => g.name).filter((g) => g !== "tree");
    await t.page.waitForFunction((n) => document.querySelectorAll("#games li").length === n, games.length);
    assert.deepEqual(await t.page.$$eval("#games li", (li) => li.map((l) => l.dataset.game)), games);
    for (const g of games) assert.equal(await t.page.locator(`#games li[data-game="${g}"] a`).getAttribute("href"), `/play/${g}`);
    for (const lab of ["tree", "mcts", "compare"]) assert.equal(await t.page.getByTestId(`lab-${lab}`).getAttribute("href"), `/${lab}`);
    await t.page.getByTestId("lab-mcts").click();
    await t.page.waitForURL(/\/mcts$/);
    await t.shot("home");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("a position the game refuses is named, and clears the tree it replaced", async () => {
  const t = await open("/mcts?iterations=100");
  try {
    await t.page.evaluate(() => window.ready);
    assert.equal(await t.page.locator("[data-node=root]").getAttribute("data-visits"), "100");
    await t.page.getByTestId("position").fill("XX?");
    await t.page.getByTestId("position").dispatchEvent("change");
    await settle(t.page);
    assert.equal(await t.page.getByTestId("message").getAttribute("class"), "error");
    assert.match(await t.page.getByTestId("message").textContent(), /position/);
    assert.equal(await t.page.locator("[data-node]").count(), 0);
    assert.equal(await t.page.locator("[data-testid=moves]").count(), 0);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

/** `ply trace GAME --algo puct --simulations N --json`. */
function puctTrace(game, position, simulations) {
  const args = ["trace", game, "--algo", "puct", "--simulations", String(simulations), "--json"];
  if (position) args.push("--position", position);
  return JSON.parse(execFileSync(bin, args, { encoding: "utf8" }));
}

test("PUCT in the lab: the network's priors before any simulation, one simulation step by step, the CLI's numbers after 100", async () => {
  const t = await open("/mcts?algo=puct");
  try {
    await t.page.evaluate(() => window.ready);
    const at = async () => [
      Number(await t.page.getByTestId("iteration").getAttribute("data-iteration")),
      Number(await t.page.locator("#phases").getAttribute("data-phase")),
    ];
    assert.deepEqual(await at(), [0, 0]);
    assert.equal(await t.page.getByTestId("c").inputValue(), "1.5");
    // Before any simulation each root move shows the network's prior.
    const zero = puctTrace("tictactoe", LESSON, 0);
    for (const child of zero.tree.children) {
      const node = t.page.locator(`[data-node="${child.move}"]`);
      assert.equal(Number(await node.getAttribute("data-prior")), child.prior);
      assert.equal(await node.getAttribute("data-visits"), "0");
    }
    assert.match(await t.page.getByTestId("explain").textContent(), /policy/);
    // Simulation 1: selection by Q + U, the highest-prior move followed.
    const one = puctTrace("tictactoe", LESSON, 1).simulation;
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 1]);
    const rows = await t.page.$$eval("[data-testid=puct] tr[data-move]", (rs) => rs.map((r) => ({ move: r.dataset.move, chosen: r.className === "chosen" })));
    assert.deepEqual(rows.filter((r) => r.chosen).map((r) => r.move), [one.selection[0].chosen]);
    // Expansion: the leaf's moves join the tree at once, with their priors.
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 2]);
    const fresh = await t.page.$$eval(".node.new", (ns) => ns.map((n) => [n.dataset.node, Number(n.dataset.prior)]));
    assert.deepEqual(fresh, one.priors.map((p) => [`${one.node}.${p.move}`, p.prior]));
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.match(await t.page.getByTestId("explain").textContent(), /no playout/);
    await t.shot("puct-evaluation");
    await t.page.keyboard.press("ArrowRight");
    await settle(t.page);
    assert.deepEqual(await at(), [1, 4]);
    assert.equal(await t.page.locator(`[data-node="${one.node}"]`).getAttribute("data-visits"), "1");
    // +100: the root's moves are the CLI's, priors and all.
    await t.page.getByTestId("run-medium").click();
    await settle(t.page);
    assert.equal(await t.page.getByTestId("iteration").getAttribute("data-iteration"), "101");
    const expected = puctTrace("tictactoe", LESSON, 101).moves.map(({ move, visits, prior }) => ({ move, visits, prior }));
    const got = await t.page.$$eval("[data-testid=moves] tr[data-move]", (rs) => rs.map((r) => ({ move: r.dataset.move, visits: Number(r.dataset.visits), prior: Number(r.dataset.prior) })));
    assert.deepEqual(got, expected);
    await t.shot("puct-101");
    // Back to MCTS: every game again, its own c.
    await t.page.getByTestId("algo").selectOption("mcts");
    await settle(t.page);
    assert.equal(await t.page.getByTestId("c").inputValue(), "1.414");
    assert.ok(await t.page.locator("#game option[value=chess]").count() === 1);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("PUCT in the lab offers only the games with a network, and Connect Four agrees with the CLI", async () => {
  const t = await open("/mcts?algo=puct&game=connect4&simulations=30&phase=1");
  try {
    await t.page.evaluate(() => window.ready);
    const offered = await t.page.$$eval("#game option", (os) => os.map((o) => o.value));
    const networks = (await (await fetch(t.url + "/api/games")).json()).games.filter((g) => g.network).map((g) => g.name);
    assert.deepEqual(offered, networks);
    const r = puctTrace("connect4", null, 30).simulation;
    const shown = await t.page.$$eval("[data-testid=puct]", (ts) => ts.map((tb) => [...tb.rows].slice(1).map((row) => row.cells[5].textContent)));
    assert.equal(shown.length, r.selection.length);
    for (const [i, s] of r.selection.entries()) {
      // Q + U to four places, with the page's minus sign.
      assert.deepEqual(shown[i], s.children.map((c) => (c.score < 0 ? "−" : "+") + Math.abs(c.score).toFixed(4)));
    }
    await t.shot("puct-connect4-selection");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});
