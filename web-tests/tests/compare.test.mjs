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
    // Numbers read as numbers: ratios with their ×, times with their unit,
    // counts with thousands separators; every column says what it means.
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    for (const c of cells) {
      assert.match(c[9], /^\d+(\.\d{1,3})?×$/, c[9]);
      assert.match(c[10], /^\d+(\.\d+)? (ms|s)$/, c[10]);
      assert.match(c[3], /^\d{1,3}(,\d{3})*$/, c[3]);
    }
    assert.equal(cells[1][9], "1.00×", "plain alpha-beta against itself");
    const titled = await t.page.$$eval("#table th[title]", (th) => th.length);
    assert.equal(titled, 10);
    assert.match(await t.page.getByTestId("legend").textContent(), /transposition table/);
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
