// Gomoku by clicking points; the engine answers, and a five ends the game.
import { test } from "node:test";
import assert from "node:assert/strict";
import { movesAtLeast, open, played as record, statusMatching } from "./harness.mjs";

test("clicking points places stones and the engine replies", async () => {
  const t = await open("/play/gomoku?time=300");
  try {
    await statusMatching(t.page, /your move \(Black\)/);
    await t.page.getByTestId("point-h8").click();
    await movesAtLeast(t.page, 2);
    await statusMatching(t.page, /your move/);
    const played = await record(t.page);
    assert.equal(played[0], "h8");
    // One black stone on h8, one white stone where the engine played, the
    // engine's stone marked as the last.
    assert.equal(await t.page.locator(".pt.b").count(), 1);
    assert.equal(await t.page.locator(".pt.w").count(), 1);
    assert.match(await t.page.getByTestId("point-h8").getAttribute("class"), /\bb\b/);
    assert.match(await t.page.getByTestId(`point-${played[1]}`).getAttribute("class"), /\bw\b.*last/);
    // A taken point takes no stone.
    assert.equal(await t.page.getByTestId("point-h8").getAttribute("aria-disabled"), "true");
    await t.shot("play-gomoku");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("the engine blocks a four", async () => {
  // Black has e8 f8 g8 h8 (d8 is white's): the engine, white, must take i8.
  const t = await open("/play/gomoku?position=" + encodeURIComponent("e8 d8 f8 a1 g8 b1 h8") + "&time=300");
  try {
    await movesAtLeast(t.page, 1);
    assert.deepEqual(await record(t.page), ["i8"]);
    await statusMatching(t.page, /your move \(Black\)/);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("five in a row ends the game", async () => {
  // Both sides by hand; black's i8 makes e8 to i8.
  const t = await open("/play/gomoku?position=" + encodeURIComponent("e8 d8 f8 a1 g8 b1 h8 c1") + "&max=human&min=human");
  try {
    await statusMatching(t.page, /your move \(Black\)/);
    await t.page.getByTestId("point-i8").click();
    await statusMatching(t.page, /the game is over: Black wins/);
    assert.equal(await t.page.locator(".pt.b").count(), 5);
    assert.equal(await t.page.getByTestId("point-j8").getAttribute("aria-disabled"), "true");
    // The five are marked as the winning line, and only they.
    assert.deepEqual(await t.page.$$eval(".pt.win", (p) => p.map((x) => x.dataset.move).sort()), ["e8", "f8", "g8", "h8", "i8"]);
    // A click on a point once the game is over places nothing.
    await t.page.getByTestId("point-j8").click({ force: true });
    assert.equal(await t.page.locator(".pt.b, .pt.w").count(), 9);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});
