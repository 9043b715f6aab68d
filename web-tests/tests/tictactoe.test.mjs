// Whole games of tic-tac-toe, played by clicking: the engine searches to
// the end, so it never loses (tic-tac-toe is a draw with best play).
import { test } from "node:test";
import assert from "node:assert/strict";
import { movesAtLeast, open, rng, statusMatching } from "./harness.mjs";

const OVER = /wins|draw/;

/** Starts a new game and waits until the last one's result is gone. */
async function newGame(page) {
  await page.getByTestId("new-game").click();
  await page.waitForFunction(() => !/wins|draw/.test(document.querySelector("[data-testid=status]").textContent));
}

/** Plays random legal squares for the human until the game ends; returns the status. */
async function playOut(page, random) {
  for (;;) {
    const status = await statusMatching(page, /your move|wins|draw/);
    if (OVER.test(status)) return status;
    const open = page.locator("[data-testid^=square-][aria-disabled=false]");
    const n = await open.count();
    assert.ok(n > 0, `no square to click though the status says '${status}'`);
    const before = await page.getByTestId("record").textContent();
    await open.nth(Math.floor(random() * n)).click();
    // Wait for the move (and the engine's reply, if any) to land.
    await page.waitForFunction((b) => document.querySelector("[data-testid=record]").textContent !== b, before);
  }
}

test("the human as X never beats the engine, and every game ends announced", async () => {
  const t = await open("/play/tictactoe?time=100");
  try {
    const random = rng(7);
    for (let game = 0; game < 4; game++) {
      if (game > 0) await newGame(t.page);
      const status = await playOut(t.page, random);
      assert.match(status, /O wins|draw/, `game ${game}: ${status}`);
      if (game === 0) await t.shot("play-tictactoe");
    }
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("the human as O never beats the engine either", async () => {
  const t = await open("/play/tictactoe?max=engine&min=human&time=100");
  try {
    const random = rng(11);
    for (let game = 0; game < 3; game++) {
      if (game > 0) await newGame(t.page);
      assert.match(await playOut(t.page, random), /X wins|draw/);
    }
  } finally {
    await t.done();
  }
});

test("engine against engine is a draw, the game's value", async () => {
  const t = await open("/play/tictactoe?max=engine&min=engine&time=100");
  try {
    assert.match(await statusMatching(t.page, OVER), /draw/);
    const record = await t.page.getByTestId("record").textContent();
    assert.equal(record.replace("moves: ", "").split(" ").length, 9);
  } finally {
    await t.done();
  }
});

test("every move's value shows in its square: the lesson's fork position", async () => {
  // XO.X..O..: square 4 forks (+1), 7 holds the draw (0), 2, 5 and 8 lose (-1).
  const t = await open("/play/tictactoe?position=XO.X..O..&time=1000");
  try {
    await statusMatching(t.page, /your move/);
    await t.page.getByTestId("values").click();
    await t.page.getByTestId("square-4").locator(".note").waitFor();
    const note = async (i) => (await t.page.getByTestId(`square-${i}`).locator(".note").textContent()).trim();
    assert.equal(await note(4), "+1");
    assert.equal(await note(7), "0");
    for (const i of [2, 5, 8]) assert.equal(await note(i), "-1");
    // A screen reader hears each square's name, content and value.
    assert.equal(await t.page.getByTestId("square-4").getAttribute("aria-label"), "square 4: empty, value +1");
    assert.equal(await t.page.getByTestId("square-0").getAttribute("aria-label"), "square 0: X");
    // Undo goes back to the human's last turn; a hint names the fork.
    await t.page.getByTestId("square-4").click();
    await movesAtLeast(t.page, 2);
    await t.page.getByTestId("undo").click();
    assert.equal(await t.page.getByTestId("record").textContent(), "");
    await t.page.getByTestId("hint").click();
    await t.page.getByTestId("said").filter({ hasText: "hint: 4" }).waitFor();
  } finally {
    await t.done();
  }
});

test("MCTS on the play page searches for the time chosen, its visits as bars", async () => {
  // The engine plays X by MCTS for 1 s: the stream shows the playouts
  // growing (the search no longer stops at a default iteration count).
  const t = await open("/play/tictactoe?max=engine&min=human&engine=mcts&time=1000");
  try {
    await movesAtLeast(t.page, 1, 30000);
    const thoughts = await t.page.getByTestId("thinking").textContent();
    const playouts = Number(thoughts.match(/^([\d,]+) random playouts/)[1].replace(/,/g, ""));
    assert.ok(playouts > 10000, `${playouts} playouts in 1 s`);
    assert.ok(await t.page.locator("#thinking .bar").count() >= 2, "a bar per move");
    assert.match(await t.page.getByTestId("said").textContent(), /^the engine plays \d/);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("the learned engine (PUCT over the built-in network) is offered and plays", async () => {
  // Tic-tac-toe has a built-in network: the engine menu offers it, and X
  // played by PUCT answers with its simulations streamed as bars.
  const t = await open("/play/tictactoe?max=engine&min=human&engine=puct");
  try {
    assert.equal(await t.page.getByTestId("engine").inputValue(), "puct");
    await movesAtLeast(t.page, 1, 30000);
    assert.match(await t.page.getByTestId("said").textContent(), /^the engine plays \d/);
    const thoughts = await t.page.getByTestId("thinking").textContent();
    assert.match(thoughts, /^[\d,]+ simulations so far, each ending where the learned network judges/);
    assert.match(thoughts, /tries  mean \d\.\d{3}  prior \d\.\d{3}/, "each move's prior beside its visits");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
  // Chess has none: the option is taken away once the game's spec has
  // loaded (the rules line is written from the same spec, just before).
  const c = await open("/play/chess");
  try {
    await c.page.waitForFunction(() => document.getElementById("rules").textContent.length > 0);
    assert.equal(await c.page.locator("#puct-option").count(), 0);
  } finally {
    await c.done();
  }
});
