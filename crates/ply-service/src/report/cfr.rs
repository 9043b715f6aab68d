//! CFR's report: an equilibrium strategy of a game with hidden
//! information, its value and how far it is from an equilibrium. `solve`
//! gives the average strategy of every information set; `analyze` adds,
//! set by set, how often it is reached and each move's current strategy
//! and accumulated regret (what the lab draws converging).

use std::fmt;
use std::time::Duration;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use ply_core::game::Chance;
use ply_core::notation::Notation;
use ply_core::search::cfr::{Cfr, Exploitability};

use super::{BestLine, Number, thousands};

/// The average strategy: each information set (MAX's, then MIN's, each
/// by depth) with each move's probability. In JSON an object of objects,
/// `{"K:pb": {"p": 0.0, "b": 1.0}, ...}`, in that order: Python's `json`
/// reads it as a dict of dicts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Strategy(pub Vec<(String, Vec<(String, Number)>)>);

impl Serialize for Strategy {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Moves<'a>(&'a [(String, Number)]);
        impl Serialize for Moves<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut m = s.serialize_map(Some(self.0.len()))?;
                for (mv, p) in self.0 {
                    m.serialize_entry(mv, p)?;
                }
                m.end()
            }
        }
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (set, moves) in &self.0 {
            m.serialize_entry(set, &Moves(moves))?;
        }
        m.end()
    }
}

/// Reads a JSON object's entries in their order.
struct InOrder<V>(std::marker::PhantomData<V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for InOrder<V> {
    type Value = Vec<(String, V)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(entry) = map.next_entry()? {
            out.push(entry);
        }
        Ok(out)
    }
}

/// One information set's moves, read in order.
struct MovesIn(Vec<(String, Number)>);

impl<'de> Deserialize<'de> for MovesIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(MovesIn(
            d.deserialize_map(InOrder(std::marker::PhantomData))?,
        ))
    }
}

impl<'de> Deserialize<'de> for Strategy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sets: Vec<(String, MovesIn)> = d.deserialize_map(InOrder(std::marker::PhantomData))?;
        Ok(Strategy(sets.into_iter().map(|(k, v)| (k, v.0)).collect()))
    }
}

/// A CFR run's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CfrSolve {
    /// Iterations run.
    pub iterations: u64,
    /// What the first player (MAX) wins a hand on average when both play
    /// the average strategy: the game's value, within the exploitability.
    pub value: Number,
    /// NashConv / 2, as OpenSpiel reports it: what a best response gains
    /// on average per player. 0 at an equilibrium.
    pub exploitability: Number,
    /// The sum over both players of what a best response gains.
    pub nash_conv: Number,
    /// The game's information sets.
    pub information_sets: usize,
    /// The game tree's nodes (chance nodes and ends included).
    pub tree_nodes: usize,
    /// The information set of the position asked about, when someone
    /// chooses there: the strategy to play from it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub here: Option<String>,
    /// At `here`, the move the strategy plays most often (it plays the
    /// others as often as `strategy` says: a mixed strategy has no single
    /// best move).
    #[serde(flatten)]
    pub line: BestLine,
    /// The average strategy of every information set (or of the one
    /// asked for).
    pub strategy: Strategy,
    /// The time taken.
    pub time_ms: f64,
}

/// One move of an information set, as `analyze` shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CfrMove {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The average strategy's probability: the answer.
    pub average: Number,
    /// The strategy of the last iteration (regret matching).
    pub current: Number,
    /// The accumulated regret (weighted as the variant weights it).
    pub regret: Number,
}

/// One information set, as `analyze` shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CfrSet {
    /// Its name: what the mover sees.
    pub name: String,
    /// Who moves: `MAX` or `MIN`.
    pub player: String,
    /// How often play reaches it when both play the average strategy.
    pub reach: Number,
    /// Its moves.
    pub moves: Vec<CfrMove>,
}

impl CfrSolve {
    /// The answer of `cfr` for the position `state` of `game`; with
    /// `only`, that information set alone.
    pub fn new<G: Notation + Chance>(
        game: &G,
        state: &G::State,
        cfr: &Cfr<G>,
        only: Option<usize>,
        elapsed: Duration,
    ) -> Self {
        let tree = cfr.tree();
        let average = cfr.average_strategy();
        let e: Exploitability = tree.exploitability(&average);
        let here = here(game, state, cfr);
        let best = here.map(|i| {
            let set = &tree.infosets()[i];
            let p = &average[set.offset..set.offset + set.moves.len()];
            let top = (0..p.len()).fold(0, |b, a| if p[a] > p[b] { a } else { b });
            game.format_move(state, set.moves[top])
        });
        let strategy = tree
            .display_order()
            .into_iter()
            .filter(|&i| only.is_none_or(|o| o == i))
            .map(|i| {
                let set = &tree.infosets()[i];
                let moves = set
                    .moves
                    .iter()
                    .enumerate()
                    .map(|(a, &m)| {
                        let p = average[set.offset + a];
                        (game.format_move(&set.state, m), Number(p))
                    })
                    .collect();
                (set.name.clone(), moves)
            })
            .collect();
        CfrSolve {
            iterations: cfr.iterations(),
            value: Number(e.value),
            exploitability: Number(e.exploitability),
            nash_conv: Number(e.nash_conv),
            information_sets: tree.infosets().len(),
            tree_nodes: tree.node_count(),
            here: here.map(|i| tree.infosets()[i].name.clone()),
            line: BestLine {
                pv: best.iter().cloned().collect(),
                best_move: best,
            },
            strategy: Strategy(strategy),
            time_ms: elapsed.as_secs_f64() * 1e3,
        }
    }
}

/// The information set of `state`, if someone chooses there.
fn here<G: Notation + Chance>(game: &G, state: &G::State, cfr: &Cfr<G>) -> Option<usize> {
    if game.is_terminal(state) || game.is_chance(state) {
        return None;
    }
    cfr.tree().find(&game.information_set(state))
}

/// Every information set (or the one asked for) with its reach and each
/// move's average, current strategy and regret.
pub fn cfr_sets<G: Notation + Chance>(game: &G, cfr: &Cfr<G>, only: Option<usize>) -> Vec<CfrSet> {
    let tree = cfr.tree();
    let average = cfr.average_strategy();
    let current = cfr.current_strategy();
    let reach = tree.infoset_reach(&average);
    tree.display_order()
        .into_iter()
        .filter(|&i| only.is_none_or(|o| o == i))
        .map(|i| (i, &tree.infosets()[i]))
        .map(|(i, set)| CfrSet {
            name: set.name.clone(),
            player: set.player.name().to_string(),
            reach: Number(reach[i]),
            moves: set
                .moves
                .iter()
                .enumerate()
                .map(|(a, &m)| {
                    let k = set.offset + a;
                    CfrMove {
                        mv: game.format_move(&set.state, m),
                        average: Number(average[k]),
                        current: Number(current[k]),
                        regret: Number(cfr.regrets()[k]),
                    }
                })
                .collect(),
        })
        .collect()
}

/// A probability as the tables print it.
fn prob(p: f64) -> String {
    format!("{p:.3}")
}

/// A set's moves in one line: `p 0.787  b 0.213`.
fn moves_line(moves: &[(String, Number)]) -> String {
    moves
        .iter()
        .map(|(m, p)| format!("{m} {}", prob(p.0)))
        .collect::<Vec<_>>()
        .join("  ")
}

impl CfrSolve {
    /// The text of a solve (with `sets`, of an analysis): the value, the
    /// exploitability, the position's set and the strategy table.
    pub fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        algo: &str,
        sets: Option<&[CfrSet]>,
    ) -> fmt::Result {
        writeln!(f, "{algo}")?;
        writeln!(
            f,
            "value:          {:+.4} a hand for MAX (the first player), both playing the average strategy",
            self.value.0
        )?;
        writeln!(
            f,
            "exploitability: {:.6} (NashConv {:.6}): what a best response to it gains, a hand",
            self.exploitability.0, self.nash_conv.0
        )?;
        if let Some(here) = &self.here {
            let plays = self
                .strategy
                .0
                .iter()
                .find(|(n, _)| n == here)
                .map_or(String::new(), |(_, m)| {
                    format!(", where it plays {}", moves_line(m))
                });
            writeln!(
                f,
                "here:           {here} (what the player to move sees){plays}"
            )?;
        }
        match sets {
            None => {
                writeln!(
                    f,
                    "strategy (each information set: what the mover sees, then each move's probability):"
                )?;
                let width = self
                    .strategy
                    .0
                    .iter()
                    .map(|(n, _)| n.len())
                    .max()
                    .unwrap_or(0);
                for (name, moves) in &self.strategy.0 {
                    writeln!(f, "  {name:<width$}  {}", moves_line(moves))?;
                }
            }
            Some(sets) => {
                writeln!(
                    f,
                    "each information set: who moves, how often play reaches it, then each move's average strategy (current, regret):"
                )?;
                let width = sets.iter().map(|s| s.name.len()).max().unwrap_or(0);
                for s in sets {
                    let moves: Vec<String> = s
                        .moves
                        .iter()
                        .map(|m| {
                            format!(
                                "{} {} ({}, {:+.3})",
                                m.mv,
                                prob(m.average.0),
                                prob(m.current.0),
                                m.regret.0
                            )
                        })
                        .collect();
                    writeln!(
                        f,
                        "  {:<width$}  {}  reach {}  {}",
                        s.name,
                        s.player,
                        prob(s.reach.0),
                        moves.join("  ")
                    )?;
                }
            }
        }
        let per_second = self.iterations as f64 / (self.time_ms / 1e3).max(1e-9);
        writeln!(
            f,
            "stats:          {} iterations in {:.1} ms ({} a second); {} information sets, {} nodes",
            thousands(self.iterations),
            self.time_ms,
            thousands(per_second as u64),
            thousands(self.information_sets as u64),
            thousands(self.tree_nodes as u64)
        )
    }
}
