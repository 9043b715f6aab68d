// The compare view: every exact search on one position, the values agreeing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

test("tic-tac-toe's fork position: every search says +1", async () => {
  const t = await open("/compare?game=tictactoe&position=XO.X..O..");
  try {
    await t.page.getByTestId("verdict").filter({ hasText: "agree" }).waitFor();
    const rows = t.page.locator("#rows tr");
    assert.ok(await rows.count() >= 5);
    const values = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[1].textContent));
    assert.ok(values.every((v) => v === "1"), values.join(","));
    const first = await rows.first().locator("td").first().textContent();
    assert.equal(first, "minimax");
    await t.shot("compare");
  } finally {
    await t.done();
  }
});

test("a bad position is named, with the CLI's message", async () => {
  const t = await open("/compare");
  try {
    await t.page.getByTestId("position").fill("XXXX");
    await t.page.getByTestId("compare").click();
    await t.page.getByTestId("verdict").filter({ hasText: "invalid tictactoe position" }).waitFor();
  } finally {
    await t.done();
  }
});
