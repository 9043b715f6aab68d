//! Monte Carlo tree search with UCT.
//!
//! No evaluation function: play the position out at random many times and
//! grow a tree where the results are good. One iteration:
//!
//! 1. **selection**: from the root, follow the child with the highest UCT
//!    value `w/n + c·sqrt(ln N / n)` until a node with an untried move (at a
//!    chance node, follow an outcome drawn by its probability);
//! 2. **expansion**: add one child for one untried move;
//! 3. **simulation**: play to the end with random moves (or the game's
//!    [`Playouts::playout_choice`](crate::game::Playouts::playout_choice));
//! 4. **backpropagation**: every node on the path gets n += 1 and w += the
//!    result from the view of the player who made the move into it (win 1,
//!    draw 1/2, loss 0).
//!
//! The move played is the root child with the most visits. A seed makes a
//! run reproducible on every platform (xoshiro256++, not `StdRng`). Threads
//! search by **root parallelism**: each thread grows its own tree from the
//! same root with its own seed, and the root visit counts are summed; no
//! locks, and twice the threads give about twice the iterations per second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Chance, Playouts};
use crate::score::Player;
use crate::search::MAX_PLY;

/// How long and how to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsOptions {
    /// Iterations in all (over all threads); `None` for time only.
    pub iterations: Option<u64>,
    /// Wall-clock budget; `None` for iterations only.
    pub time_limit: Option<Duration>,
    /// The exploration constant `c` of UCT.
    pub c: f64,
    /// The seed of the random numbers (thread i uses `seed + i`).
    pub seed: u64,
    /// Threads, each with its own tree (root parallelism).
    pub threads: usize,
    /// The most nodes a tree may hold ([`MAX_TREE_NODES`] by default): a
    /// full tree stops the search, which answers from what it has, so a
    /// long search cannot grow past its memory.
    pub max_nodes: usize,
    /// RAVE (rapid action value estimation, Gelly and Silver 2007) with
    /// this equivalence parameter `k`, or `None` (the default) for plain
    /// UCT; on only for games that number their moves
    /// ([`Playouts::move_slots`]). See [`Mcts::with_rave`].
    pub rave: Option<f64>,
    /// Keep the ownership map: for each point, who owns it at the end of
    /// the playouts, on average ([`MctsResult::ownership`]); only games
    /// whose playouts count owners ([`Playouts::playout_owned`]: Go) have
    /// one.
    pub ownership: bool,
}

/// The default cap on one MCTS tree: two million nodes, a few hundred MiB
/// (each node keeps its untried moves and its children).
pub const MAX_TREE_NODES: usize = 2_000_000;

impl Default for MctsOptions {
    fn default() -> Self {
        MctsOptions {
            iterations: Some(10_000),
            time_limit: None,
            c: std::f64::consts::SQRT_2,
            seed: 1,
            threads: 1,
            max_nodes: MAX_TREE_NODES,
            rave: None,
            ownership: false,
        }
    }
}

/// A root move's statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsMove<M> {
    /// The move.
    pub mv: M,
    /// How often it was visited.
    pub visits: u64,
    /// Its mean result for the player to move at the root, in [0, 1].
    pub mean: f64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct MctsResult<M> {
    /// The most visited root move; `None` at a terminal or chance root.
    pub best_move: Option<M>,
    /// Every root move, most visited first (ties keep the game's order).
    pub moves: Vec<MctsMove<M>>,
    /// Iterations run (all threads).
    pub iterations: u64,
    /// Nodes in the tree(s) at the end.
    pub tree_nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// A playout went [`MAX_PLY`] plies without the game ending, and the
    /// search stopped there: a game whose random play does not end in
    /// that many moves almost surely cannot end (a move that changes
    /// nothing, a rule missing from `is_terminal`), and the statistics
    /// of such playouts say nothing. Front ends report it as
    /// [`SearchError::TooDeep`](crate::search::SearchError::TooDeep).
    pub endless: bool,
    /// With [`MctsOptions::ownership`], for each move slot's move (a
    /// point), the mean over the search's playouts of who owned it at
    /// the end: 1 MAX, -1 MIN, 0 neither. Empty otherwise.
    pub ownership: Vec<(M, f64)>,
}

impl<M> MctsResult<M> {
    /// Simulations (playouts) per second.
    pub fn simulations_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.iterations as f64 / s
        } else {
            0.0
        }
    }
}

/// One iteration of MCTS phase by phase ([`Mcts::iterate_traced`]): what
/// the MCTS lab shows and `ply trace --algo mcts` prints.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationTrace<M> {
    /// Selection: each node passed through on the way down, from the root.
    pub selection: Vec<SelectStep<M>>,
    /// Expansion: the move of the child added; `None` when selection
    /// ended at a terminal position (or at a chance node's first outcome).
    pub expanded: Option<M>,
    /// The untried moves the expanded one was drawn from, at random.
    pub untried: Vec<M>,
    /// Simulation: the playout's moves, from the new node to the end.
    pub playout: Vec<M>,
    /// The playout's result for MAX: 1 a win, 1/2 a draw, 0 a loss. Each
    /// node on the path adds it from its mover's view (1 - it for MIN).
    pub result_for_max: f64,
}

/// One step of selection: at a node whose moves are all tried, the child
/// with the highest UCT value is followed (at a chance node, an outcome
/// drawn by its probability, and `children` is empty).
#[derive(Clone, Debug, PartialEq)]
pub struct SelectStep<M> {
    /// The node's visits, the `N` of `ln N`.
    pub parent_visits: u64,
    /// The player who chooses here; `None` at a chance node.
    pub mover: Option<Player>,
    /// Every child as selection weighed it, in the tree's order.
    pub children: Vec<ChildStats<M>>,
    /// The move followed.
    pub chosen: M,
}

/// A child as selection sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChildStats<M> {
    /// The move into it.
    pub mv: M,
    /// Its visits `n`.
    pub visits: u64,
    /// Its results summed for the player who chose its move.
    pub wins: f64,
    /// `wins/n + c·sqrt(ln N / n)`; infinite while `n` is 0.
    pub uct: f64,
}

/// A node of the tree as drawn ([`Mcts::tree_view`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsNodeView<M> {
    /// The move into it; `None` at the root.
    pub mv: Option<M>,
    /// Who made that move; `None` at the root and for chance outcomes.
    pub mover: Option<Player>,
    /// Its visits.
    pub visits: u64,
    /// Its results summed for `mover` (1 a win, 1/2 a draw).
    pub wins: f64,
    /// Moves not yet expanded below it.
    pub untried: usize,
    /// Its children, most visited first (none past the view's depth).
    pub children: Vec<MctsNodeView<M>>,
}

/// Who hears an iteration's phases. `ON` false (for [`NoRecord`]) lets
/// the compiler drop every call and the statistics gathered for it.
trait Record<M> {
    const ON: bool;
    fn selected(&mut self, _step: SelectStep<M>) {}
    fn untried(&mut self, _moves: Vec<M>) {}
    fn expanded(&mut self, _mv: M) {}
    fn played(&mut self, _mv: M) {}
    fn result(&mut self, _for_max: f64) {}
}

/// The search's own iterations: nothing recorded.
struct NoRecord;

impl<M> Record<M> for NoRecord {
    const ON: bool = false;
}

impl<M> Record<M> for IterationTrace<M> {
    const ON: bool = true;
    fn selected(&mut self, step: SelectStep<M>) {
        self.selection.push(step);
    }
    fn untried(&mut self, moves: Vec<M>) {
        self.untried = moves;
    }
    fn expanded(&mut self, mv: M) {
        self.expanded = Some(mv);
    }
    fn played(&mut self, mv: M) {
        self.playout.push(mv);
    }
    fn result(&mut self, for_max: f64) {
        self.result_for_max = for_max;
    }
}

const NONE: u32 = u32::MAX;

struct Node<M> {
    /// The move (or chance outcome) into this node.
    mv: Option<M>,
    parent: u32,
    children: Vec<u32>,
    /// Moves not yet expanded (decision nodes only).
    untried: Vec<M>,
    visits: u64,
    /// Results summed from the view of `mover`.
    wins: f64,
    /// The player who made the move into this node (`None` for the root and
    /// for chance outcomes, which nobody chose).
    mover: Option<Player>,
    /// With RAVE, the player to move here (`None` at a terminal or
    /// chance node, and without RAVE).
    to_move: Option<Player>,
    /// RAVE: the iterations in which `mover` played this node's move
    /// anywhere after its parent, and their results for `mover`.
    amaf_visits: f32,
    amaf_wins: f32,
    /// RAVE: the same for each untried move (empty without RAVE).
    untried_amaf: Vec<(f32, f32)>,
}

/// A search tree that lives across moves: after the engine moves and the
/// opponent replies, [`Mcts::reroot`] keeps the subtree already grown.
pub struct Mcts<G: Chance + Playouts> {
    nodes: Vec<Node<G::Move>>,
    root_state: G::State,
    rng: Xoshiro256PlusPlus,
    c: f64,
    moves: Vec<G::Move>,
    /// The moves of a playout the game played itself ([`Playouts::playout`]).
    played: Vec<(Player, G::Move)>,
    outcomes: Vec<(G::Move, f64)>,
    max_nodes: usize,
    /// Playout plies since [`Mcts::run`] last looked at the clock.
    plies: u64,
    /// A playout reached [`MAX_PLY`] (see [`MctsResult::endless`]).
    endless: bool,
    /// RAVE's equivalence parameter, when on.
    rave: Option<f64>,
    /// RAVE: for each move slot, the iteration that last saw it played
    /// and by whom (the earliest such play, as the path is walked up).
    seen: Vec<(u32, Option<Player>)>,
    /// RAVE: the number of the current iteration in `seen`.
    stamp: u32,
    /// The ownership map's sums, one a move slot (empty when off), and
    /// the playouts they count.
    owners: Vec<i64>,
    owned: u64,
}

/// Playout plies after which [`Mcts::run`] looks at the clock even before
/// its 64 iterations are up.
const CLOCK_PLIES: u64 = 1 << 16;

impl<G: Chance + Playouts> Mcts<G> {
    /// The tree, capped at `max` nodes instead of [`MAX_TREE_NODES`].
    pub fn with_max_nodes(mut self, max: usize) -> Self {
        self.max_nodes = max.max(1);
        self
    }

    /// Whether the tree holds its most nodes (and so grows no more).
    pub fn is_full(&self) -> bool {
        self.nodes.len() >= self.max_nodes
    }

    /// A tree with only the root `state`.
    pub fn new(game: &G, state: &G::State, c: f64, seed: u64) -> Self {
        let mut t = Mcts {
            nodes: Vec::new(),
            root_state: state.clone(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            c,
            moves: Vec::new(),
            played: Vec::new(),
            outcomes: Vec::new(),
            max_nodes: MAX_TREE_NODES,
            plies: 0,
            endless: false,
            rave: None,
            seen: Vec::new(),
            stamp: 0,
            owners: Vec::new(),
            owned: 0,
        };
        t.nodes
            .push(Self::make_node(game, state, None, NONE, None, false));
        t
    }

    /// RAVE on (`Some(k)`) or off. Each node also keeps, for each of its
    /// moves, the results of the iterations in which its player played
    /// that move anywhere later (in the tree below or in the playout:
    /// "all moves as first"). Selection weighs a move by
    /// `(1 - β) · mean + β · amaf mean + c · sqrt(ln N / n)`, with
    /// `β = sqrt(k / (3n + k))`: the AMAF mean, noisy but available at
    /// once for every move, guides the first visits, and the move's own
    /// mean takes over as its visits pass about `k`. An untried move
    /// competes by its AMAF mean alone, which starts from the game's
    /// [`Playouts::prior`], so the move expanded next is the most
    /// promising, not a random one. Off for a game without move slots.
    /// Must be set before the first iteration.
    pub fn with_rave(mut self, game: &G, k: Option<f64>) -> Self {
        self.rave = k.filter(|_| game.move_slots() > 0);
        if self.rave.is_some() {
            self.seen = vec![(0, None); game.move_slots()];
            self.nodes[0] = Self::make_node(game, &self.root_state, None, NONE, None, true);
        }
        self
    }

    /// Thread `i`'s tree of a search by `options`: its seed `seed + i`,
    /// the options' cap, RAVE and ownership map.
    fn for_thread(game: &G, state: &G::State, options: &MctsOptions, i: usize) -> Self {
        Mcts::new(game, state, options.c, options.seed.wrapping_add(i as u64))
            .with_max_nodes(options.max_nodes)
            .with_rave(game, options.rave)
            .with_ownership(game, options.ownership)
    }

    /// Keeps the ownership map ([`MctsOptions::ownership`]) when `on` and
    /// the game numbers its moves; the map covers the playouts from here.
    pub fn with_ownership(mut self, game: &G, on: bool) -> Self {
        self.owners = vec![0; if on { game.move_slots() } else { 0 }];
        self.owned = 0;
        self
    }

    /// The ownership map's sums (one a move slot) and the playouts they
    /// count; empty and 0 when the map is off.
    pub fn ownership_sums(&self) -> (&[i64], u64) {
        (&self.owners, self.owned)
    }

    fn make_node(
        game: &G,
        state: &G::State,
        mv: Option<G::Move>,
        parent: u32,
        mover: Option<Player>,
        rave: bool,
    ) -> Node<G::Move> {
        let mut untried = Vec::new();
        let mut to_move = None;
        if !game.is_terminal(state) && !game.is_chance(state) {
            game.legal_moves(state, &mut untried);
            // Only RAVE's update reads it.
            to_move = rave.then(|| game.to_move(state));
        }
        Node {
            mv,
            parent,
            children: Vec::new(),
            untried_amaf: if rave {
                untried.iter().map(|&mv| game.prior(state, mv)).collect()
            } else {
                Vec::new()
            },
            untried,
            visits: 0,
            wins: 0.0,
            mover,
            to_move,
            amaf_visits: 0.0,
            amaf_wins: 0.0,
        }
    }

    /// The position at the root.
    pub fn root_state(&self) -> &G::State {
        &self.root_state
    }

    /// Nodes in the tree.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// Whether a playout reached [`MAX_PLY`] plies without the game
    /// ending (see [`MctsResult::endless`]); the tree grows no more.
    pub fn is_endless(&self) -> bool {
        self.endless
    }

    /// Runs `iterations` iterations (stopping early at `deadline`, once
    /// the tree holds `max_nodes`, or at an endless playout); returns how
    /// many ran.
    pub fn run(&mut self, game: &G, iterations: u64, deadline: Option<Instant>) -> u64 {
        let mut done = 0;
        while done < iterations && self.nodes.len() < self.max_nodes && !self.endless {
            // Look at the clock every 64 iterations (cheap, and often
            // enough), or sooner once the playouts since the last look
            // were long (a game written in Python, a game that may not
            // end: 100,000-ply playouts take seconds each there).
            if done % 64 == 0 || self.plies > CLOCK_PLIES {
                self.plies = 0;
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
            }
            self.iterate(game);
            done += 1;
        }
        done
    }

    fn iterate(&mut self, game: &G) {
        self.iterate_recorded(game, &mut NoRecord);
    }

    /// Runs one more iteration and tells its four phases: what selection
    /// saw at each node (every child's visits, results and UCT value), the
    /// move expanded, the playout's moves and result, the path that was
    /// updated. The tree grows exactly as under [`Mcts::run`], so iteration
    /// N traced after N - 1 run is the Nth of a search with the same seed.
    pub fn iterate_traced(&mut self, game: &G) -> IterationTrace<G::Move> {
        let mut trace = IterationTrace {
            selection: Vec::new(),
            expanded: None,
            untried: Vec::new(),
            playout: Vec::new(),
            result_for_max: 0.0,
        };
        self.iterate_recorded(game, &mut trace);
        trace
    }

    /// The search's result after this tree's `iterations`, as [`mcts`]
    /// reports it (every root move, the unvisited too, most visited first).
    pub fn result(&self, game: &G, iterations: u64, elapsed: Duration) -> MctsResult<G::Move> {
        merge(
            game,
            &self.root_state,
            vec![TreeResult::of(self, iterations)],
            elapsed,
        )
    }

    /// The tree to `depth` plies below the root (each node's children most
    /// visited first), for a picture of the search.
    pub fn tree_view(&self, depth: usize) -> MctsNodeView<G::Move> {
        self.view(0, depth)
    }

    fn view(&self, n: u32, depth: usize) -> MctsNodeView<G::Move> {
        let nd = &self.nodes[n as usize];
        let mut children: Vec<MctsNodeView<G::Move>> = if depth == 0 {
            Vec::new()
        } else {
            nd.children
                .iter()
                .map(|&c| self.view(c, depth - 1))
                .collect()
        };
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        MctsNodeView {
            mv: nd.mv,
            mover: nd.mover,
            visits: nd.visits,
            wins: nd.wins,
            untried: nd.untried.len(),
            children,
        }
    }

    /// The statistics selection weighs at `node`: each child's visits,
    /// results and UCT value (infinite for a child never visited).
    fn child_stats(&self, node: u32) -> Vec<ChildStats<G::Move>> {
        let nd = &self.nodes[node as usize];
        let ln_n = (nd.visits.max(1) as f64).ln();
        nd.children
            .iter()
            .map(|&c| {
                let ch = &self.nodes[c as usize];
                ChildStats {
                    mv: ch.mv.expect("children have moves"),
                    visits: ch.visits,
                    wins: ch.wins,
                    uct: if ch.visits == 0 {
                        f64::INFINITY
                    } else {
                        let n = ch.visits as f64;
                        ch.wins / n + self.c * (ln_n / n).sqrt()
                    },
                }
            })
            .collect()
    }

    /// One iteration, its phases told to `rec`. With [`NoRecord`] no call
    /// is made and nothing is gathered (`R::ON` is a constant false), but
    /// the code around it compiles a little differently: callgrind counts
    /// `Mcts::run` at 56.31 M instructions for 20,000 iterations of
    /// tic-tac-toe (seed 1) against 55.41 M before the lab (+1.6%), the
    /// same with the two functions forced inline; the trees are equal.
    fn iterate_recorded<R: Record<G::Move>>(&mut self, game: &G, rec: &mut R) {
        let mut node = 0u32;
        let mut state = self.root_state.clone();
        // Selection and expansion.
        loop {
            if game.is_terminal(&state) {
                break;
            }
            if game.is_chance(&state) {
                let outcome = self.sample_outcome(game, &state);
                let existing = self.nodes[node as usize]
                    .children
                    .iter()
                    .copied()
                    .find(|&c| self.nodes[c as usize].mv == Some(outcome));
                if R::ON {
                    rec.selected(SelectStep {
                        parent_visits: self.nodes[node as usize].visits,
                        mover: None,
                        children: Vec::new(),
                        chosen: outcome,
                    });
                }
                state = game.play(&state, outcome);
                node = match existing {
                    Some(c) => c,
                    None => {
                        let n = Self::make_node(
                            game,
                            &state,
                            Some(outcome),
                            node,
                            None,
                            self.rave.is_some(),
                        );
                        self.add_child(node, n)
                    }
                };
                continue;
            }
            let player = game.to_move(&state);
            if let Some(k) = self.rave {
                match self.step_rave(game, node, player, k, &mut state, rec) {
                    Some((child, false)) => {
                        node = child;
                        continue;
                    }
                    Some((child, true)) => node = child,
                    None => {}
                }
                break;
            }
            let untried = &mut self.nodes[node as usize].untried;
            if !untried.is_empty() {
                if R::ON {
                    rec.untried(untried.clone());
                }
                let i = self.rng.random_range(0..untried.len());
                let mv = untried.swap_remove(i);
                if R::ON {
                    rec.expanded(mv);
                }
                state = game.play(&state, mv);
                let n = Self::make_node(game, &state, Some(mv), node, Some(player), false);
                node = self.add_child(node, n);
                break;
            }
            let Some(child) = self.select(node) else {
                break;
            };
            self.follow(game, node, child, player, &mut state, rec);
            node = child;
        }
        // Simulation.
        let result_for_max = self.playout(game, state, rec);
        if R::ON {
            rec.result(result_for_max);
        }
        // Backpropagation.
        let mut n = node;
        while n != NONE {
            let nd = &mut self.nodes[n as usize];
            nd.visits += 1;
            match nd.mover {
                Some(Player::Max) => nd.wins += result_for_max,
                Some(Player::Min) => nd.wins += 1.0 - result_for_max,
                None => {}
            }
            n = nd.parent;
        }
        if self.rave.is_some() {
            self.update_amaf(game, node, result_for_max);
        }
    }

    /// Selection's step from `node` (where `player` moves) to its chosen
    /// `child`: told to `rec`, and `state` advanced by the child's move.
    fn follow<R: Record<G::Move>>(
        &self,
        game: &G,
        node: u32,
        child: u32,
        player: Player,
        state: &mut G::State,
        rec: &mut R,
    ) {
        let mv = self.nodes[child as usize].mv.expect("children have moves");
        if R::ON {
            rec.selected(SelectStep {
                parent_visits: self.nodes[node as usize].visits,
                mover: Some(player),
                children: self.child_stats(node),
                chosen: mv,
            });
        }
        *state = game.play(state, mv);
    }

    /// RAVE's step down from `node` (where `player` moves, in `state`):
    /// the best of the children and the untried moves is followed, an
    /// untried one expanded first. Returns the node reached and whether
    /// it was just expanded (selection stops there); `None` when `node`
    /// has no moves.
    fn step_rave<R: Record<G::Move>>(
        &mut self,
        game: &G,
        node: u32,
        player: Player,
        k: f64,
        state: &mut G::State,
        rec: &mut R,
    ) -> Option<(u32, bool)> {
        match self.select_rave(node, k)? {
            Ok(child) => {
                self.follow(game, node, child, player, state, rec);
                Some((child, false))
            }
            Err(i) => {
                let nd = &mut self.nodes[node as usize];
                if R::ON {
                    rec.untried(nd.untried.clone());
                }
                let mv = nd.untried.swap_remove(i);
                let (visits, wins) = nd.untried_amaf.swap_remove(i);
                if R::ON {
                    rec.expanded(mv);
                }
                *state = game.play(state, mv);
                let mut n = Self::make_node(game, state, Some(mv), node, Some(player), true);
                (n.amaf_visits, n.amaf_wins) = (visits, wins);
                Some((self.add_child(node, n), true))
            }
        }
    }

    /// RAVE's selection at `node`: `Ok(child)` or `Err(i)` for the untried
    /// move `i`, whichever weighs most (see [`Mcts::with_rave`]); `None`
    /// when the node has no moves.
    fn select_rave(&self, node: u32, k: f64) -> Option<Result<u32, usize>> {
        let nd = &self.nodes[node as usize];
        let ln_n = (nd.visits.max(1) as f64).ln();
        let weigh = |visits: u64, wins: f64, amaf_visits: f32, amaf_wins: f32| {
            let amaf = if amaf_visits > 0.0 {
                f64::from(amaf_wins) / f64::from(amaf_visits)
            } else {
                0.5
            };
            if visits == 0 {
                return amaf;
            }
            let n = visits as f64;
            let beta = (k / (3.0 * n + k)).sqrt();
            (1.0 - beta) * wins / n + beta * amaf + self.c * (ln_n / n).sqrt()
        };
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        for &c in &nd.children {
            let ch = &self.nodes[c as usize];
            let v = weigh(ch.visits, ch.wins, ch.amaf_visits, ch.amaf_wins);
            if v > best_v {
                best_v = v;
                best = Some(Ok(c));
            }
        }
        for (i, &(visits, wins)) in nd.untried_amaf.iter().enumerate() {
            let v = weigh(0, 0.0, visits, wins);
            if v > best_v {
                best_v = v;
                best = Some(Err(i));
            }
        }
        best
    }

    /// RAVE's update after an iteration that ended at `leaf` with
    /// `result_for_max`: walking up from the leaf, each node's moves that
    /// its player played later in the iteration (first at their point)
    /// count the result in their AMAF statistics.
    fn update_amaf(&mut self, game: &G, leaf: u32, result_for_max: f64) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill((0, None));
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let for_player = |p: Player| match p {
            Player::Max => result_for_max as f32,
            Player::Min => 1.0 - result_for_max as f32,
        };
        // Latest first, so that each slot ends with its earliest play.
        for &(p, mv) in self.played.iter().rev() {
            if let Some(slot) = game.move_slot(mv) {
                self.seen[slot] = (stamp, Some(p));
            }
        }
        let mut n = leaf;
        while n != NONE {
            let nd = &self.nodes[n as usize];
            let (parent, to_move) = (nd.parent, nd.to_move);
            for j in 0..nd.children.len() {
                let c = self.nodes[n as usize].children[j] as usize;
                let ch = &mut self.nodes[c];
                if let (Some(mv), Some(p)) = (ch.mv, ch.mover)
                    && let Some(slot) = game.move_slot(mv)
                    && self.seen[slot] == (stamp, Some(p))
                {
                    ch.amaf_visits += 1.0;
                    ch.amaf_wins += for_player(p);
                }
            }
            if let Some(p) = to_move {
                let nd = &mut self.nodes[n as usize];
                for (i, &mv) in nd.untried.iter().enumerate() {
                    if let Some(slot) = game.move_slot(mv)
                        && self.seen[slot] == (stamp, Some(p))
                    {
                        nd.untried_amaf[i].0 += 1.0;
                        nd.untried_amaf[i].1 += for_player(p);
                    }
                }
            }
            let nd = &self.nodes[n as usize];
            if let (Some(mv), Some(p)) = (nd.mv, nd.mover)
                && let Some(slot) = game.move_slot(mv)
            {
                self.seen[slot] = (stamp, Some(p));
            }
            n = parent;
        }
    }

    fn add_child(&mut self, parent: u32, node: Node<G::Move>) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.nodes[parent as usize].children.push(id);
        id
    }

    /// The child with the highest UCT value; unvisited children first.
    fn select(&self, node: u32) -> Option<u32> {
        let nd = &self.nodes[node as usize];
        let ln_n = (nd.visits.max(1) as f64).ln();
        let mut best = None;
        let mut best_v = f64::NEG_INFINITY;
        for &c in &nd.children {
            let ch = &self.nodes[c as usize];
            let v = if ch.visits == 0 {
                f64::INFINITY
            } else {
                let n = ch.visits as f64;
                ch.wins / n + self.c * (ln_n / n).sqrt()
            };
            if v > best_v {
                best_v = v;
                best = Some(c);
            }
        }
        best
    }

    fn sample_outcome(&mut self, game: &G, state: &G::State) -> G::Move {
        self.outcomes.clear();
        game.chance_outcomes(state, &mut self.outcomes);
        let r: f64 = self.rng.random();
        let mut acc = 0.0;
        for &(m, p) in &self.outcomes {
            acc += p;
            if r < acc {
                return m;
            }
        }
        self.outcomes.last().expect("a chance node has outcomes").0
    }

    /// Plays to the end at random; the result for MAX: 1 win, 1/2 draw, 0 loss.
    /// A playout that has not ended after [`MAX_PLY`] plies stops there
    /// and marks the tree endless (see [`MctsResult::endless`]), so a game
    /// that can go on for ever cannot hang an iteration, and is named.
    fn playout<R: Record<G::Move>>(&mut self, game: &G, mut state: G::State, rec: &mut R) -> f64 {
        let mut played = std::mem::take(&mut self.played);
        played.clear();
        let mut result = None;
        if !self.owners.is_empty() {
            result = game.playout_owned(&state, &mut self.rng, &mut played, &mut self.owners);
            self.owned += u64::from(result.is_some());
        }
        if result.is_none() {
            result = game.playout(&state, &mut self.rng, &mut played);
        }
        if let Some(result) = result {
            if R::ON {
                played.iter().for_each(|&(_, mv)| rec.played(mv));
            }
            self.plies += played.len() as u64;
            self.played = played;
            return result;
        }
        self.played = played;
        let mut moves = std::mem::take(&mut self.moves);
        let mut plies = 0;
        let amaf = self.rave.is_some();
        while !game.is_terminal(&state) && plies < MAX_PLY {
            plies += 1;
            let mv = if game.is_chance(&state) {
                self.sample_outcome(game, &state)
            } else {
                moves.clear();
                game.legal_moves(&state, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let i = game.playout_choice(&state, &moves, self.rng.next_u64());
                moves[i.min(moves.len() - 1)]
            };
            if R::ON {
                rec.played(mv);
            }
            if amaf && !game.is_chance(&state) {
                self.played.push((game.to_move(&state), mv));
            }
            state = game.play(&state, mv);
        }
        self.moves = moves;
        self.plies += u64::from(plies);
        if !game.is_terminal(&state) {
            self.endless = plies >= MAX_PLY;
            return 0.5;
        }
        match game.utility(&state).0.signum() {
            1 => 1.0,
            -1 => 0.0,
            _ => 0.5,
        }
    }

    /// The root moves' statistics, most visited first.
    pub fn root_moves(&self) -> Vec<MctsMove<G::Move>> {
        let mut out: Vec<MctsMove<G::Move>> = self.nodes[0]
            .children
            .iter()
            .map(|&c| {
                let n = &self.nodes[c as usize];
                MctsMove {
                    mv: n.mv.expect("children have moves"),
                    visits: n.visits,
                    mean: if n.visits > 0 {
                        n.wins / n.visits as f64
                    } else {
                        0.0
                    },
                }
            })
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.visits));
        out
    }

    /// Moves the root to `state` if it is within two plies of the current
    /// root in the tree (the engine's move and the reply), keeping that
    /// subtree; otherwise starts a fresh tree. Returns whether a subtree was kept.
    pub fn reroot(&mut self, game: &G, state: &G::State) -> bool {
        if &self.root_state == state {
            return true;
        }
        // The ownership map is the root position's.
        self.owners.fill(0);
        self.owned = 0;
        let mut found = None;
        'search: for &c in &self.nodes[0].children {
            let mv = self.nodes[c as usize].mv.expect("children have moves");
            let s1 = game.play(&self.root_state, mv);
            if &s1 == state {
                found = Some(c);
                break;
            }
            for &g in &self.nodes[c as usize].children {
                let mv2 = self.nodes[g as usize].mv.expect("children have moves");
                if &game.play(&s1, mv2) == state {
                    found = Some(g);
                    break 'search;
                }
            }
        }
        match found {
            Some(n) => {
                self.keep_subtree(n);
                self.root_state = state.clone();
                true
            }
            None => {
                self.nodes.clear();
                self.root_state = state.clone();
                let root = Self::make_node(game, state, None, NONE, None, self.rave.is_some());
                self.nodes.push(root);
                false
            }
        }
    }

    /// Rebuilds the arena with only the subtree under `root`, which becomes node 0.
    fn keep_subtree(&mut self, root: u32) {
        let mut old = std::mem::take(&mut self.nodes);
        let mut map = vec![NONE; old.len()];
        let mut order = vec![root];
        let mut i = 0;
        while i < order.len() {
            let n = order[i];
            map[n as usize] = i as u32;
            order.extend(old[n as usize].children.iter().copied());
            i += 1;
        }
        for &n in &order {
            let mut node = std::mem::replace(
                &mut old[n as usize],
                Node {
                    mv: None,
                    parent: NONE,
                    children: Vec::new(),
                    untried: Vec::new(),
                    visits: 0,
                    wins: 0.0,
                    mover: None,
                    to_move: None,
                    amaf_visits: 0.0,
                    amaf_wins: 0.0,
                    untried_amaf: Vec::new(),
                },
            );
            node.parent = if n == root {
                NONE
            } else {
                map[node.parent as usize]
            };
            for c in &mut node.children {
                *c = map[*c as usize];
            }
            self.nodes.push(node);
        }
    }
}

/// Searches `state` by MCTS with `options`: one tree per thread, root
/// visit counts summed.
pub fn mcts<G: Chance + Playouts>(
    game: &G,
    state: &G::State,
    options: &MctsOptions,
) -> MctsResult<G::Move> {
    mcts_watched(game, state, options, &mut |_, _| true)
}

/// Who watches a search: shown the root moves and the iterations so far,
/// it answers whether to go on.
pub type Watch<'a, M> = dyn FnMut(&[MctsMove<M>], u64) -> bool + 'a;

/// How often a watched search shows its first tree to the watcher.
const WATCH_EVERY: Duration = Duration::from_millis(100);

/// [`mcts`], showing `watch` the first tree's root moves (most visited
/// first) and its iterations so far about ten times a second; when `watch`
/// answers false, every thread stops and the report covers what was done.
/// The iterations each tree runs do not depend on the watching: with an
/// iteration budget and a seed, the result is the same as [`mcts`]'s.
pub fn mcts_watched<G: Chance + Playouts>(
    game: &G,
    state: &G::State,
    options: &MctsOptions,
    watch: &mut Watch<'_, G::Move>,
) -> MctsResult<G::Move> {
    let start = Instant::now();
    let threads = options.threads.max(1);
    let grow = Grow {
        game,
        state,
        options,
        deadline: options.time_limit.map(|t| start + t),
        halt: &AtomicBool::new(false),
    };
    let share = |i: usize| share(options.iterations, threads, i);
    let results: Vec<_> = std::thread::scope(|s| {
        let grow = &grow;
        let helpers: Vec<_> = (1..threads)
            .map(|i| s.spawn(move || grow.tree(i, share(i), None)))
            .collect();
        let mut results = vec![grow.tree(0, share(0), Some(watch))];
        results.extend(
            helpers
                .into_iter()
                .map(|h| h.join().expect("an MCTS thread panicked")),
        );
        results
    });
    merge(game, state, results, start.elapsed())
}

/// Thread `i`'s share of `iterations` (all of them over all threads;
/// `None` or `u64::MAX` for no limit) among `threads`: the remainder to
/// the first threads.
fn share(iterations: Option<u64>, threads: usize, i: usize) -> u64 {
    match iterations {
        None | Some(u64::MAX) => u64::MAX,
        Some(total) => total / threads as u64 + u64::from((i as u64) < total % threads as u64),
    }
}

/// What every thread of one search shares.
struct Grow<'a, G: Chance + Playouts> {
    game: &'a G,
    state: &'a G::State,
    options: &'a MctsOptions,
    deadline: Option<Instant>,
    /// Set when the watcher stops the search.
    halt: &'a AtomicBool,
}

impl<G: Chance + Playouts> Grow<'_, G> {
    /// Grows tree `i` for `share` iterations (or to the deadline, or the
    /// halt), in slices so that the watcher, if any, sees it grow.
    fn tree(
        &self,
        i: usize,
        share: u64,
        mut watch: Option<&mut Watch<'_, G::Move>>,
    ) -> TreeResult<G::Move> {
        let mut tree = Mcts::for_thread(self.game, self.state, self.options, i);
        let mut done = 0;
        loop {
            let slice = Instant::now() + WATCH_EVERY;
            let until = self.deadline.map_or(slice, |d| d.min(slice));
            done += tree.run(self.game, share - done, Some(until));
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if tree.is_endless() {
                // The other trees play the same game: stop them too.
                self.halt.store(true, Ordering::Relaxed);
            }
            if done >= share || late || tree.is_full() || self.halt.load(Ordering::Relaxed) {
                break;
            }
            if let Some(w) = watch.as_mut()
                && !w(&tree.root_moves(), done)
            {
                self.halt.store(true, Ordering::Relaxed);
                break;
            }
        }
        TreeResult::of(&tree, done)
    }
}

/// What one tree of a search found.
struct TreeResult<M> {
    root: Vec<MctsMove<M>>,
    /// Iterations run.
    done: u64,
    size: u64,
    /// A playout was endless.
    endless: bool,
    owners: Vec<i64>,
    owned: u64,
}

impl<M> TreeResult<M> {
    fn of<G: Chance + Playouts<Move = M>>(tree: &Mcts<G>, done: u64) -> Self {
        let (owners, owned) = tree.ownership_sums();
        TreeResult {
            root: tree.root_moves(),
            done,
            size: tree.size() as u64,
            endless: tree.is_endless(),
            owners: owners.to_vec(),
            owned,
        }
    }
}

/// Sums the root statistics of several trees, in the game's move order for ties.
fn merge<G: Chance + Playouts>(
    game: &G,
    state: &G::State,
    results: Vec<TreeResult<G::Move>>,
    elapsed: Duration,
) -> MctsResult<G::Move> {
    let mut legal = Vec::new();
    if !game.is_terminal(state) && !game.is_chance(state) {
        game.legal_moves(state, &mut legal);
    }
    let mut moves: Vec<(MctsMove<G::Move>, f64)> = legal
        .iter()
        .map(|&mv| {
            (
                MctsMove {
                    mv,
                    visits: 0,
                    mean: 0.0,
                },
                0.0,
            )
        })
        .collect();
    let (mut iterations, mut tree_nodes, mut endless) = (0, 0, false);
    let (mut owners, mut owned) = (Vec::new(), 0);
    for t in results {
        iterations += t.done;
        tree_nodes += t.size;
        endless |= t.endless;
        owners.resize(t.owners.len().max(owners.len()), 0);
        owners
            .iter_mut()
            .zip(&t.owners)
            .for_each(|(sum, n)| *sum += n);
        owned += t.owned;
        for m in t.root {
            if let Some(slot) = moves.iter_mut().find(|(x, _)| x.mv == m.mv) {
                slot.0.visits += m.visits;
                slot.1 += m.mean * m.visits as f64;
            }
        }
    }
    let mut moves: Vec<MctsMove<G::Move>> = moves
        .into_iter()
        .map(|(mut m, wins)| {
            m.mean = if m.visits > 0 {
                wins / m.visits as f64
            } else {
                0.0
            };
            m
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
    MctsResult {
        best_move: moves.first().filter(|m| m.visits > 0).map(|m| m.mv),
        moves,
        iterations,
        tree_nodes,
        elapsed,
        endless,
        ownership: if owned == 0 {
            Vec::new()
        } else {
            owners
                .iter()
                .enumerate()
                .filter_map(|(slot, &n)| Some((game.slot_move(slot)?, n as f64 / owned as f64)))
                .collect()
        },
    }
}

/// MCTS as a player, keeping its trees (one per thread) from one move to
/// the next: after its move and the reply, each tree's subtree for the
/// new position is kept ([`Mcts::reroot`]), so the simulations already
/// spent on the likely replies are not thrown away.
pub struct MctsAgent<G: Chance + Playouts> {
    /// The search settings for every move.
    pub options: MctsOptions,
    trees: Vec<Mcts<G>>,
}

impl<G: Chance + Playouts> MctsAgent<G> {
    /// A player searching with `options` each move.
    pub fn new(options: MctsOptions) -> Self {
        MctsAgent {
            options,
            trees: Vec::new(),
        }
    }
}

impl<G: Chance + Playouts> MctsAgent<G> {
    /// Searches `state` and reports, each thread's tree reusing its
    /// subtree of the last search when that contains `state` (within two
    /// plies of its root) and starting afresh otherwise. The iterations
    /// are shared between the threads as by [`mcts`]; the report counts
    /// only this move's.
    pub fn think(&mut self, game: &G, state: &G::State) -> MctsResult<G::Move> {
        let start = Instant::now();
        let deadline = self.options.time_limit.map(|t| start + t);
        let threads = self.options.threads.max(1);
        if self.trees.len() != threads {
            self.trees = (0..threads)
                .map(|i| Mcts::for_thread(game, state, &self.options, i))
                .collect();
        }
        let iterations = self.options.iterations;
        let share = |i: usize| share(iterations, threads, i);
        let grow = |(i, tree): (usize, &mut Mcts<G>)| {
            tree.reroot(game, state);
            let done = tree.run(game, share(i), deadline);
            TreeResult::of(tree, done)
        };
        let results: Vec<TreeResult<G::Move>> = if threads == 1 {
            self.trees.iter_mut().enumerate().map(grow).collect()
        } else {
            std::thread::scope(|s| {
                let grow = &grow;
                let handles: Vec<_> = self
                    .trees
                    .iter_mut()
                    .enumerate()
                    .map(|t| s.spawn(move || grow(t)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("an MCTS thread panicked"))
                    .collect()
            })
        };
        merge(game, state, results, start.elapsed())
    }

    /// Forgets the trees: the next move starts afresh (a new game, or a
    /// game whose rules changed under the same positions).
    pub fn forget(&mut self) {
        self.trees.clear();
    }
}

impl<G: Chance + Playouts> crate::play::Agent<G> for MctsAgent<G> {
    fn choose(&mut self, game: &G, state: &G::State) -> Option<G::Move> {
        self.think(game, state).best_move
    }

    fn new_game(&mut self) {
        self.forget();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::score::MaxScore;

    /// Players take turns picking numbers from 0 to 3 until all are
    /// taken; MAX wins when its two sum to more than MIN's. Every number
    /// is played once in every game, two by each side: the AMAF counts
    /// follow from that.
    struct Picks;

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Taken(Vec<(u8, Player)>);

    impl Game for Picks {
        type State = Taken;
        type Move = u8;
        fn initial_state(&self) -> Taken {
            Taken(Vec::new())
        }
        fn to_move(&self, s: &Taken) -> Player {
            if s.0.len().is_multiple_of(2) {
                Player::Max
            } else {
                Player::Min
            }
        }
        fn legal_moves(&self, s: &Taken, moves: &mut Vec<u8>) {
            moves.extend((0..4).filter(|n| s.0.iter().all(|(m, _)| m != n)));
        }
        fn play(&self, s: &Taken, mv: u8) -> Taken {
            let mut next = s.clone();
            next.0.push((mv, self.to_move(s)));
            next
        }
        fn is_terminal(&self, s: &Taken) -> bool {
            s.0.len() == 4
        }
        fn utility(&self, s: &Taken) -> MaxScore {
            let sum = |p| {
                s.0.iter()
                    .filter(|(_, q)| *q == p)
                    .map(|(m, _)| i32::from(*m))
                    .sum::<i32>()
            };
            MaxScore((sum(Player::Max) - sum(Player::Min)).signum())
        }
    }

    impl Playouts for Picks {
        fn move_slots(&self) -> usize {
            4
        }
        fn move_slot(&self, mv: u8) -> Option<usize> {
            Some(usize::from(mv))
        }
        fn slot_move(&self, slot: usize) -> Option<u8> {
            u8::try_from(slot).ok().filter(|&n| n < 4)
        }
        /// A number is owned by whoever took it.
        fn playout_owned(
            &self,
            s: &Taken,
            rng: &mut dyn RngCore,
            moves: &mut Vec<(Player, u8)>,
            owners: &mut [i64],
        ) -> Option<f64> {
            if self.is_terminal(s) {
                return None;
            }
            let mut s = s.clone();
            let mut free = Vec::new();
            while !self.is_terminal(&s) {
                free.clear();
                self.legal_moves(&s, &mut free);
                let mv = free[(rng.next_u64() % free.len() as u64) as usize];
                moves.push((self.to_move(&s), mv));
                s = self.play(&s, mv);
            }
            for &(n, p) in &s.0 {
                owners[usize::from(n)] += p.sign() as i64;
            }
            Some((f64::from(self.utility(&s).0) + 1.0) / 2.0)
        }
    }

    /// The ownership map is the mean of the playouts' owners, summed over
    /// the threads: a number taken before the root is always its taker's,
    /// and the two left are shared so that their owners sum to 0.
    #[test]
    fn ownership_is_the_mean_owner_of_the_counted_playouts() {
        let start = Picks.play(&Picks.play(&Picks.initial_state(), 3), 0);
        for threads in [1, 2] {
            let options = MctsOptions {
                iterations: Some(500),
                threads,
                ownership: true,
                ..MctsOptions::default()
            };
            let r = mcts(&Picks, &start, &options);
            let map = &r.ownership;
            assert_eq!(map.iter().map(|m| m.0).collect::<Vec<_>>(), [0, 1, 2, 3]);
            assert_eq!(map[3].1, 1.0, "MAX took 3");
            assert_eq!(map[0].1, -1.0, "MIN took 0");
            assert!((map[1].1 + map[2].1).abs() < 1e-12, "{map:?}");
        }
        let off = mcts(&Picks, &start, &MctsOptions::default());
        assert!(off.ownership.is_empty());
    }

    impl Chance for Picks {}

    /// The root's player plays two of the four numbers in every
    /// iteration, so its moves' AMAF visits sum to twice the iterations
    /// and their AMAF wins to twice its wins (each iteration's result
    /// counted once per number it played), beside the prior, one virtual
    /// draw a move; every node's AMAF statistics include its own (the
    /// move into it is the first after its parent).
    #[test]
    fn amaf_counts_every_move_of_the_iteration_once() {
        let iterations = 500;
        let mut t = Mcts::new(&Picks, &Picks.initial_state(), 0.2, 7).with_rave(&Picks, Some(50.0));
        assert_eq!(t.run(&Picks, iterations, None), iterations);
        let root = &t.nodes[0];
        let children = root.children.iter().map(|&c| &t.nodes[c as usize]);
        // Less the prior, one virtual draw for each of the four moves.
        let visits: f32 = children.clone().map(|c| c.amaf_visits).sum::<f32>()
            + root.untried_amaf.iter().map(|u| u.0).sum::<f32>();
        assert_eq!(visits - 4.0, 2.0 * iterations as f32);
        let max_wins: f64 = children.clone().map(|c| c.wins).sum();
        let amaf_wins: f32 = children.map(|c| c.amaf_wins).sum::<f32>()
            + root.untried_amaf.iter().map(|u| u.1).sum::<f32>();
        assert!(
            (f64::from(amaf_wins) - 2.0 - 2.0 * max_wins).abs() < 1e-3,
            "{amaf_wins} {max_wins}"
        );
        for n in &t.nodes[1..] {
            assert!(n.amaf_visits >= n.visits as f32);
            assert!(f64::from(n.amaf_wins) + 1e-3 >= n.wins);
        }
        // MAX's only winning first pick is 3: MIN's best answer, 2,
        // leaves 1 and 0, and 3 + 1 > 2 + 0 (2 first: 2 + 1 = 3 + 0).
        assert_eq!(t.root_moves()[0].mv, 3);
    }

    /// Without move slots RAVE stays off: the same search as plain UCT.
    #[test]
    fn rave_is_off_for_a_game_without_move_slots() {
        struct NoSlots;
        impl Game for NoSlots {
            type State = Taken;
            type Move = u8;
            fn initial_state(&self) -> Taken {
                Picks.initial_state()
            }
            fn to_move(&self, s: &Taken) -> Player {
                Picks.to_move(s)
            }
            fn legal_moves(&self, s: &Taken, moves: &mut Vec<u8>) {
                Picks.legal_moves(s, moves)
            }
            fn play(&self, s: &Taken, mv: u8) -> Taken {
                Picks.play(s, mv)
            }
            fn is_terminal(&self, s: &Taken) -> bool {
                Picks.is_terminal(s)
            }
            fn utility(&self, s: &Taken) -> MaxScore {
                Picks.utility(s)
            }
        }
        impl Playouts for NoSlots {}
        impl Chance for NoSlots {}
        let s = NoSlots.initial_state();
        let plain = MctsOptions {
            iterations: Some(300),
            ..MctsOptions::default()
        };
        let rave = MctsOptions {
            rave: Some(100.0),
            ..plain
        };
        assert_eq!(
            mcts(&NoSlots, &s, &plain).moves,
            mcts(&NoSlots, &s, &rave).moves
        );
        assert_ne!(
            mcts(&Picks, &s, &plain).moves,
            mcts(&Picks, &s, &rave).moves
        );
    }
}
