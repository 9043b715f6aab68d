//! Counterfactual regret minimisation: equilibrium strategies of games
//! with hidden information (poker), where a player chooses by what they
//! see (an information set), not by the whole position.
//!
//! Minimax answers "what is the best move here?"; with hidden cards there
//! is no "here", only a set of positions the mover cannot tell apart, and
//! the answer is a mixed strategy: probabilities over the moves of each
//! information set. CFR finds one by self-play. Each iteration walks the
//! game tree with the current strategies and, at every information set,
//! adds to each move's *regret* how much better that move would have done
//! than the strategy did, weighted by the chance that the others (nature
//! and the opponent) bring play there (the counterfactual reach). The next
//! strategy plays each move in proportion to its positive regret (regret
//! matching). The current strategies need not converge; their average,
//! weighted by the player's own reach, converges to a Nash equilibrium,
//! and its distance from one is measured exactly by
//! [`exploitability`]: what two best responses to it would gain.
//!
//! The variants ([`Variant`]), as their papers define them:
//! - vanilla CFR (Zinkevich et al. 2007), with alternating updates (each
//!   iteration updates MAX's regrets, then MIN's against MAX's new
//!   strategy, as OpenSpiel's `CFRSolver` does);
//! - CFR+ (Tammelin 2014): regrets floored at 0 after every update
//!   (regret matching+), and the average weighted by the iteration number;
//! - linear CFR (Brown and Sandholm 2019): regrets and average weighted by
//!   the iteration number;
//! - discounted CFR (the same paper), α = 1.5, β = 0, γ = 2: after each
//!   iteration t, positive regrets times t^α / (t^α + 1), negative ones
//!   times t^β / (t^β + 1), the average times (t / (t + 1))^γ;
//! - external-sampling Monte Carlo CFR (Lanctot et al. 2009): for the
//!   updating player every move, for nature and the opponent one sampled
//!   outcome (seeded), the opponent's average updated where it was
//!   sampled; an iteration costs a path's worth of nodes, not the tree.
//!
//! The whole tree is written out once ([`GameTree`]: a few arrays of
//! nodes, each information set's moves at one offset), so an iteration is
//! a walk over flat arrays that never calls the game. That limits CFR to
//! games whose tree fits in memory ([`MAX_CFR_NODES`]): Kuhn has 58 nodes,
//! Leduc 9,457.
//!
//! The theory assumes perfect recall: a player remembers what they saw and
//! did. The tree is checked for it as it is built (states of one set must
//! follow the same earlier sets and moves of their player), which is also
//! what makes the best response below well defined.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Chance, Game};
use crate::score::Player;
use crate::search::{MAX_PLY, SearchError, draw};

/// The most nodes [`GameTree::build`] writes out: about 40 bytes each
/// with the strategy tables, so 400 MB at the cap.
pub const MAX_CFR_NODES: usize = 10_000_000;

/// How the regrets and the average strategy are updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Vanilla CFR, alternating updates, uniform averaging.
    Vanilla,
    /// CFR+: regret matching+ and linear averaging.
    Plus,
    /// Linear CFR: regrets and average weighted by the iteration.
    Linear,
    /// Discounted CFR with α = 1.5, β = 0, γ = 2.
    Discounted,
    /// External-sampling Monte Carlo CFR.
    ExternalSampling,
}

impl Variant {
    /// The name the front ends use (`--algo`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Vanilla => "cfr",
            Variant::Plus => "cfr+",
            Variant::Linear => "lcfr",
            Variant::Discounted => "dcfr",
            Variant::ExternalSampling => "mccfr",
        }
    }
}

/// What a CFR run is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfrOptions {
    /// The update rule.
    pub variant: Variant,
    /// Iterations to run (each updates both players once): what the
    /// caller passes to [`Cfr::run`].
    pub iterations: u64,
    /// The seed of external sampling's choices (the others use no chance).
    pub seed: u64,
    /// A tree with more nodes is refused.
    pub max_nodes: usize,
}

impl Default for CfrOptions {
    fn default() -> Self {
        CfrOptions {
            variant: Variant::Plus,
            iterations: 1_000,
            seed: 1,
            max_nodes: MAX_CFR_NODES,
        }
    }
}

/// What a node of the written-out tree is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// The end: the utility, MAX's view.
    Terminal(f64),
    /// Nature moves; the children's probabilities are in `probs`.
    Chance,
    /// A player moves, in the information set `infoset`.
    Decision { player: Player, infoset: u32 },
}

#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    /// The children are `children[first..first + len]`, in the order of
    /// the game's legal moves (a decision's: its information set's moves).
    first: u32,
    len: u32,
}

/// One information set: the states a player cannot tell apart, and the
/// moves they choose among there.
#[derive(Clone, Debug)]
pub struct InfoSet<G: Game> {
    /// The game's name for it ([`Chance::information_set`]).
    pub name: String,
    /// Who moves.
    pub player: Player,
    /// The moves, in the game's order.
    pub moves: Vec<G::Move>,
    /// One of its states (the first met), to write the moves in.
    pub state: G::State,
    /// The ply of its first state met (its states' plies agree in Kuhn
    /// and Leduc): with the player, the order tables show sets in.
    pub depth: u32,
    /// Where its moves start in every per-move table
    /// ([`Cfr::regrets`], [`Cfr::average_strategy`], a profile).
    pub offset: usize,
    /// Its nodes in the tree.
    nodes: Vec<u32>,
}

/// A game's tree from its initial state, written out once.
#[derive(Clone, Debug)]
pub struct GameTree<G: Game> {
    nodes: Vec<Node>,
    children: Vec<u32>,
    /// A chance node's children's probabilities, at the same index as
    /// `children` (0 elsewhere).
    probs: Vec<f64>,
    infosets: Vec<InfoSet<G>>,
    by_name: HashMap<String, usize>,
    /// Every move of every information set: the length of a profile.
    actions: usize,
}

/// The builder's walk: the tree so far, and each set's earlier choices of
/// its player (for the perfect-recall check).
struct Builder<'g, G: Game + Chance> {
    game: &'g G,
    tree: GameTree<G>,
    /// Each set's history key: the player's earlier (set, move) pairs.
    recall: Vec<u64>,
    max_nodes: usize,
    moves: Vec<G::Move>,
}

impl<G: Game + Chance> Builder<'_, G> {
    /// Writes out `state` and everything below it; returns its index.
    /// `own` holds each player's key of their choices so far.
    fn node(&mut self, state: &G::State, own: [u64; 2], ply: u32) -> Result<u32, SearchError> {
        let index = self.tree.nodes.len();
        if index >= self.max_nodes {
            return Err(SearchError::TreeTooLarge);
        }
        if ply >= MAX_PLY {
            return Err(SearchError::TooDeep);
        }
        let game = self.game;
        if game.is_terminal(state) {
            let u = f64::from(game.utility(state).0);
            self.tree.nodes.push(Node {
                kind: Kind::Terminal(u),
                first: 0,
                len: 0,
            });
            return Ok(index as u32);
        }
        let mut outcomes = Vec::new();
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        let kind = if game.is_chance(state) {
            game.chance_outcomes(state, &mut outcomes);
            moves.extend(outcomes.iter().map(|&(m, _)| m));
            Kind::Chance
        } else {
            game.legal_moves(state, &mut moves);
            let player = game.to_move(state);
            let infoset = self.infoset(state, player, &moves, (own[side(player)], ply))?;
            Kind::Decision { player, infoset }
        };
        let moves_here = moves.clone();
        self.moves = moves;
        self.tree.nodes.push(Node {
            kind,
            first: 0,
            len: moves_here.len() as u32,
        });
        let mut kids = Vec::with_capacity(moves_here.len());
        for (i, &m) in moves_here.iter().enumerate() {
            let mut own = own;
            if let Kind::Decision { player, infoset } = kind {
                own[side(player)] = mix(own[side(player)], (u64::from(infoset) << 16) | i as u64);
            }
            kids.push(self.node(&game.play(state, m), own, ply + 1)?);
        }
        let first = self.tree.children.len() as u32;
        self.tree.nodes[index].first = first;
        self.tree.children.extend(&kids);
        if kind == Kind::Chance {
            self.tree.probs.extend(outcomes.iter().map(|&(_, p)| p));
        } else {
            self.tree.probs.extend(std::iter::repeat_n(0.0, kids.len()));
        }
        let node = index as u32;
        if let Kind::Decision { infoset, .. } = kind {
            self.tree.infosets[infoset as usize].nodes.push(node);
        }
        Ok(node)
    }

    /// The index of `state`'s information set, made on first sight;
    /// refuses a set whose states differ in their mover, their moves or
    /// the mover's earlier choices (`recall`).
    fn infoset(
        &mut self,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        (recall, depth): (u64, u32),
    ) -> Result<u32, SearchError> {
        let name = self.game.information_set(state);
        let tree = &mut self.tree;
        match tree.by_name.entry(name) {
            Entry::Occupied(e) => {
                let i = *e.get();
                let set = &tree.infosets[i];
                if set.player != player || set.moves != moves || self.recall[i] != recall {
                    return Err(SearchError::BrokenInformationSet);
                }
                Ok(i as u32)
            }
            Entry::Vacant(e) => {
                let i = tree.infosets.len();
                tree.infosets.push(InfoSet {
                    name: e.key().clone(),
                    player,
                    moves: moves.to_vec(),
                    state: state.clone(),
                    depth,
                    offset: tree.actions,
                    nodes: Vec::new(),
                });
                tree.actions += moves.len();
                self.recall.push(recall);
                e.insert(i);
                Ok(i as u32)
            }
        }
    }
}

/// 0 for MAX, 1 for MIN: the index of per-player arrays.
fn side(p: Player) -> usize {
    match p {
        Player::Max => 0,
        Player::Min => 1,
    }
}

/// Folds `x` into the hash `h` (a 64-bit mix; collisions would only let a
/// broken game through the recall check, never break a sound one).
fn mix(h: u64, x: u64) -> u64 {
    let mut z = (h ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_add(0x6a09_e667_f3bc_c909);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<G: Game + Chance> GameTree<G> {
    /// Writes out the tree below `root` (at most `max_nodes` nodes).
    /// [`SearchError::TreeTooLarge`] past the cap,
    /// [`SearchError::BrokenInformationSet`] when the game's information
    /// sets break their contract or perfect recall.
    pub fn build(game: &G, root: &G::State, max_nodes: usize) -> Result<Self, SearchError> {
        let mut b = Builder {
            game,
            tree: GameTree {
                nodes: Vec::new(),
                children: Vec::new(),
                probs: Vec::new(),
                infosets: Vec::new(),
                by_name: HashMap::new(),
                actions: 0,
            },
            recall: Vec::new(),
            max_nodes,
            moves: Vec::new(),
        };
        b.node(root, [0, 0], 0)?;
        Ok(b.tree)
    }
}

impl<G: Game> GameTree<G> {
    /// Nodes: every state, chance nodes and the ends included (the root
    /// is node 0).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The ends of the game.
    pub fn terminal_count(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| matches!(n.kind, Kind::Terminal(_)))
            .count()
    }

    /// The information sets, in the order first met (depth first, in the
    /// game's move order).
    pub fn infosets(&self) -> &[InfoSet<G>] {
        &self.infosets
    }

    /// The information sets in the order a table shows them: MAX's, then
    /// MIN's, each by depth, then in the order first met.
    pub fn display_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.infosets.len()).collect();
        order.sort_by_key(|&i| {
            let s = &self.infosets[i];
            (side(s.player), s.depth, i)
        });
        order
    }

    /// The information set named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The length of a profile: every move of every information set.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// The uniform profile: every move of a set equally likely.
    pub fn uniform(&self) -> Vec<f64> {
        let mut p = vec![0.0; self.actions];
        for set in &self.infosets {
            let n = set.moves.len();
            p[set.offset..set.offset + n].fill(1.0 / n as f64);
        }
        p
    }

    fn kids(&self, n: &Node) -> std::ops::Range<usize> {
        n.first as usize..(n.first + n.len) as usize
    }

    /// The expected utility, MAX's view, when both play `profile` (each
    /// set's move probabilities at its offset).
    pub fn expected_value(&self, profile: &[f64]) -> f64 {
        self.value_below(0, profile)
    }

    fn value_below(&self, index: u32, profile: &[f64]) -> f64 {
        let n = self.nodes[index as usize];
        let kids = self.kids(&n);
        match n.kind {
            Kind::Terminal(u) => u,
            Kind::Chance => kids
                .map(|k| self.probs[k] * self.value_below(self.children[k], profile))
                .sum(),
            Kind::Decision { infoset, .. } => {
                let off = self.infosets[infoset as usize].offset;
                kids.enumerate()
                    .filter(|&(a, _)| profile[off + a] > 0.0)
                    .map(|(a, k)| profile[off + a] * self.value_below(self.children[k], profile))
                    .sum()
            }
        }
    }

    /// The probability of reaching each node when both play `profile`.
    fn reach(&self, profile: &[f64], only_others_of: Option<Player>) -> Vec<f64> {
        let mut reach = vec![0.0; self.nodes.len()];
        reach[0] = 1.0;
        // Nodes are numbered in depth-first preorder: a parent comes first.
        for (i, n) in self.nodes.iter().enumerate() {
            for (a, k) in self.kids(n).enumerate() {
                let step = match n.kind {
                    Kind::Chance => self.probs[k],
                    Kind::Decision { player, .. } if Some(player) == only_others_of => 1.0,
                    Kind::Decision { infoset, .. } => {
                        profile[self.infosets[infoset as usize].offset + a]
                    }
                    Kind::Terminal(_) => unreachable!("an end has no children"),
                };
                reach[self.children[k] as usize] = reach[i] * step;
            }
        }
        reach
    }

    /// How often each information set is reached when both play
    /// `profile`, nature included.
    pub fn infoset_reach(&self, profile: &[f64]) -> Vec<f64> {
        let reach = self.reach(profile, None);
        self.infosets
            .iter()
            .map(|s| s.nodes.iter().map(|&n| reach[n as usize]).sum())
            .collect()
    }

    /// The best `player` can do against the others' moves in `profile`:
    /// the value, `player`'s view, and the best response itself as a
    /// profile (1 on the chosen move of each of `player`'s sets).
    ///
    /// Each of `player`'s sets chooses the move with the highest value
    /// summed over its states, each weighted by the chance that nature
    /// and the opponent bring play there; the value below a move uses the
    /// choices of the sets below it, made first (by recursion: with
    /// perfect recall, which the tree was checked for, a set's states lie
    /// below none of its own). O(nodes).
    pub fn best_response(&self, profile: &[f64], player: Player) -> (f64, Vec<f64>) {
        let mut br = BestResponse {
            tree: self,
            profile,
            player,
            reach: self.reach(profile, Some(player)),
            value: vec![f64::NAN; self.nodes.len()],
            choice: vec![None; self.infosets.len()],
        };
        let v = br.value(0);
        let mut response = vec![0.0; self.actions];
        for (i, c) in br.choice.iter().enumerate() {
            if let Some(a) = c {
                response[self.infosets[i].offset + a] = 1.0;
            }
        }
        (v, response)
    }

    /// How far `profile` is from an equilibrium: each player's gain from
    /// a best response.
    pub fn exploitability(&self, profile: &[f64]) -> Exploitability {
        let value = self.expected_value(profile);
        let max_best = self.best_response(profile, Player::Max).0;
        let min_best = self.best_response(profile, Player::Min).0;
        let nash_conv = (max_best - value) + (min_best + value);
        Exploitability {
            value,
            nash_conv,
            exploitability: nash_conv / 2.0,
        }
    }
}

/// The value of `profile` and its distance from an equilibrium.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exploitability {
    /// The expected utility, MAX's view, when both play the profile.
    pub value: f64,
    /// NashConv: the sum over the players of what a best response gains
    /// over the profile. 0 exactly at an equilibrium.
    pub nash_conv: f64,
    /// NashConv / 2, the mean gain: what OpenSpiel's `exploitability`
    /// reports (for a zero-sum game, how much a best response wins on
    /// average per player).
    pub exploitability: f64,
}

struct BestResponse<'t, G: Game> {
    tree: &'t GameTree<G>,
    profile: &'t [f64],
    player: Player,
    /// The reach of each node by nature and the opponent alone.
    reach: Vec<f64>,
    /// Each node's value to `player` under the response (NaN: not yet).
    value: Vec<f64>,
    choice: Vec<Option<usize>>,
}

impl<G: Game> BestResponse<'_, G> {
    fn value(&mut self, index: u32) -> f64 {
        let cached = self.value[index as usize];
        if !cached.is_nan() {
            return cached;
        }
        let t = self.tree;
        let n = t.nodes[index as usize];
        let kids = t.kids(&n);
        let v = match n.kind {
            Kind::Terminal(u) => self.player.view(u),
            Kind::Chance => kids.map(|k| t.probs[k] * self.value(t.children[k])).sum(),
            Kind::Decision { player, infoset } if player == self.player => {
                let a = self.choose(infoset as usize);
                self.value(t.children[n.first as usize + a])
            }
            Kind::Decision { infoset, .. } => {
                let off = t.infosets[infoset as usize].offset;
                kids.enumerate()
                    .filter(|&(a, _)| self.profile[off + a] > 0.0)
                    .map(|(a, k)| self.profile[off + a] * self.value(t.children[k]))
                    .sum()
            }
        };
        self.value[index as usize] = v;
        v
    }

    /// The best move of `player`'s set `i`: by the reach-weighted sum of
    /// its states' values (the first of equal ones).
    fn choose(&mut self, i: usize) -> usize {
        if let Some(a) = self.choice[i] {
            return a;
        }
        let t = self.tree;
        let set = &t.infosets[i];
        let mut best = (0, f64::NEG_INFINITY);
        for a in 0..set.moves.len() {
            let mut total = 0.0;
            for &h in &set.nodes {
                let w = self.reach[h as usize];
                if w > 0.0 {
                    total += w * self.value(t.children[t.nodes[h as usize].first as usize + a]);
                }
            }
            if total > best.1 {
                best = (a, total);
            }
        }
        self.choice[i] = Some(best.0);
        best.0
    }
}

/// A CFR run: the tree, and per move of every information set the
/// accumulated regret, the accumulated (weighted) strategy and the
/// current strategy.
pub struct Cfr<G: Game> {
    tree: GameTree<G>,
    variant: Variant,
    regrets: Vec<f64>,
    sums: Vec<f64>,
    current: Vec<f64>,
    /// Each player's information sets, for the per-player updates.
    sets_of: [Vec<usize>; 2],
    iterations: u64,
    rng: Xoshiro256PlusPlus,
    /// Scratch for the values of a node's moves (a stack, one frame a node).
    scratch: Vec<f64>,
}

impl<G: Game + Chance> Cfr<G> {
    /// A run of `options.variant` on `game` from its initial state, the
    /// tree written out, every strategy uniform.
    pub fn new(game: &G, options: &CfrOptions) -> Result<Self, SearchError> {
        let tree = GameTree::build(game, &game.initial_state(), options.max_nodes)?;
        Ok(Cfr::on(tree, options.variant, options.seed))
    }
}

impl<G: Game> Cfr<G> {
    /// A run on a tree already written out.
    pub fn on(tree: GameTree<G>, variant: Variant, seed: u64) -> Self {
        let mut sets_of = [Vec::new(), Vec::new()];
        for (i, s) in tree.infosets.iter().enumerate() {
            sets_of[side(s.player)].push(i);
        }
        let n = tree.actions;
        Cfr {
            current: tree.uniform(),
            tree,
            variant,
            regrets: vec![0.0; n],
            sums: vec![0.0; n],
            sets_of,
            iterations: 0,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            scratch: Vec::new(),
        }
    }

    /// The tree.
    pub fn tree(&self) -> &GameTree<G> {
        &self.tree
    }

    /// The update rule.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The accumulated regret of every move (at its set's offset).
    pub fn regrets(&self) -> &[f64] {
        &self.regrets
    }

    /// The strategy the next iteration plays: regret matching on the
    /// regrets (for MCCFR, computed here from them).
    pub fn current_strategy(&self) -> Vec<f64> {
        let mut p = self.current.clone();
        if self.variant == Variant::ExternalSampling {
            for set in &self.tree.infosets {
                let r = set.offset..set.offset + set.moves.len();
                regret_matching(&self.regrets[r.clone()], &mut p[r]);
            }
        }
        p
    }

    /// The average strategy: the answer. Each set's accumulated strategy
    /// normalised; uniform where it was never reached.
    pub fn average_strategy(&self) -> Vec<f64> {
        let mut p = vec![0.0; self.tree.actions];
        for set in &self.tree.infosets {
            let r = set.offset..set.offset + set.moves.len();
            let total: f64 = self.sums[r.clone()].iter().sum();
            for (out, &s) in p[r.clone()].iter_mut().zip(&self.sums[r.clone()]) {
                *out = if total > 0.0 {
                    s / total
                } else {
                    1.0 / set.moves.len() as f64
                };
            }
        }
        p
    }

    /// Runs `iterations` more iterations; every `every` of time, and at
    /// the end, shows `watch` the run, which answers whether to go on.
    /// Returns the iterations run.
    pub fn run(
        &mut self,
        iterations: u64,
        every: Duration,
        watch: &mut dyn FnMut(&Self) -> bool,
    ) -> u64 {
        let mut last = Instant::now();
        for done in 0..iterations {
            self.iterate();
            if last.elapsed() >= every {
                last = Instant::now();
                if !watch(self) {
                    return done + 1;
                }
            }
        }
        iterations
    }

    /// One iteration: MAX's regrets and average updated, then MIN's.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        let t = self.iterations as f64;
        for player in [Player::Max, Player::Min] {
            if self.variant == Variant::ExternalSampling {
                self.sample(0, player);
                continue;
            }
            let (regret_weight, average_weight) = match self.variant {
                Variant::Linear => (t, t),
                Variant::Plus => (1.0, t),
                _ => (1.0, 1.0),
            };
            self.walk(0, player, [1.0; 3], (regret_weight, average_weight));
            self.after_walk(player, t);
        }
    }

    /// The variant's step after `player`'s walk: the floor (CFR+), the
    /// discount (DCFR), then the next current strategy of `player`'s sets.
    fn after_walk(&mut self, player: Player, t: f64) {
        let (pos, neg, avg) = if self.variant == Variant::Discounted {
            let ta = t.powf(1.5);
            (ta / (ta + 1.0), 0.5, (t / (t + 1.0)).powi(2))
        } else {
            (1.0, 1.0, 1.0)
        };
        for &i in &self.sets_of[side(player)] {
            let set = &self.tree.infosets[i];
            let r = set.offset..set.offset + set.moves.len();
            for x in &mut self.regrets[r.clone()] {
                if self.variant == Variant::Plus {
                    *x = x.max(0.0);
                } else if self.variant == Variant::Discounted {
                    *x *= if *x > 0.0 { pos } else { neg };
                }
            }
            if avg != 1.0 {
                self.sums[r.clone()].iter_mut().for_each(|s| *s *= avg);
            }
            regret_matching(&self.regrets[r.clone()], &mut self.current[r]);
        }
    }

    /// Vanilla CFR's walk for `player`: returns the value, `player`'s
    /// view, of node `index` under the current strategies. `reach` is the
    /// chance that MAX's moves, MIN's and nature's bring play here; the
    /// regrets are weighted by the product of the others' (the
    /// counterfactual reach), the average by `player`'s own. The products
    /// are formed in that order (MAX, MIN, nature), OpenSpiel's, so that
    /// the two agree to the last bit for as long as possible.
    fn walk(&mut self, index: u32, player: Player, reach: [f64; 3], weights: (f64, f64)) -> f64 {
        let n = self.tree.nodes[index as usize];
        let first = n.first as usize;
        let len = n.len as usize;
        match n.kind {
            Kind::Terminal(u) => player.view(u),
            Kind::Chance => {
                let mut v = 0.0;
                for k in first..first + len {
                    let p = self.tree.probs[k];
                    let child = self.tree.children[k];
                    let r = [reach[0], reach[1], reach[2] * p];
                    v += p * self.walk(child, player, r, weights);
                }
                v
            }
            Kind::Decision {
                player: mover,
                infoset,
            } => {
                let off = self.tree.infosets[infoset as usize].offset;
                let base = self.scratch.len();
                self.scratch.resize(base + len, 0.0);
                let q = side(mover);
                let mut v = 0.0;
                for a in 0..len {
                    let s = self.current[off + a];
                    let mut r = reach;
                    r[q] *= s;
                    if r == [0.0; 3] {
                        continue;
                    }
                    let child = self.tree.children[first + a];
                    let va = self.walk(child, player, r, weights);
                    self.scratch[base + a] = va;
                    v += s * va;
                }
                if mover == player {
                    let others = if q == 0 {
                        reach[1] * reach[2]
                    } else {
                        reach[0] * reach[2]
                    };
                    let (regret_weight, average_weight) = weights;
                    for a in 0..len {
                        let va = self.scratch[base + a];
                        self.regrets[off + a] += (va - v) * others * regret_weight;
                        self.sums[off + a] += reach[q] * self.current[off + a] * average_weight;
                    }
                }
                self.scratch.truncate(base);
                v
            }
        }
    }

    /// External sampling's walk for `player`: every move of `player`,
    /// one sampled outcome of nature and one sampled move of the opponent
    /// (whose average strategy takes the strategy it was sampled from).
    fn sample(&mut self, index: u32, player: Player) -> f64 {
        let n = self.tree.nodes[index as usize];
        let first = n.first as usize;
        let len = n.len as usize;
        match n.kind {
            Kind::Terminal(u) => player.view(u),
            Kind::Chance => {
                let k = first + draw(&mut self.rng, &self.tree.probs[first..first + len]);
                self.sample(self.tree.children[k], player)
            }
            Kind::Decision {
                player: mover,
                infoset,
            } => {
                let off = self.tree.infosets[infoset as usize].offset;
                let base = self.scratch.len();
                self.scratch.resize(base + 2 * len, 0.0);
                let (regrets, rest) = (&self.regrets[off..off + len], &mut self.scratch[base..]);
                regret_matching(regrets, &mut rest[..len]);
                if mover != player {
                    for a in 0..len {
                        self.sums[off + a] += self.scratch[base + a];
                    }
                    let a = draw(&mut self.rng, &self.scratch[base..base + len]);
                    self.scratch.truncate(base);
                    return self.sample(self.tree.children[first + a], player);
                }
                let mut v = 0.0;
                for a in 0..len {
                    let va = self.sample(self.tree.children[first + a], player);
                    self.scratch[base + len + a] = va;
                    v += self.scratch[base + a] * va;
                }
                for a in 0..len {
                    self.regrets[off + a] += self.scratch[base + len + a] - v;
                }
                self.scratch.truncate(base);
                v
            }
        }
    }
}

/// Regret matching: each move in proportion to its positive regret;
/// uniform when none is positive.
fn regret_matching(regrets: &[f64], out: &mut [f64]) {
    let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    if total > 0.0 {
        for (o, r) in out.iter_mut().zip(regrets) {
            *o = r.max(0.0) / total;
        }
    } else {
        out.fill(1.0 / regrets.len() as f64);
    }
}
