//! PUCT: Monte Carlo tree search guided by an evaluator, as AlphaGo Zero
//! and AlphaZero search (Silver et al. 2017, 2018).
//!
//! MCTS with UCT learns each move's worth from random playouts alone.
//! PUCT asks an evaluator (a trained network, or any function) two things
//! of each new position: a *prior* over its moves (which look promising)
//! and a *value* (who is winning), and plays no playout. Selection follows
//! the child with the highest
//!
//! ```text
//! Q(child) + c · P(child) · √N(parent) / (1 + N(child))
//! ```
//!
//! where Q is the child's mean value for the player choosing, P its prior
//! and N the visit counts (the parent's N the sum of its children's, at
//! least 1): a move the prior likes is tried early, and the
//! prior's pull fades as visits show what the move is worth. A child not
//! yet visited counts Q = 0 (even). The value found at a leaf is backed up
//! the path, each node keeping its sum from MAX's view. At the end of the
//! game the true result (+1, 0, -1 by the utility's sign) replaces the
//! evaluator's estimate; a chance node draws its outcome (seeded).
//!
//! For self-play, [`PuctOptions::noise`] mixes Dirichlet noise into the
//! root's prior (so every move is tried), and [`choose`] picks the move to
//! play from the root's visits with a temperature (1: in proportion to
//! visits, 0: the most visited).
//!
//! The evaluator is a trait ([`Evaluator`]), so that this crate depends on
//! no machine-learning library: a network lives in the crate that trains
//! it. It is asked for a batch of positions at a time; with a batch above
//! 1, the search collects that many leaves by *virtual loss* (each path
//! chosen counts, until evaluated, as a visit that lost, steering the next
//! selection elsewhere), the way a network on a GPU is kept busy.

use rand::Rng;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Chance, Game, Playouts};
use crate::score::Player;
use crate::search::{MAX_PLY, draw};

/// A position to evaluate and its legal moves (in the game's order).
pub struct Leaf<'a, G: Game> {
    /// The position (neither over nor a chance node).
    pub state: &'a G::State,
    /// Its legal moves; the prior is given in this order.
    pub moves: &'a [G::Move],
}

/// What an evaluator says of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// A probability for each legal move, in the order given (summing to
    /// 1; the search normalises what it is given).
    pub priors: Vec<f32>,
    /// The value for the player to move, from -1 (lost) to 1 (won).
    pub value: f32,
}

/// The priors and values PUCT searches by: a network, a heuristic, or (in
/// tests) an oracle.
pub trait Evaluator<G: Game> {
    /// One estimate for each of `leaves`, in order.
    fn evaluate(&mut self, game: &G, leaves: &[Leaf<'_, G>]) -> Vec<Estimate>;
}

/// The evaluator of plain MCTS in PUCT's clothes: every move equally
/// likely, the value of one random playout. With it PUCT needs no
/// network, which makes it the baseline a learned evaluator is measured
/// against and a check that the search itself is sound.
pub struct Rollout {
    rng: Xoshiro256PlusPlus,
}

impl Rollout {
    /// A rollout evaluator with its own seeded playouts.
    pub fn new(seed: u64) -> Self {
        Rollout {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x005e_ed0f_da7a),
        }
    }
}

impl<G: Game + Chance + Playouts> Evaluator<G> for Rollout {
    fn evaluate(&mut self, game: &G, leaves: &[Leaf<'_, G>]) -> Vec<Estimate> {
        let mut moves = Vec::new();
        leaves
            .iter()
            .map(|leaf| {
                let mover = game.to_move(leaf.state);
                let mut state = leaf.state.clone();
                let mut plies = 0;
                while !game.is_terminal(&state) && plies < MAX_PLY {
                    plies += 1;
                    moves.clear();
                    if game.is_chance(&state) {
                        let mut outcomes = Vec::new();
                        game.chance_outcomes(&state, &mut outcomes);
                        let probs: Vec<f64> = outcomes.iter().map(|&(_, p)| p).collect();
                        let i = draw(&mut self.rng, &probs);
                        state = game.play(&state, outcomes[i].0);
                        continue;
                    }
                    game.legal_moves(&state, &mut moves);
                    let i = game.playout_choice(&state, &moves, self.rng.random());
                    state = game.play(&state, moves[i.min(moves.len() - 1)]);
                }
                let max_view = if game.is_terminal(&state) {
                    result(game, &state)
                } else {
                    0.0
                };
                let n = leaf.moves.len().max(1) as f32;
                Estimate {
                    priors: vec![1.0 / n; leaf.moves.len()],
                    value: mover.view(f64::from(max_view)) as f32,
                }
            })
            .collect()
    }
}

/// The end of the game as a value from MAX's view: the utility's sign
/// (1, 0 or -1), what PUCT backs up and what self-play learns.
pub fn result<G: Game>(game: &G, state: &G::State) -> f32 {
    game.utility(state).0.signum() as f32
}

/// Dirichlet noise at the root, as AlphaZero mixes it in for self-play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    /// The Dirichlet concentration (AlphaZero: 0.3 for chess, 0.03 for Go;
    /// about 10 / the typical number of moves).
    pub alpha: f64,
    /// The share of the prior it replaces (AlphaZero: 0.25).
    pub fraction: f64,
}

/// What a PUCT search is asked to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuctOptions {
    /// Simulations: each ends at one new position evaluated (or at the
    /// end of the game). 0 answers with the evaluator alone: the prior's
    /// favourite and the root's value.
    pub simulations: u64,
    /// The exploration constant c (AlphaZero's c_puct; 1.5 by default).
    pub c: f64,
    /// Positions evaluated at once (virtual loss collects them).
    pub batch: usize,
    /// Root noise for self-play; `None` for play and analysis.
    pub noise: Option<Noise>,
    /// The seed of the noise and of chance's outcomes.
    pub seed: u64,
}

impl Default for PuctOptions {
    fn default() -> Self {
        PuctOptions {
            simulations: 800,
            c: 1.5,
            batch: 1,
            noise: None,
            seed: 1,
        }
    }
}

const NONE: u32 = u32::MAX;

/// A node: the move into it, its statistics, and where its children are.
#[derive(Clone, Debug)]
struct Node<M> {
    mv: Option<M>,
    parent: u32,
    /// The children are `first..first + count` (NONE: not expanded).
    first: u32,
    count: u32,
    /// The prior of the move into it (at a chance node's child, the
    /// outcome's probability).
    prior: f32,
    visits: u32,
    /// Visits not yet backed up (virtual loss).
    pending: u32,
    /// The sum of the values backed up through it, MAX's view.
    sum: f64,
    /// Who moves here (meaningless at the end of the game).
    mover: Player,
    chance: bool,
    /// The result, MAX's view, when the game is over here.
    end: Option<f32>,
}

/// A root move after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctMove<M> {
    /// The move.
    pub mv: M,
    /// Its prior (after noise, when there was noise).
    pub prior: f32,
    /// Simulations through it.
    pub visits: u32,
    /// Its mean value for the player to move at the root, -1 to 1 (0
    /// before any visit).
    pub q: f64,
}

/// A PUCT search's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctResult<M> {
    /// The most visited move (the prior's favourite with no simulation);
    /// `None` when the game is over.
    pub best_move: Option<M>,
    /// The root's value for the player to move: the mean of its
    /// simulations, or the evaluator's value with none.
    pub value: f64,
    /// Every root move, most visited first (then by prior).
    pub moves: Vec<PuctMove<M>>,
    /// Simulations run.
    pub simulations: u64,
    /// Positions the evaluator was asked about.
    pub evaluations: u64,
}

/// One simulation of PUCT told step by step ([`Puct::simulate_traced`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SimulationTrace<M> {
    /// Selection: each node passed through from the root, the formula's
    /// terms for each child, and the child followed. The last child
    /// followed is the leaf.
    pub selection: Vec<PuctStep<M>>,
    /// Expansion: the leaf's moves, in the game's order, each with the
    /// evaluator's prior (a chance node's: each outcome's probability);
    /// empty when the game is over at the leaf.
    pub priors: Vec<(M, f32)>,
    /// Evaluation: the leaf's value for its player to move, -1 to 1: the
    /// evaluator's, or the game's result when it is over there.
    pub value: f32,
    /// The same value from MAX's view: what backup adds to every node on
    /// the path.
    pub for_max: f32,
    /// The game is over at the leaf: no evaluator was asked.
    pub over: bool,
}

/// One node passed in selection.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctStep<M> {
    /// Who chooses here; `None` at a chance node, whose outcome is drawn
    /// by its probability (then `children` is empty).
    pub mover: Option<Player>,
    /// N: the node's children's visits, the count under the square root
    /// (taken as at least 1).
    pub parent_visits: u32,
    /// Every child in the tree's order with its terms.
    pub children: Vec<PuctChild<M>>,
    /// The move followed: the highest Q + U, the first on a tie.
    pub chosen: M,
}

/// A child as selection weighed it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctChild<M> {
    /// The move into it.
    pub mv: M,
    /// P: its prior.
    pub prior: f32,
    /// n: its visits.
    pub visits: u32,
    /// Q: its mean value for the player choosing, -1 to 1 (0 unvisited).
    pub q: f64,
    /// U = c · P · √N / (1 + n): the prior's pull, fading with visits.
    pub u: f64,
}

/// A node of a PUCT tree as [`Puct::tree_view`] shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuctNodeView<M> {
    /// The move into it; `None` at the root.
    pub mv: Option<M>,
    /// Who made that move; `None` at the root and for a chance outcome.
    pub mover: Option<Player>,
    /// Its prior (1 at the root).
    pub prior: f32,
    /// Its visits.
    pub visits: u32,
    /// Its mean value for `mover`, -1 to 1 (0 unvisited or at the root).
    pub q: f64,
    /// Its own children exist (the evaluator has seen it).
    pub expanded: bool,
    /// Its children, most visited first, then by prior (none below the
    /// depth asked for).
    pub children: Vec<PuctNodeView<M>>,
}

/// A PUCT tree: grown by [`Puct::run`], kept between moves by
/// [`Puct::reroot`].
pub struct Puct<G: Game> {
    nodes: Vec<Node<G::Move>>,
    root: G::State,
    options: PuctOptions,
    rng: Xoshiro256PlusPlus,
    evaluations: u64,
    /// The root's value by the evaluator (its first evaluation).
    root_value: f64,
}

impl<G: Game + Chance> Puct<G> {
    /// A tree of `state` alone.
    pub fn new(game: &G, state: &G::State, options: PuctOptions) -> Self {
        let mut t = Puct {
            nodes: Vec::new(),
            root: state.clone(),
            options,
            rng: Xoshiro256PlusPlus::seed_from_u64(options.seed),
            evaluations: 0,
            root_value: 0.0,
        };
        t.nodes.push(t.node(game, state, None, NONE, 1.0));
        t
    }

    fn node(
        &self,
        game: &G,
        state: &G::State,
        mv: Option<G::Move>,
        parent: u32,
        prior: f32,
    ) -> Node<G::Move> {
        let over = game.is_terminal(state);
        Node {
            mv,
            parent,
            first: NONE,
            count: 0,
            prior,
            visits: 0,
            pending: 0,
            sum: 0.0,
            mover: game.to_move(state),
            chance: !over && game.is_chance(state),
            end: over.then(|| result(game, state)),
        }
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// The simulations the next [`Puct::run`] adds: a caller that runs a
    /// search in rounds, to watch it or stop it between them.
    pub fn set_simulations(&mut self, simulations: u64) {
        self.options.simulations = simulations;
    }

    /// Runs the options' simulations (more, on a tree kept from before)
    /// and answers.
    pub fn run<E: Evaluator<G>>(&mut self, game: &G, evaluator: &mut E) -> PuctResult<G::Move> {
        if self.nodes[0].first == NONE && self.nodes[0].end.is_none() {
            self.expand_root(game, evaluator);
        }
        let mut done = 0;
        while done < self.options.simulations {
            let want = (self.options.batch.max(1) as u64).min(self.options.simulations - done);
            done += self.round(game, evaluator, want as usize);
        }
        self.result(done)
    }

    /// Runs one simulation, told step by step, for a reader watching the
    /// search (the MCTS lab, `ply trace --algo puct`): selection, the leaf
    /// expanded with the evaluator's priors, its value, the backup. The
    /// root is expanded first if it is not yet (which is no simulation).
    /// The same simulation as [`Puct::run`] with a batch of 1 makes; a
    /// tree at the end of the game gains a visit and tells only that.
    pub fn simulate_traced<E: Evaluator<G>>(
        &mut self,
        game: &G,
        evaluator: &mut E,
    ) -> SimulationTrace<G::Move> {
        if self.nodes[0].first == NONE && self.nodes[0].end.is_none() {
            self.expand_root(game, evaluator);
        }
        let mut selection = Vec::new();
        let (index, state) = self.walk(game, Some(&mut selection));
        let leaf = &self.nodes[index as usize];
        let mover = leaf.mover;
        let (for_max, value, over) = match leaf.end {
            Some(v) => {
                self.backup(index, v);
                (v, mover.view(f64::from(v)) as f32, true)
            }
            None => {
                let v = self.expand(game, evaluator, &[(index, state)])[0];
                let for_max = mover.view(f64::from(v)) as f32;
                self.unpend(index);
                self.backup(index, for_max);
                (for_max, v, false)
            }
        };
        let n = &self.nodes[index as usize];
        let priors = if over {
            Vec::new()
        } else {
            (n.first..n.first + n.count)
                .map(|k| {
                    let c = &self.nodes[k as usize];
                    (c.mv.expect("a child has its move"), c.prior)
                })
                .collect()
        };
        SimulationTrace {
            selection,
            priors,
            value,
            for_max,
            over,
        }
    }

    /// The tree's top `depth` levels below the root, each node's children
    /// most visited first (then by prior): what a reader draws.
    pub fn tree_view(&self, depth: usize) -> PuctNodeView<G::Move> {
        self.view(0, None, depth)
    }

    fn view(&self, index: u32, by: Option<Player>, depth: usize) -> PuctNodeView<G::Move> {
        let n = &self.nodes[index as usize];
        let expanded = n.first != NONE;
        let mut children: Vec<PuctNodeView<G::Move>> = if depth == 0 || !expanded {
            Vec::new()
        } else {
            let mover = (!n.chance).then_some(n.mover);
            (n.first..n.first + n.count)
                .map(|k| self.view(k, mover, depth - 1))
                .collect()
        };
        children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        PuctNodeView {
            mv: n.mv,
            mover: by,
            prior: n.prior,
            visits: n.visits,
            q: match by {
                Some(p) if n.visits > 0 => p.view(n.sum) / f64::from(n.visits),
                _ => 0.0,
            },
            expanded,
            children,
        }
    }

    /// Expands the root (evaluated on its own) and mixes in the noise.
    fn expand_root<E: Evaluator<G>>(&mut self, game: &G, evaluator: &mut E) {
        let state = self.root.clone();
        let value = self.expand(game, evaluator, &[(0, state)])[0];
        self.root_value = f64::from(value);
        if let (Some(noise), false) = (self.options.noise, self.nodes[0].chance) {
            let (first, count) = (self.nodes[0].first as usize, self.nodes[0].count as usize);
            let eta = dirichlet(&mut self.rng, noise.alpha, count);
            for (k, e) in (first..first + count).zip(eta) {
                let p = &mut self.nodes[k].prior;
                *p = ((1.0 - noise.fraction) * f64::from(*p) + noise.fraction * e) as f32;
            }
        }
    }

    /// One round: up to `want` simulations, their leaves evaluated in one
    /// batch. Returns the simulations completed.
    fn round<E: Evaluator<G>>(&mut self, game: &G, evaluator: &mut E, want: usize) -> u64 {
        let mut leaves: Vec<(u32, G::State)> = Vec::new();
        let mut ends: Vec<u32> = Vec::new();
        for _ in 0..want {
            let (index, state) = self.select(game);
            if let Some(v) = self.nodes[index as usize].end {
                self.backup(index, v);
                ends.push(index);
            } else if leaves.iter().any(|&(i, _)| i == index) {
                // Virtual loss could not steer this one elsewhere: the
                // batch is as wide as the tree allows.
                self.unpend(index);
                break;
            } else {
                leaves.push((index, state));
            }
        }
        if leaves.is_empty() {
            return ends.len().max(1) as u64;
        }
        let values = self.expand(game, evaluator, &leaves);
        for (&(index, _), v) in leaves.iter().zip(values) {
            let mover = self.nodes[index as usize].mover;
            self.unpend(index);
            self.backup(index, mover.view(f64::from(v)) as f32);
        }
        (leaves.len() + ends.len()) as u64
    }

    /// Walks from the root to a node not yet expanded (or the end of the
    /// game), counting a pending visit on the way; returns it and its state.
    fn select(&mut self, game: &G) -> (u32, G::State) {
        self.walk(game, None)
    }

    /// [`Puct::select`], telling `steps` (when given) each node passed and
    /// how its child was chosen.
    fn walk(
        &mut self,
        game: &G,
        mut steps: Option<&mut Vec<PuctStep<G::Move>>>,
    ) -> (u32, G::State) {
        let mut index = 0u32;
        let mut state = self.root.clone();
        loop {
            self.nodes[index as usize].pending += 1;
            let n = &self.nodes[index as usize];
            if n.end.is_some() || n.first == NONE {
                return (index, state);
            }
            let chance = n.chance;
            let child = if chance {
                let probs: Vec<f64> = (n.first..n.first + n.count)
                    .map(|k| f64::from(self.nodes[k as usize].prior))
                    .collect();
                n.first + draw(&mut self.rng, &probs) as u32
            } else {
                self.best_child(index)
            };
            let mv = self.nodes[child as usize].mv.expect("a child has its move");
            if let Some(steps) = steps.as_deref_mut() {
                steps.push(self.step(index, chance, mv));
            }
            state = game.play(&state, mv);
            index = child;
        }
    }

    /// The step of selection at `index` that chose `chosen`.
    fn step(&self, index: u32, chance: bool, chosen: G::Move) -> PuctStep<G::Move> {
        let mut children = Vec::new();
        if !chance {
            self.scores(index, |k, q, u| {
                let c = &self.nodes[k as usize];
                children.push(PuctChild {
                    mv: c.mv.expect("a child has its move"),
                    prior: c.prior,
                    visits: c.visits,
                    q,
                    u,
                });
            });
        }
        PuctStep {
            mover: (!chance).then_some(self.nodes[index as usize].mover),
            parent_visits: self.parent_visits(index),
            children,
            chosen,
        }
    }

    /// The child of `index` with the highest PUCT score for its mover (the
    /// first in the tree's order on a tie).
    fn best_child(&self, index: u32) -> u32 {
        let mut best = (self.nodes[index as usize].first, f64::NEG_INFINITY);
        self.scores(index, |k, q, u| {
            if q + u > best.1 {
                best = (k, q + u);
            }
        });
        best.0
    }

    /// Tells `each` every child of `index` with its Q (mean value for the
    /// mover at `index`) and U (the prior's pull), as selection weighs
    /// them: the one scoring that [`Puct::best_child`] follows and
    /// [`Puct::simulate_traced`] reports.
    fn scores(&self, index: u32, mut each: impl FnMut(u32, f64, f64)) {
        let n = &self.nodes[index as usize];
        // N(parent): the children's visits, pending ones included; at
        // least 1, so that the first choice already follows the prior.
        let children = n.first..n.first + n.count;
        let sqrt_n = f64::from(self.parent_visits(index).max(1)).sqrt();
        for k in children {
            let c = &self.nodes[k as usize];
            let seen = f64::from(c.visits + c.pending);
            // Pending visits count as losses for the mover (virtual loss).
            let q = if seen > 0.0 {
                (n.mover.view(c.sum) - f64::from(c.pending)) / seen
            } else {
                0.0
            };
            let u = self.options.c * f64::from(c.prior) * sqrt_n / (1.0 + seen);
            each(k, q, u);
        }
    }

    /// N in the formula: the visits of `index`'s children, pending ones
    /// included.
    fn parent_visits(&self, index: u32) -> u32 {
        let n = &self.nodes[index as usize];
        (n.first..n.first + n.count)
            .map(|k| self.nodes[k as usize].visits + self.nodes[k as usize].pending)
            .sum()
    }

    /// Expands each of `leaves` (a node and its state): its children made
    /// with the evaluator's priors (or a chance node's probabilities).
    /// Returns each leaf's value for its mover (0 for a chance node, whose
    /// value its outcomes will tell).
    fn expand<E: Evaluator<G>>(
        &mut self,
        game: &G,
        evaluator: &mut E,
        leaves: &[(u32, G::State)],
    ) -> Vec<f32> {
        let mut moves: Vec<Vec<G::Move>> = Vec::with_capacity(leaves.len());
        let mut asked = Vec::new();
        for (i, (index, state)) in leaves.iter().enumerate() {
            let mut m = Vec::new();
            if self.nodes[*index as usize].chance {
                let mut outcomes = Vec::new();
                game.chance_outcomes(state, &mut outcomes);
                let priors: Vec<f32> = outcomes.iter().map(|&(_, p)| p as f32).collect();
                m.extend(outcomes.iter().map(|&(mv, _)| mv));
                self.add_children(game, *index, state, &m, &priors);
            } else {
                game.legal_moves(state, &mut m);
                asked.push(i);
            }
            moves.push(m);
        }
        let batch: Vec<Leaf<'_, G>> = asked
            .iter()
            .map(|&i| Leaf {
                state: &leaves[i].1,
                moves: &moves[i],
            })
            .collect();
        let estimates = if batch.is_empty() {
            Vec::new()
        } else {
            evaluator.evaluate(game, &batch)
        };
        self.evaluations += batch.len() as u64;
        let mut values = vec![0.0; leaves.len()];
        for (&i, e) in asked.iter().zip(estimates) {
            let (index, state) = &leaves[i];
            let priors = normalised(&e.priors, moves[i].len());
            self.add_children(game, *index, state, &moves[i], &priors);
            values[i] = e.value.clamp(-1.0, 1.0);
        }
        values
    }

    fn add_children(
        &mut self,
        game: &G,
        index: u32,
        state: &G::State,
        moves: &[G::Move],
        priors: &[f32],
    ) {
        let first = self.nodes.len() as u32;
        for (&mv, &p) in moves.iter().zip(priors) {
            let child = self.node(game, &game.play(state, mv), Some(mv), index, p);
            self.nodes.push(child);
        }
        let n = &mut self.nodes[index as usize];
        n.first = first;
        n.count = moves.len() as u32;
        if moves.is_empty() && n.end.is_none() {
            // No move, yet the game is not over (a broken game, or one
            // written in Python that raised): the line ends here, even,
            // rather than leave a node that selection cannot pass.
            n.end = Some(0.0);
        }
    }

    /// Takes back the pending visits of the path to `index`.
    fn unpend(&mut self, mut index: u32) {
        while index != NONE {
            let n = &mut self.nodes[index as usize];
            n.pending -= 1;
            index = n.parent;
        }
    }

    /// Adds a visit with `value` (MAX's view) to `index` and its ancestors.
    /// A node at the end of the game also takes back its pending visit.
    fn backup(&mut self, mut index: u32, value: f32) {
        let end = self.nodes[index as usize].end.is_some();
        while index != NONE {
            let n = &mut self.nodes[index as usize];
            n.visits += 1;
            n.sum += f64::from(value);
            if end {
                n.pending -= 1;
            }
            index = n.parent;
        }
    }

    /// The root's moves and value after `simulations`.
    fn result(&self, simulations: u64) -> PuctResult<G::Move> {
        let root = &self.nodes[0];
        let mut moves: Vec<PuctMove<G::Move>> = if root.first == NONE {
            Vec::new()
        } else {
            (root.first..root.first + root.count)
                .map(|k| {
                    let c = &self.nodes[k as usize];
                    PuctMove {
                        mv: c.mv.expect("a child has its move"),
                        prior: c.prior,
                        visits: c.visits,
                        q: if c.visits > 0 {
                            root.mover.view(c.sum) / f64::from(c.visits)
                        } else {
                            0.0
                        },
                    }
                })
                .collect()
        };
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.prior.total_cmp(&a.prior)));
        let value = match root.end {
            Some(v) => root.mover.view(f64::from(v)),
            None if root.visits > 0 => root.mover.view(root.sum) / f64::from(root.visits),
            None => self.root_value,
        };
        PuctResult {
            best_move: if root.chance {
                None
            } else {
                moves.first().map(|m| m.mv)
            },
            value,
            moves,
            simulations,
            evaluations: self.evaluations,
        }
    }

    /// Keeps the subtree of `state`, a child or grandchild of the root
    /// (the move played and the reply), for the next search; false (and a
    /// fresh tree) when it is not in the tree.
    pub fn reroot(&mut self, game: &G, state: &G::State) -> bool {
        let found = self.find(game, state, 2);
        match found {
            Some(index) => {
                // Children must stay contiguous: lay them out again,
                // breadth by breadth, from the kept root.
                let mut nodes: Vec<Node<G::Move>> = Vec::new();
                let mut queue = std::collections::VecDeque::from([(index, NONE)]);
                while let Some((old, parent)) = queue.pop_front() {
                    let mut n = self.nodes[old as usize].clone();
                    n.parent = parent;
                    n.pending = 0;
                    let me = nodes.len() as u32;
                    if n.first != NONE {
                        for k in n.first..n.first + n.count {
                            queue.push_back((k, me));
                        }
                    }
                    nodes.push(n);
                }
                // Children were queued contiguously: fix each node's first.
                let mut next = 1u32;
                for n in &mut nodes {
                    if n.first != NONE {
                        n.first = next;
                        next += n.count;
                    }
                }
                nodes[0].mv = None;
                self.nodes = nodes;
                self.root = state.clone();
                true
            }
            None => {
                *self = Puct::new(game, state, self.options);
                false
            }
        }
    }

    /// The node of `state` within `depth` plies of the root.
    fn find(&self, game: &G, state: &G::State, depth: u32) -> Option<u32> {
        let mut level = vec![(0u32, self.root.clone())];
        for _ in 0..=depth {
            if let Some(&(i, _)) = level.iter().find(|(_, s)| s == state) {
                return Some(i);
            }
            let mut next = Vec::new();
            for (i, s) in level {
                let n = &self.nodes[i as usize];
                if n.first == NONE {
                    continue;
                }
                for k in n.first..n.first + n.count {
                    let mv = self.nodes[k as usize].mv.expect("a child has its move");
                    next.push((k, game.play(&s, mv)));
                }
            }
            level = next;
        }
        None
    }
}

/// `priors` made a distribution over `n` moves: negative or missing
/// entries count 0; all 0 (or a wrong length) gives the uniform one.
fn normalised(priors: &[f32], n: usize) -> Vec<f32> {
    let clean: Vec<f32> = (0..n)
        .map(|i| {
            priors
                .get(i)
                .copied()
                .filter(|p| p.is_finite() && *p > 0.0)
                .unwrap_or(0.0)
        })
        .collect();
    let total: f32 = clean.iter().sum();
    if priors.len() != n || total <= 0.0 {
        return vec![1.0 / n.max(1) as f32; n];
    }
    clean.iter().map(|p| p / total).collect()
}

/// A draw from the symmetric Dirichlet distribution of `n` components:
/// independent Gamma(alpha) draws, normalised.
pub fn dirichlet(rng: &mut Xoshiro256PlusPlus, alpha: f64, n: usize) -> Vec<f64> {
    let g: Vec<f64> = (0..n).map(|_| gamma(rng, alpha)).collect();
    let total: f64 = g.iter().sum();
    if total > 0.0 {
        g.iter().map(|x| x / total).collect()
    } else {
        vec![1.0 / n.max(1) as f64; n]
    }
}

/// A Gamma(alpha, 1) draw (Marsaglia and Tsang 2000; for alpha < 1,
/// Gamma(alpha + 1) · U^(1/alpha)).
fn gamma(rng: &mut Xoshiro256PlusPlus, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        // A standard normal draw by Box and Muller.
        let (u1, u2): (f64, f64) = (rng.random::<f64>().max(f64::MIN_POSITIVE), rng.random());
        let x = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// The move to play from a search's root moves: with `temperature` 0 the
/// most visited; else each with probability ∝ visits^(1/temperature),
/// drawn with `rng` (AlphaZero plays its first moves of self-play at 1).
pub fn choose<M: Copy>(
    moves: &[PuctMove<M>],
    temperature: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<M> {
    if temperature <= 0.0 || moves.len() <= 1 {
        return moves.iter().max_by_key(|m| m.visits).map(|m| m.mv);
    }
    let weights: Vec<f64> = moves
        .iter()
        .map(|m| f64::from(m.visits).powf(1.0 / temperature))
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return moves.first().map(|m| m.mv);
    }
    let probs: Vec<f64> = weights.iter().map(|w| w / total).collect();
    Some(moves[draw(rng, &probs)].mv)
}
