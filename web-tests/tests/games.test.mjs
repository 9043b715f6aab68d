// The games without a board of their own: moves as buttons; pig's die.
import { test } from "node:test";
import assert from "node:assert/strict";
import { movesAtLeast, open, statusMatching } from "./harness.mjs";

test("coins: taking 1 of 4 wins against any reply (the lesson's answer)", async () => {
  const t = await open("/play/coins?time=100");
  try {
    // 4 coins, take 1 or 2: take 1 leaves 3, a loss for the mover.
    await statusMatching(t.page, /your move/);
    await t.page.getByTestId("move-1").click();
    await movesAtLeast(t.page, 2);
    await statusMatching(t.page, /your move/);
    // The engine took 1 or 2, leaving 2 or 1: take them all.
    const left = Number((await t.page.getByTestId("board-text").textContent()).match(/\d+/)[0]);
    await t.page.getByTestId(`move-${left}`).click();
    await movesAtLeast(t.page, 3);
    assert.match(await statusMatching(t.page, /wins|draw/), /MAX wins/);
  } finally {
    await t.done();
  }
});

test("pig: rolling shows the die, holding banks the turn total", async () => {
  const t = await open("/play/pig?target=12");
  try {
    await statusMatching(t.page, /your move/);
    await t.page.getByTestId("move-roll").click();
    // The die rolls (a chance move the page draws at random), then either
    // the turn goes on or a 1 passes it to the engine.
    await t.page.getByTestId("said").filter({ hasText: "chance:" }).waitFor();
    assert.match(await t.page.getByTestId("die").textContent(), /[⚀⚁⚂⚃⚄⚅]/);
    await t.page.getByTestId("side-min").selectOption("engine");
    await t.page.getByTestId("side-max").selectOption("engine");
    // Engine against engine to the end: someone reaches 12.
    assert.match(await statusMatching(t.page, /wins/, 60000), /(MAX|MIN) wins/);
    await t.shot("play-pig");
  } finally {
    await t.done();
  }
});
