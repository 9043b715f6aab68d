//! The one list of searches: every front end (`ply list`, the command
//! line's `--algo`, the server, Python, `ply play`, `ply trace`) reads it.
//! Adding a search is its file in ply-core plus one entry here.

use std::fmt;
use std::str::FromStr;

use ply_core::search::cfr::Variant;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::Error;

/// A search a request can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Plain minimax, no pruning: the reference.
    Minimax,
    /// Alpha-beta: textbook unless a table, ordering, PVS or fast wins are asked for.
    Alphabeta,
    /// Iterative deepening under a time budget, with a table.
    Id,
    /// Expectiminimax, for games with chance.
    Expectiminimax,
    /// Monte Carlo tree search (UCT).
    Mcts,
    /// MCTS guided by a learned network (AlphaZero's PUCT).
    Puct,
    /// The exact score search: null-window probes over the score range.
    Score,
    /// The nimber (Sprague-Grundy value) of an impartial game.
    Nimber,
    /// Counterfactual regret minimisation (hidden information), by variant.
    Cfr(Variant),
}

/// What a search needs of a game and a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// It plays chance nodes (false: it refuses positions that reach one).
    pub chance: bool,
    /// It is only for impartial games.
    pub impartial: bool,
    /// `ply trace` can show it step by step.
    pub traceable: bool,
    /// It plays by information sets: only for games with hidden
    /// information, the only searches that play them.
    pub hidden: bool,
}

impl Algo {
    /// Every search, in the order `ply list` shows them.
    pub const ALL: [Algo; 13] = [
        Algo::Minimax,
        Algo::Alphabeta,
        Algo::Id,
        Algo::Expectiminimax,
        Algo::Mcts,
        Algo::Puct,
        Algo::Score,
        Algo::Nimber,
        Algo::Cfr(Variant::Vanilla),
        Algo::Cfr(Variant::Plus),
        Algo::Cfr(Variant::Linear),
        Algo::Cfr(Variant::Discounted),
        Algo::Cfr(Variant::ExternalSampling),
    ];

    /// The name requests use.
    pub fn name(self) -> &'static str {
        match self {
            Algo::Minimax => "minimax",
            Algo::Alphabeta => "alphabeta",
            Algo::Id => "id",
            Algo::Expectiminimax => "expectiminimax",
            Algo::Mcts => "mcts",
            Algo::Puct => "puct",
            Algo::Score => "score",
            Algo::Nimber => "nimber",
            Algo::Cfr(v) => v.name(),
        }
    }

    /// One line on what it does and which options it takes.
    pub fn description(self) -> &'static str {
        match self {
            Algo::Minimax => {
                "plain minimax, no pruning: visits the whole tree; the reference the others are tested against"
            }
            Algo::Alphabeta => {
                "alpha-beta (negamax, fail-soft): full window at the root, cut when alpha >= beta, moves in the game's order; --tt-mb, --order, --pvs, --fast-win add engine features"
            }
            Algo::Id => {
                "iterative deepening: alpha-beta to depth 1, 2, 3 ... under --time-ms, the last iteration's line and the table ordering the next; stops once the value is proven"
            }
            Algo::Expectiminimax => {
                "MAX takes the max, MIN the min, a chance node the probability-weighted mean; --depth, --star1 prunes chance nodes"
            }
            Algo::Mcts => {
                "Monte Carlo tree search (UCT): --iterations, --time-ms, --seed, --c (default sqrt 2), --threads (root parallelism)"
            }
            Algo::Puct => {
                "MCTS guided by a learned network (AlphaZero's PUCT): the policy's prior steers selection, the value replaces the playout; --simulations (default 800, 0: the network alone), --net FILE (default: the game's built-in network), --c (default 1.5)"
            }
            Algo::Score => {
                "the exact solver: null-window alpha-beta probes bisecting the score range (table, ordering, the game's shortcuts); --weak for win/draw/loss; --batch FILE"
            }
            Algo::Nimber => {
                "the nimber (Sprague-Grundy value) of an impartial game, by memoised mex over its independent parts; 0 exactly when the player to move loses"
            }
            Algo::Cfr(Variant::Vanilla) => {
                "counterfactual regret minimisation, for hidden information (poker): the average strategy of every information set converges to an equilibrium; --iterations, with the exploitability"
            }
            Algo::Cfr(Variant::Plus) => {
                "CFR+: regrets floored at 0 and a linearly weighted average; converges much faster than CFR (the default for poker)"
            }
            Algo::Cfr(Variant::Linear) => {
                "linear CFR: regrets and the average weighted by the iteration number"
            }
            Algo::Cfr(Variant::Discounted) => {
                "discounted CFR (alpha 1.5, beta 0, gamma 2): old positive regrets shrink, negative ones halve each iteration"
            }
            Algo::Cfr(Variant::ExternalSampling) => {
                "external-sampling Monte Carlo CFR: each iteration samples the cards and the opponent's moves (--seed), every move of the updating player; cheap iterations, many of them"
            }
        }
    }

    /// What it needs.
    pub fn needs(self) -> Needs {
        Needs {
            chance: matches!(self, Algo::Expectiminimax | Algo::Mcts),
            impartial: self == Algo::Nimber,
            traceable: matches!(self, Algo::Minimax | Algo::Alphabeta | Algo::Expectiminimax),
            hidden: matches!(self, Algo::Cfr(_)),
        }
    }

    /// Every name, for messages: "minimax, alphabeta, ...".
    pub fn names() -> String {
        Algo::ALL.map(Algo::name).join(", ")
    }
}

impl fmt::Display for Algo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algo {
    type Err = Error;

    /// A search by name; an unknown name is an error that lists them all.
    fn from_str(text: &str) -> Result<Self, Error> {
        Algo::ALL
            .into_iter()
            .find(|a| a.name() == text)
            .ok_or_else(|| {
                Error::input(format!(
                    "'{text}' is not a search: give one of {}",
                    Algo::names()
                ))
            })
    }
}

impl Serialize for Algo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Algo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every search reads back from its name, and the names are distinct.
    #[test]
    fn names_read_back() {
        for a in Algo::ALL {
            assert_eq!(a.name().parse::<Algo>().unwrap(), a);
        }
        let err = "minmax".parse::<Algo>().unwrap_err();
        assert_eq!(
            err.message(crate::error::Words::Fields),
            "'minmax' is not a search: give one of minimax, alphabeta, id, expectiminimax, mcts, puct, score, nimber, cfr, cfr+, lcfr, dcfr, mccfr"
        );
    }
}
