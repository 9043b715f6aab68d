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
  // The algorithm's change loads the trace again: wait for that one.
  await page.evaluate(() => window.lab.idle());
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

const LESSON = "((3 12 8) (2 4 6) (14 5 2))";

test("a true step-through: one row a step, the cutoff greys 2.2 and 2.3 at its step and says why", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, LESSON, "alphabeta");
    const total = Number(await t.page.locator("#steps").textContent());
    assert.equal(total, 26);
    const rows = () => t.page.locator('[data-testid="step-row"]').count();
    const pruned = (p) => t.page.locator(`[data-node="${p}"]`).getAttribute("data-pruned");
    assert.equal(await rows(), 0, "step 0 shows no rows: nothing is given away");
    for (let k = 1; k <= total; k++) {
      await t.page.getByTestId("step").click();
      // The click acts once the tree shown has loaded: wait for its row.
      await t.page.waitForFunction((k) => document.querySelectorAll('[data-testid="step-row"]').length >= k, k, { timeout: 5000 }).catch(() => {});
      assert.equal(await rows(), k, `rows at step ${k}`);
      assert.equal(await t.page.locator("#table tr.current").getAttribute("data-step"), String(k));
      const cut = k >= 14; // step 14 is the cutoff at node 2 (α 3 ≥ β 2)
      assert.equal(await pruned("2.2"), String(cut), `2.2 at step ${k}`);
      assert.equal(await pruned("2.3"), String(cut), `2.3 at step ${k}`);
      if (k === 14) {
        assert.equal(await t.page.locator('[data-node="2"] .why').textContent(), "α 3 ≥ β 2");
        await t.shot("tree-cutoff");
      }
    }
    // Back across the cutoff undoes it.
    for (let k = total; k > 13; k--) await t.page.getByTestId("back").click();
    assert.equal(await pruned("2.2"), "false");
    assert.equal(await t.page.locator('[data-node="2"] .why').textContent(), "");
    assert.equal(await rows(), 13);
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("every node is named on the drawing as in the table; the end marks the chosen line", async () => {
  const t = await open(`/tree?tree=${encodeURIComponent(LESSON)}&algo=alphabeta&step=end`);
  try {
    await t.page.waitForFunction(() => document.getElementById("root-value").textContent === "3");
    for (const p of ["1", "2.1", "3.3"]) assert.equal(await t.page.locator(`[data-node="${p}"] .name`).textContent(), p);
    assert.equal(await t.page.locator('[data-node=""] .name').textContent(), "root");
    // MAX takes child 1 (value 3), where MIN takes leaf 1.1 (3).
    const best = await t.page.locator(".node.best").evaluateAll((gs) => gs.map((g) => g.dataset.node));
    assert.deepEqual(best, ["1", "1.1"]);
  } finally {
    await t.done();
  }
});

test("keys step the trace: → and space forward, ← back, Home and End", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, LESSON, "alphabeta");
    await t.page.locator("header h1").click();
    const at = () => t.page.locator("#stepno").textContent();
    await t.page.keyboard.press("ArrowRight");
    await t.page.keyboard.press("ArrowRight");
    await t.page.keyboard.press(" ");
    assert.equal(await at(), "3");
    await t.page.keyboard.press("ArrowLeft");
    assert.equal(await at(), "2");
    await t.page.keyboard.press("End");
    assert.equal(await at(), "26");
    assert.equal(await t.page.getByTestId("root-value").textContent(), "3");
    await t.page.keyboard.press("Home");
    assert.equal(await at(), "0");
    assert.equal(await t.page.locator('[data-testid="step-row"]').count(), 0);
  } finally {
    await t.done();
  }
});

test("the quiz marks each clicked leaf right or wrong on the tree, not in the error colour", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, TREE, "alphabeta");
    await t.page.getByTestId("quiz").check();
    await t.page.locator('[data-node="2.2"]').click();
    await t.page.locator('[data-node="1.3"]').click();
    await t.page.getByTestId("check").click();
    const cls = (p) => t.page.locator(`[data-node="${p}"]`).getAttribute("class");
    assert.match(await cls("2.2"), /quiz-right/);
    assert.match(await cls("1.3"), /quiz-wrong/);
    assert.match(await cls("2.3"), /quiz-missed/);
    assert.doesNotMatch(String(await t.page.getByTestId("message").getAttribute("class")), /error/);
    // Turning the quiz off and on again starts from step 0, marks gone.
    await t.page.getByTestId("quiz").uncheck();
    assert.equal(await t.page.locator("#stepno").textContent(), "0");
    assert.equal(await t.page.locator(".quiz-right, .quiz-wrong").count(), 0);
    assert.equal(await t.page.getByTestId("message").textContent(), "");
  } finally {
    await t.done();
  }
});

test("a click while a new tree loads acts on the new tree; an invalid tree clears the old one", async () => {
  const t = await open("/tree");
  try {
    await choose(t.page, TREE, "alphabeta");
    // Typing then clicking at once: the click blurs the box (a change, a
    // new trace loading) and "run" must wait for it.
    await t.page.getByTestId("tree-input").fill("((4 6) (3 9) (5 1))");
    await t.page.getByTestId("run").click();
    await t.page.waitForFunction(() => document.getElementById("root-value").textContent !== "?");
    assert.equal(await t.page.getByTestId("root-value").textContent(), "4");
    assert.equal(await t.page.locator("#stepno").textContent(), await t.page.locator("#steps").textContent());
    await t.page.getByTestId("tree-input").fill("((3 5) (2 9)))");
    await t.page.getByTestId("tree-input").dispatchEvent("change");
    await t.page.waitForFunction(() => document.getElementById("message").textContent !== "");
    assert.equal(await t.page.locator("[data-node]").count(), 0);
    assert.equal(await t.page.locator("#steps").textContent(), "0");
    assert.equal(await t.page.locator("#stepno").textContent(), "0");
    assert.equal(await t.page.getByTestId("message").getAttribute("class"), "error");
  } finally {
    await t.done();
  }
});

test("an 81-leaf tree is drawn at full size (it scrolls) and its text stays at least 12 px", async () => {
  const leaf = (i) => String((i * 7) % 19);
  let k = 0;
  const level = (d) => (d === 0 ? leaf(k++) : "(" + [0, 1, 2].map(() => level(d - 1)).join(" ") + ")");
  const t = await open(`/tree?tree=${encodeURIComponent(level(4))}&algo=alphabeta`);
  try {
    await t.page.waitForFunction(() => Number(document.getElementById("steps").textContent) > 0);
    const { drawn, natural, smallest } = await t.page.evaluate(() => {
      const svg = document.getElementById("svg");
      const sizes = [...svg.querySelectorAll("text")].slice(0, 200).map((e) => parseFloat(getComputedStyle(e).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
      return { drawn: svg.getBoundingClientRect().width, natural: Number(svg.getAttribute("width")), smallest: Math.min(...sizes) };
    });
    assert.equal(drawn, natural);
    assert.ok(smallest >= 12, `smallest text ${smallest} px`);
    assert.equal(await t.page.locator('[data-node].leaf').count(), 81);
  } finally {
    await t.done();
  }
});
