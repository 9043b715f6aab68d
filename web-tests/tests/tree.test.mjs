// The tree lab: alpha-beta on the lesson's first tree, stepping, the quiz.
import { test } from "node:test";
import assert from "node:assert/strict";
import { open } from "./harness.mjs";

const TREE = "((3 5 7) (2 9 1))";
const LEAVES = ["1.1", "1.2", "1.3", "2.1", "2.2", "2.3"];

async function choose(page, tree, algo) {
  await page.getByTestId("tree-input").fill(tree);
  await page.getByTestId("tree-input").dispatchEvent("change");
  await page.getByTestId("algo").selectOption(algo);
  await page.waitForFunction(() => Number(document.getElementById("steps").textContent) > 0);
}

test("alpha-beta on ((3 5 7) (2 9 1)): root 3, leaves 2.2 and 2.3 pruned", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, TREE, "alphabeta");
    await t.page.getByTestId("run").click();
    assert.equal(await t.page.getByTestId("root-value").textContent(), "3");
    for (const leaf of LEAVES) {
      const pruned = await t.page.locator(`[data-node="${leaf}"]`).getAttribute("data-pruned");
      assert.equal(pruned, leaf === "2.2" || leaf === "2.3" ? "true" : "false", leaf);
    }
    assert.equal(await t.page.getByTestId("evaluated").textContent(), "4");
    assert.equal(await t.page.getByTestId("pruned").textContent(), "2");
    await t.shot("tree-alphabeta");
    // Minimax on the same tree prunes nothing and evaluates all six.
    await t.page.getByTestId("algo").selectOption("minimax");
    await t.page.waitForFunction(() => document.getElementById("root-value").textContent === "?");
    await t.page.getByTestId("run").click();
    assert.equal(await t.page.getByTestId("root-value").textContent(), "3");
    assert.equal(await t.page.getByTestId("evaluated").textContent(), "6");
    assert.equal(await t.page.locator("[data-pruned=true]").count(), 0);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("stepping forward and back retraces the same rows", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, TREE, "alphabeta");
    const row = () => t.page.locator("#table tr.current").textContent();
    const step = () => t.page.getByTestId("step").click();
    await step(); await step(); await step();
    const third = await row();
    assert.equal(await t.page.locator("#stepno").textContent(), "3");
    await step();
    await t.page.getByTestId("back").click();
    assert.equal(await row(), third);
    // The first leaf (1.1 = 3) is evaluated by step 3: enter root, enter 1, leaf 1.1.
    assert.match(third, /1\.1/);
    assert.equal(await t.page.getByTestId("root-value").textContent(), "?");
    await t.page.getByTestId("reset").click();
    assert.equal(await t.page.locator("#stepno").textContent(), "0");
    assert.equal(await t.page.getByTestId("back").isDisabled(), true);
  } finally {
    await t.done();
  }
});

test("the quiz scores the learner's guess against the search", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, TREE, "alphabeta");
    await t.page.getByTestId("quiz").check();
    await t.page.locator('[data-node="2.2"]').click();
    await t.page.locator('[data-node="1.3"]').click();
    await t.page.getByTestId("check").click();
    const said = await t.page.getByTestId("message").textContent();
    assert.match(said, /You marked 1 of the 2 pruned leaves; missed 2\.3; 1\.3 were evaluated\./);
    await t.shot("tree-quiz");
  } finally {
    await t.done();
  }
});
