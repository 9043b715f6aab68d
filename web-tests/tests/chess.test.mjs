// Chess by clicking: a pawn move, the engine's reply, a promotion choice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { movesAtLeast, open, played, statusMatching } from "./harness.mjs";

test("e2 then e4 plays 1. e4, and the engine answers", async () => {
  const t = await open("/play/chess?time=100");
  try {
    await statusMatching(t.page, /your move \(White\)/);
    await t.page.getByTestId("square-e2").click();
    // The pawn's two moves are marked as targets.
    assert.equal(await t.page.locator(".sq.target").count(), 2);
    await t.page.getByTestId("square-e4").click();
    await movesAtLeast(t.page, 2);
    await statusMatching(t.page, /your move \(White\)/);
    const moves = await played(t.page);
    assert.equal(moves[0], "e2e4");
    assert.equal(moves.length, 2);
    assert.equal(await t.page.getByTestId("square-e4").textContent(), "♟");
    assert.equal(await t.page.getByTestId("square-e2").textContent(), "");
    const thinking = await t.page.getByTestId("thinking").textContent();
    assert.match(thinking, /\d+ moves? ahead: /);
    // The lines the engine expects read in SAN, not the engine's e2e4.
    assert.match(thinking, /expects [KQRBN]?[a-h]?[1-8]?x?[a-h][1-8]/);
    assert.doesNotMatch(thinking, /\b[a-h][1-8][a-h][1-8]\b/);
    await t.page.getByTestId("square-g1").click();
    await t.shot("play-chess");
    assert.deepEqual(t.errors, []);
  } finally {
    await t.done();
  }
});

test("a pawn reaching the last rank asks what to promote to", async () => {
  // A black pawn too, so that king and knight against it are not a dead draw.
  const fen = "8/P6k/7p/8/8/8/8/K7 w - - 0 1";
  const t = await open(`/play/chess?position=${encodeURIComponent(fen)}&time=100`);
  try {
    await statusMatching(t.page, /your move/);
    await t.page.getByTestId("square-a7").click();
    await t.page.getByTestId("square-a8").click();
    await t.page.getByTestId("promotion").waitFor({ state: "visible" });
    await t.page.getByTestId("promote-n").click();
    await movesAtLeast(t.page, 2);
    assert.equal((await played(t.page))[0], "a7a8n");
    await statusMatching(t.page, /your move/);
    const piece = await t.page.getByTestId("square-a8").locator("span").first();
    assert.equal(await piece.textContent(), "♞");
    assert.equal(await piece.getAttribute("class"), "pw");
  } finally {
    await t.done();
  }
});

test("checkmate ends the game and names the winner", async () => {
  // Fool's mate, Black to play Qh4#: the human is Black here.
  const t = await open("/play/chess?position=" + encodeURIComponent("startpos moves f2f3 e7e5 g2g4") + "&max=engine&min=human");
  try {
    await statusMatching(t.page, /your move \(Black\)/);
    await t.page.getByTestId("square-d8").click();
    await t.page.getByTestId("square-h4").click();
    await movesAtLeast(t.page, 1);
    assert.match(await statusMatching(t.page, /wins|draw/), /Black wins/);
  } finally {
    await t.done();
  }
});
