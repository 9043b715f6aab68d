// Connect Four by clicking columns; the engine answers each move.
import { test } from "node:test";
import assert from "node:assert/strict";
import { movesAtLeast, open, played as record, statusMatching } from "./harness.mjs";

test("clicking columns drops stones and the engine replies", async () => {
  const t = await open("/play/connect4?time=100");
  try {
    for (const [i, column] of [4, 4, 3].entries()) {
      await statusMatching(t.page, /your move/);
      await t.page.getByTestId(`column-${column}`).click();
      await movesAtLeast(t.page, 2 * (i + 1));
      const played = await record(t.page);
      assert.equal(played[2 * i], String(column));
    }
    await statusMatching(t.page, /your move/);
    // Six stones on the board, red and yellow in turn, in the columns played.
    assert.equal(await t.page.locator(".cell.r").count(), 3);
    assert.equal(await t.page.locator(".cell.y").count(), 3);
    const played = await record(t.page);
    for (let c = 1; c <= 7; c++) {
      const n = played.filter((m) => m === String(c)).length;
      assert.equal(await t.page.getByTestId(`column-${c}`).locator(".cell.r, .cell.y").count(), n, `column ${c}`);
    }
    // The engine's thoughts were streamed: at least one finished depth.
    assert.match(await t.page.getByTestId("thinking").textContent(), / \d+ moves? ahead: (estimate [+−-]?\d+ \(Red.s view\)|.*can force|a draw)/);
    await t.page.getByTestId("values").click();
    await t.page.getByTestId("said").filter({ hasText: "every legal move's value" }).waitFor();
    await t.shot("play-connect4");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("a full column takes no more stones", async () => {
  // Column 1 holds five stones (red and yellow in turn): one more fills it.
  const t = await open("/play/connect4?position=11111&max=human&min=human");
  try {
    await statusMatching(t.page, /your move/);
    await t.page.getByTestId("column-1").click();
    await movesAtLeast(t.page, 1);
    await statusMatching(t.page, /your move/);
    // The full column says so to a screen reader, and a click (forced: it
    // is aria-disabled) drops nothing.
    assert.equal(await t.page.getByTestId("column-1").getAttribute("aria-disabled"), "true");
    assert.match(await t.page.getByTestId("column-1").getAttribute("aria-label"), /column 1, full/);
    await t.page.getByTestId("column-1").click({ force: true });
    await t.page.getByTestId("column-1").click({ force: true });
    await t.page.waitForTimeout(300);
    assert.deepEqual(await record(t.page), ["1"]);
    assert.match(await t.page.getByTestId("status").textContent(), /your move \(Red\)/);
    assert.equal(await t.page.getByTestId("column-1").locator(".cell.r, .cell.y").count(), 6);
  } finally {
    await t.done();
  }
});
