// Poker on the page: the CFR lab shows the command line's numbers, and a
// hand against the engine keeps its card face down until the showdown.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { bin, open, played, statusMatching } from "./harness.mjs";

/** `ply analyze GAME --algo ALGO --iterations N --json`. */
function cli(game, algo, iterations) {
  return JSON.parse(execFileSync(bin, ["analyze", game, "--algo", algo, "--iterations", String(iterations), "--json"], { encoding: "utf8" }));
}

const settle = (page) => page.evaluate(async () => { await window.ready; await window.lab.idle(); });

test("the CFR lab: after 1,111 iterations of CFR+ on Kuhn poker, every set's average strategy and the exploitability are the CLI's", async () => {
  const t = await open("/cfr?game=kuhn&algo=cfr%2B", { width: 1280, height: 1180 });
  try {
    await settle(t.page);
    for (const n of ["1000", "100", "10", "1"]) await t.page.getByTestId(`more-${n}`).click();
    await settle(t.page);
    assert.equal(await t.page.getByTestId("iterations").textContent(), "1,111");
    const expected = cli("kuhn", "cfr+", 1111);
    assert.equal(await t.page.getByTestId("exploitability").textContent(), expected.exploitability.toFixed(6));
    const shown = await t.page.$$eval("[data-testid=sets] tr[data-set]", (rows) => rows.map((r) => ({
      name: r.dataset.set,
      moves: [...r.querySelectorAll("[data-move]")].map((m) => [m.dataset.move, Number(m.dataset.average)]),
    })));
    assert.deepEqual(shown, expected.sets.map((s) => ({ name: s.name, moves: s.moves.map((m) => [m.move, m.average]) })));
    // The curve has a point for each checkpoint and the one run here.
    assert.ok(await t.page.locator("#chart circle").count() >= 8);
    await t.page.getByTestId("filter").fill("K");
    assert.deepEqual(await t.page.$$eval("tr[data-set]", (rows) => rows.map((r) => r.dataset.set)), ["K:", "K:pb", "K:p", "K:b"]);
    await t.shot("cfr-lab-kuhn");
    // Leduc's 936 sets, filtered by a card.
    await t.page.getByTestId("cfr-game").selectOption("leduc");
    await settle(t.page);
    await t.page.getByTestId("more-100").click();
    await t.page.getByTestId("filter").fill("Ks:r");
    await settle(t.page);
    const names = await t.page.$$eval("tr[data-set]", (rows) => rows.map((r) => r.dataset.set));
    assert.ok(names.length > 0 && names.every((n) => n.startsWith("Ks:r")), names.join(" "));
    await t.shot("cfr-lab-leduc");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("a hand of Kuhn poker: the engine's card is face down until the showdown, and the record hides it", async () => {
  const t = await open("/play/kuhn");
  try {
    await statusMatching(t.page, /your move/);
    // You are the first player: your card is shown, the engine's is not.
    assert.equal(await t.page.locator("[data-testid=seat-MAX] .card.back").count(), 0);
    assert.equal(await t.page.locator("[data-testid=seat-MIN] .card.back").count(), 1);
    const dealt = await played(t.page);
    assert.equal(dealt.length, 2);
    const record = await t.page.getByTestId("record").textContent();
    assert.ok(record.endsWith(`${dealt[0]} ?`), record);
    assert.ok(!(await t.page.getByTestId("board").textContent()).includes("MIN holds"));
    await t.shot("play-kuhn-hidden");
    // Bet; the engine calls or folds; either way the hand ends.
    await t.page.getByTestId("move-b").click();
    await statusMatching(t.page, /over/);
    const moves = await played(t.page);
    assert.equal(moves[2], "b");
    assert.equal(await t.page.locator(".card.back").count(), 0);
    const chips = await t.page.getByTestId("chips").textContent();
    assert.match(chips, /^(you win|the engine wins) [12] chips?$/);
    await t.shot("play-kuhn-showdown");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("Leduc: a hint gives the equilibrium's probabilities at what you see, and a hand plays to its end", async () => {
  const t = await open("/play/leduc");
  try {
    await statusMatching(t.page, /your move/);
    await t.page.getByTestId("hint").click();
    await t.page.getByTestId("said").filter({ hasText: /hint: at what you see \(\w\w:\)/ }).waitFor();
    // Check or call until the hand is over.
    for (let i = 0; i < 8; i++) {
      const status = await t.page.getByTestId("status").textContent();
      if (/over/.test(status)) break;
      await statusMatching(t.page, /your move|over/);
      if (/over/.test(await t.page.getByTestId("status").textContent())) break;
      await t.page.getByTestId("move-c").click();
      await t.page.waitForTimeout(200);
    }
    await statusMatching(t.page, /over/);
    assert.equal(await t.page.locator(".card.back").count(), 0);
    await t.shot("play-leduc");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});
